import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { getDb } from '~db/client';
import { auditLogs, termsAgreements } from '~db/schema';
import { createTraveler, createUser } from '~server/seed/factories';
import { publishTerms } from '~/services/accounts/terms.server';
import { loginAs } from '../../support/api';
import { bookableGuide, bookingDay } from '../../support/booking';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 24 (and issue 22's terms versions): GET /api/terms/current, POST /api/terms/agree and
 * GET /api/v1/terms/agreement-status over real HTTP, and a new version making a user agree again.
 */
useTestDatabase();
const server = useTestServer();

const status = async (token: string, language = 'zh-TW') =>
  (await server.request('/api/v1/terms/agreement-status', { token, headers: { 'accept-language': language } })).json.data;

describe(`terms API (${testDriver})`, () => {
  it('answers the built-in terms (1.0.0) in the reader\'s language when no version is active', async () => {
    const zh = await server.request('/api/terms/current', { headers: { 'accept-language': 'zh-TW' } });
    expect(zh.status).toBe(200);
    expect(zh.headers.get('content-type')).toMatch(/application\/json/);
    expect(zh.json.data).toMatchObject({ id: 0, version: '1.0.0', isActive: true, title: '服務條款', updatedAt: '2025-06-03T00:00:00.000Z' });
    const en = await server.request('/api/terms/current', { headers: { 'accept-language': 'en' } });
    expect(en.json.data.title).toBe('Terms of Service');
    expect(en.json.data.content).toContain('## 4. Privacy');
  });

  it('agreement: 401 without a login; a new user must agree; agreeing ends it; a new version makes them agree again', async () => {
    const traveler = await createTraveler();
    // The factory's people agreed to the built-in terms: this one has not.
    await getDb().delete(termsAgreements).where(eq(termsAgreements.userId, traveler.id));
    const { token } = await loginAs(traveler);
    expect((await server.request('/api/v1/terms/agreement-status')).status).toBe(401);
    expect((await server.request('/api/terms/agree', { method: 'POST', json: { termsId: 0, termsVersion: '1.0.0' } })).status).toBe(401);

    expect(await status(token)).toEqual({ requiresAgreement: true, currentVersion: '1.0.0', agreedVersion: null, locale: 'zh-TW' });
    const agreed = await server.request('/api/terms/agree', { method: 'POST', token, json: { termsId: 0, termsVersion: '1.0.0' } });
    expect(agreed.status).toBe(200);
    expect(agreed.json.data.version).toBe('1.0.0');
    expect(await status(token)).toMatchObject({ requiresAgreement: false, agreedVersion: '1.0.0' });
    // Agreeing twice is harmless.
    expect((await server.request('/api/terms/agree', { method: 'POST', token, json: { termsId: 0, termsVersion: '1.0.0' } })).status).toBe(200);

    const admin = await createUser({ type: 'admin' });
    const v2 = await publishTerms(admin, { kind: 'terms', locale: 'zh-TW', version: '2.0.0', title: '服務條款 v2', content: '## 新條款' });
    expect(await status(token)).toEqual({ requiresAgreement: true, currentVersion: '2.0.0', agreedVersion: '1.0.0', locale: 'zh-TW' });
    const current = await server.request('/api/terms/current', { headers: { 'accept-language': 'en' } });
    // No English text at all: the zh-TW one, and the answer says so (issue 35).
    expect(current.json.data).toMatchObject({ id: v2.id, version: '2.0.0', title: '服務條款 v2', locale: 'zh-TW', untranslated: true });
    expect(await status(token, 'en')).toMatchObject({ requiresAgreement: true, currentVersion: '2.0.0', locale: 'zh-TW' });

    // The old version is refused and records nothing.
    const stale = await server.request('/api/terms/agree', { method: 'POST', token, json: { termsId: 0, termsVersion: '1.0.0' } });
    expect(stale.status).toBe(400);
    expect(stale.json.code).toBe('VALIDATION_ERROR');
    const wrongId = await server.request('/api/terms/agree', { method: 'POST', token, json: { termsId: v2.id + 999, termsVersion: '2.0.0' } });
    expect(wrongId.status).toBe(400);
    expect(await getDb().select().from(termsAgreements).where(eq(termsAgreements.userId, traveler.id))).toHaveLength(1);

    expect((await server.request('/api/terms/agree', { method: 'POST', token, json: { termsId: v2.id, termsVersion: '2.0.0' } })).status).toBe(200);
    expect(await status(token)).toMatchObject({ requiresAgreement: false, agreedVersion: '2.0.0' });

    // Issue 35: an English text of its own; then a zh-TW 2.1.0 asks nothing of the English reader.
    const en = await publishTerms(admin, { kind: 'terms', locale: 'en', version: '2.0.0', title: 'Terms of Service', content: '## English' });
    expect((await server.request('/api/terms/current', { headers: { 'accept-language': 'en' } })).json.data).toMatchObject({ id: en.id, locale: 'en', untranslated: false });
    expect(await status(token, 'en')).toMatchObject({ requiresAgreement: true, locale: 'en' });
    expect((await server.request('/api/terms/agree', { method: 'POST', token, json: { termsId: en.id, termsVersion: '2.0.0' } })).status).toBe(200);
    await publishTerms(admin, { kind: 'terms', locale: 'zh-TW', version: '2.1.0', title: '服務條款 v2.1', content: '## 新新條款' });
    expect(await status(token, 'en')).toMatchObject({ requiresAgreement: false, currentVersion: '2.0.0', locale: 'en' });
    expect(await status(token, 'zh-TW')).toMatchObject({ requiresAgreement: true, currentVersion: '2.1.0', locale: 'zh-TW' });

    const audit = await getDb().select().from(auditLogs).where(eq(auditLogs.action, 'terms.publish'));
    expect(audit.some((entry) => entry.targetId === String(v2.id) && entry.actorId === admin.id)).toBe(true);
  });

  it('booking and messaging are refused (403, saying why) until the user agrees (issue 35)', async () => {
    const guide = await bookableGuide();
    const traveler = await createTraveler();
    await getDb().delete(termsAgreements).where(eq(termsAgreements.userId, traveler.id));
    const { token } = await loginAs(traveler);
    const headers = { 'accept-language': 'en' };
    const chat = await server.request('/api/v1/chats', { method: 'POST', token, headers, json: { guideId: guide.id, message: 'Hello' } });
    expect(chat.status).toBe(403);
    expect(chat.json.message).toBe('Please agree to the latest Terms of Service before booking or sending messages.');
    const order = await server.request('/api/v1/orders', { method: 'POST', token, headers, json: { guideId: guide.id, date: bookingDay(), timeSlot: 'morning', numberOfPeople: 1, termsAccepted: true } });
    expect(order.status).toBe(403);
    expect(order.json.message).toBe('Please agree to the latest Terms of Service before booking or sending messages.');

    const { id, version } = (await server.request('/api/terms/current', { headers })).json.data;
    expect((await server.request('/api/terms/agree', { method: 'POST', token, json: { termsId: id, termsVersion: version } })).status).toBe(200);
    expect((await server.request('/api/v1/chats', { method: 'POST', token, headers, json: { guideId: guide.id, message: 'Hello' } })).status).toBe(201);
  });

  it('admins never need to agree', async () => {
    const { token } = await loginAs(await createUser({ type: 'admin' }));
    expect((await status(token)).requiresAgreement).toBe(false);
  });

  it('a version only goes up, per kind and language', async () => {
    const admin = await createUser({ type: 'admin' });
    await publishTerms(admin, { kind: 'privacy', locale: 'en', version: '1.2.0', title: 'Privacy', content: 'text' });
    await expect(publishTerms(admin, { kind: 'privacy', locale: 'en', version: '1.1.9', title: 'Privacy', content: 'text' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(publishTerms(admin, { kind: 'privacy', locale: 'en', version: '1.2.0', title: 'Privacy', content: 'text' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    // Another language has its own line of versions; 1.10.0 is after 1.9.0.
    await publishTerms(admin, { kind: 'privacy', locale: 'ja', version: '1.9.0', title: 'Privacy', content: 'text' });
    await publishTerms(admin, { kind: 'privacy', locale: 'ja', version: '1.10.0', title: 'Privacy', content: 'text' });
  });

  it('the three calls are in the OpenAPI document', async () => {
    const doc = (await server.request('/api/v1/openapi.json')).json;
    expect(doc.paths['/api/terms/current'].get).toBeTruthy();
    expect(doc.paths['/api/terms/agree'].post).toBeTruthy();
    expect(doc.paths['/api/v1/terms/agreement-status'].get).toBeTruthy();
  });
});
