import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { terms, termsAgreements } from '~db/schema';
import { bookSlot } from '~/services/booking/booking.server';
import { sendMessage, startChat } from '~/services/messaging/chats.server';
import { agreeToTerms, agreementStatus, currentTerms, publishTerms, readersAskedAgain, termsStartingPoint } from '~/services/accounts/terms.server';
import { createTerms, createTraveler, createUser } from '~server/seed/factories';
import { bookableGuide, bookingDay } from '../support/booking';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Issue 35, terms versions per language: each language has its own line of versions; a reader agrees to the
 * current text of their language (zh-TW when it has none, marked untranslated); publishing zh-TW 1.1.0 asks
 * nothing of English readers. Booking and messaging are refused on the server until the user has agreed.
 */
useTestDatabase();

// Each case starts with no published text (the database is shared by the file's cases).
beforeEach(async () => {
  await getDb().delete(termsAgreements);
  await getDb().delete(terms);
});

async function withoutAgreement<T extends { id: number }>(user: T): Promise<T> {
  await getDb().delete(termsAgreements).where(eq(termsAgreements.userId, user.id));
  return user;
}

async function threeLanguages() {
  const rows = {
    zh: await createTerms({ kind: 'terms', locale: 'zh-TW', title: '服務條款', content: '## 中文條款', version: '1.0.0', isActive: true }),
    en: await createTerms({ kind: 'terms', locale: 'en', title: 'Terms of Service', content: '## English terms', version: '1.0.0', isActive: true }),
  };
  return rows;
}

describe(`terms per language (${testDriver})`, () => {
  it('agreeing in one language agrees to the terms in force: a reader who switches language is not asked again until that language publishes', async () => {
    const { zh } = await threeLanguages();
    const reader = await withoutAgreement(await createTraveler());
    expect((await agreementStatus(reader, 'en')).requiresAgreement).toBe(true);
    // Agreed in Chinese (the modal of a zh-TW reader): the English and Japanese texts in force count as agreed too.
    await agreeToTerms(reader, { termsId: zh.id, termsVersion: '1.0.0' });
    expect((await agreementStatus(reader, 'en')).requiresAgreement).toBe(false);
    expect((await agreementStatus(reader, 'ja')).requiresAgreement).toBe(false);
    // A new English text asks again in English, not in Chinese.
    const admin = await createUser({ type: 'admin' });
    await publishTerms(admin, { kind: 'terms', locale: 'en', version: '1.1.0', title: 'Terms', content: '## New' });
    expect((await agreementStatus(reader, 'en')).requiresAgreement).toBe(true);
    expect((await agreementStatus(reader, 'zh-TW')).requiresAgreement).toBe(false);
  });

  it('publishing zh-TW 1.1.0 asks the zh-TW readers (and those of a language without its own text) again, never the English ones', async () => {
    const { zh, en } = await threeLanguages();
    const reader = await withoutAgreement(await createTraveler());
    await agreeToTerms(reader, { termsId: zh.id, termsVersion: '1.0.0' });
    await agreeToTerms(reader, { termsId: en.id, termsVersion: '1.0.0' });
    expect((await agreementStatus(reader, 'en')).requiresAgreement).toBe(false);
    expect((await agreementStatus(reader, 'zh-TW')).requiresAgreement).toBe(false);

    const admin = await createUser({ type: 'admin' });
    expect(await readersAskedAgain('terms', 'zh-TW')).toEqual(['zh-TW', 'ja']);
    expect(await readersAskedAgain('terms', 'en')).toEqual(['en']);
    expect(await readersAskedAgain('privacy', 'zh-TW')).toEqual([]);
    const v11 = await publishTerms(admin, { kind: 'terms', locale: 'zh-TW', version: '1.1.0', title: '服務條款', content: '## 新版' });

    expect(await agreementStatus(reader, 'en')).toEqual({ requiresAgreement: false, currentVersion: '1.0.0', agreedVersion: '1.0.0', locale: 'en' });
    expect(await agreementStatus(reader, 'zh-TW')).toMatchObject({ requiresAgreement: true, currentVersion: '1.1.0', locale: 'zh-TW' });
    // Japanese has no text of its own: the zh-TW one, and it says so.
    expect(await agreementStatus(reader, 'ja')).toMatchObject({ requiresAgreement: true, currentVersion: '1.1.0', locale: 'zh-TW' });
    expect(await currentTerms('ja')).toMatchObject({ id: v11.id, locale: 'zh-TW', untranslated: true });
    expect(await currentTerms('en')).toMatchObject({ id: en.id, locale: 'en', untranslated: false });

    // Agreeing to the English text again changes nothing for zh-TW; agreeing to 1.1.0 does.
    await agreeToTerms(reader, { termsId: en.id, termsVersion: '1.0.0' });
    expect((await agreementStatus(reader, 'zh-TW')).requiresAgreement).toBe(true);
    await agreeToTerms(reader, { termsId: v11.id, termsVersion: '1.1.0' });
    expect((await agreementStatus(reader, 'zh-TW')).requiresAgreement).toBe(false);
    expect((await agreementStatus(reader, 'ja')).requiresAgreement).toBe(false);
    // An old text is refused.
    await expect(agreeToTerms(reader, { termsId: zh.id, termsVersion: '1.0.0' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    // The same version number in two languages is two agreements.
    const en11 = await publishTerms(admin, { kind: 'terms', locale: 'en', version: '1.1.0', title: 'Terms', content: '## New' });
    expect((await agreementStatus(reader, 'en')).requiresAgreement).toBe(true);
    await agreeToTerms(reader, { termsId: en11.id, termsVersion: '1.1.0' });
    expect((await agreementStatus(reader, 'en')).requiresAgreement).toBe(false);
  });

  it('the admin starts from the current text of the chosen language, else the zh-TW one, else the built-in terms', async () => {
    expect(await termsStartingPoint('terms', 'en')).toMatchObject({ from: 'en', title: 'Terms of Service', currentVersion: '1.0.0' });
    expect((await termsStartingPoint('terms', 'en')).content).toContain('## 4. Privacy');
    expect(await termsStartingPoint('privacy', 'ja')).toMatchObject({ from: 'ja', title: '', content: '', currentVersion: null });
    const { en } = await threeLanguages();
    expect(await termsStartingPoint('terms', 'en')).toMatchObject({ from: 'en', title: en.title, content: en.content, currentVersion: '1.0.0' });
    expect(await termsStartingPoint('terms', 'ja')).toMatchObject({ from: 'zh-TW', content: '## 中文條款', currentVersion: null });
  });

  it('booking and messaging are refused until the user agrees to a current text', async () => {
    const guide = await bookableGuide();
    const traveler = await withoutAgreement(await createTraveler());
    const booking = { guideId: guide.id, date: bookingDay(), timeSlot: 'morning' as const, numberOfPeople: 1, termsAccepted: true as const };
    await expect(bookSlot(traveler, booking)).rejects.toMatchObject({ code: 'FORBIDDEN', messageKey: 'terms.errors.MUST_AGREE' });
    await expect(startChat(traveler, { guideId: guide.id, message: '你好' })).rejects.toMatchObject({ messageKey: 'terms.errors.MUST_AGREE' });

    await agreeToTerms(traveler, { termsId: 0, termsVersion: '1.0.0' });
    const { chat } = await startChat(traveler, { guideId: guide.id, message: '你好' });
    expect((await bookSlot(traveler, booking)).order.status).toBe('pending');

    // A new version in the traveler's language: refused again until they agree to it.
    const admin = await createUser({ type: 'admin' });
    const v2 = await publishTerms(admin, { kind: 'terms', locale: 'zh-TW', version: '2.0.0', title: '服務條款', content: '## 2' });
    await expect(sendMessage(traveler, chat.id, { text: '還在嗎' })).rejects.toMatchObject({ messageKey: 'terms.errors.MUST_AGREE' });
    await expect(bookSlot(traveler, { ...booking, timeSlot: 'afternoon' })).rejects.toMatchObject({ messageKey: 'terms.errors.MUST_AGREE' });
    await agreeToTerms(traveler, { termsId: v2.id, termsVersion: '2.0.0' });
    expect((await sendMessage(traveler, chat.id, { text: '還在嗎' })).created).toBe(true);
  });
});
