/**
 * Run by global-setup (`npx tsx tests/e2e/prepare-data.ts <dataDir>`) BEFORE the server starts:
 * migrates a fresh embedded database, seeds the demo marketplace and appends a test-only paragraph
 * with a hostile and a safe markdown link to every active privacy policy text.
 * A separate process because PGlite allows one owner of a data directory at a time.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { openDatabase, setDatabase } from '~db/client';
import { sessions, terms, termsAgreements, users } from '~db/schema';
import { prepareEarnings } from './earnings-data';
import { TERMS_DISAGREE, TERMS_ENGLISH, TERMS_PENDING } from './terms-users';
import { seedDemo } from '~server/seed/demo';
import { prepareFinance } from './finance-data';

/** When the e2e data's zh-TW terms of service 1.1.0 came out (tests/e2e/legal.spec.ts reads it on /terms). */
const ZH_TERMS_1_1_0_DATE = new Date('2025-09-01T00:00:00+08:00');

const HOSTILE_PARAGRAPH =
  '\n\n## 測試段落\n\n這段文字只在端對端測試中出現：[惡意連結](javascript:alert(document.domain)) 與 [安全連結](https://example.com/)。\n';

const dataDir = process.argv[2];
if (!dataDir) {
  console.error('usage: tsx tests/e2e/prepare-data.ts <dataDir>');
  process.exit(2);
}

const handle = await openDatabase({ dataDir });
setDatabase(handle);
try {
  await handle.migrate();
  const result = await seedDemo(handle.db);
  if (!result.seeded) throw new Error(`prepare-data: database in ${dataDir} was not empty`);
  const updated = await handle.db
    .update(terms)
    .set({ content: sql`${terms.content} || ${HOSTILE_PARAGRAPH}` })
    .where(and(eq(terms.kind, 'privacy'), eq(terms.isActive, true)))
    .returning({ id: terms.id, locale: terms.locale });
  if (updated.length < 3) throw new Error(`prepare-data: expected 3 active privacy texts, updated ${updated.length}`);
  // Logged in with an address that is not verified: a state the product no longer creates (an email change
  // used to leave it behind; now the old address stays verified until the new one is confirmed), but the
  // email banner still serves such accounts. One per banner test and project, each with a web session the
  // test turns into a signed cookie (LEGACY_UNVERIFIED in tests/e2e/auth.spec.ts).
  for (const project of ['js-on', 'js-off']) {
    for (const label of ['banner', 'dismiss']) {
      const [user] = await handle.db
        .insert(users)
        .values({ name: `舊帳號${label}`, email: `e2e-legacy-${label}-${project}@example.com`, type: 'traveler', isEmailVerified: false, lastLogin: new Date() })
        .returning({ id: users.id });
      await handle.db.insert(sessions).values({
        id: `e2e-legacy-${label}-${project}`,
        userId: user!.id,
        kind: 'web',
        expiresAt: new Date(Date.now() + 7 * 24 * 60 * 60 * 1000),
      });
    }
  }
  // Chat (tests/e2e/chat.spec.ts): a traveler of its own per project, with the demo password, so its bookings
  // and conversations touch no other spec's accounts.
  const [demoTraveler] = await handle.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, 'pinyen.chen@demo.travel-assistant.tw'));
  for (const project of ['js-on', 'js-off']) {
    await handle.db.insert(users).values({
      name: project === 'js-on' ? '聊天旅客甲' : '聊天旅客乙',
      email: `e2e-chat-traveler-${project}@example.com`,
      passwordHash: demoTraveler!.hash,
      type: 'traveler',
      isEmailVerified: true,
      emailVerifiedAt: new Date(),
    });
  }
  // Board replies, the report queue and the chat reconnect (tests/e2e/chat-moderation.spec.ts): their own traveler.
  for (const project of ['js-on', 'js-off']) {
    await handle.db.insert(users).values({
      name: project === 'js-on' ? '留言旅客甲' : '留言旅客乙',
      email: `e2e-moderation-traveler-${project}@example.com`,
      passwordHash: demoTraveler!.hash,
      type: 'traveler',
      isEmailVerified: true,
      emailVerifiedAt: new Date(),
    });
  }
  // A guide messages a board post's author (tests/e2e/board-message.spec.ts): the poster, a traveler of its own.
  for (const project of ['js-on', 'js-off']) {
    await handle.db.insert(users).values({
      name: project === 'js-on' ? '貼文旅客甲' : '貼文旅客乙',
      email: `e2e-board-traveler-${project}@example.com`,
      passwordHash: demoTraveler!.hash,
      type: 'traveler',
      isEmailVerified: true,
      emailVerifiedAt: new Date(),
    });
  }
  // The booking note masked for the guide until confirmation (tests/e2e/order-note.spec.ts): its own traveler.
  for (const project of ['js-on', 'js-off']) {
    await handle.db.insert(users).values({
      name: project === 'js-on' ? '備註旅客甲' : '備註旅客乙',
      email: `e2e-note-traveler-${project}@example.com`,
      passwordHash: demoTraveler!.hash,
      type: 'traveler',
      isEmailVerified: true,
      emailVerifiedAt: new Date(),
    });
  }
  // The admin's finance pages (tests/e2e/admin-finance.spec.ts): payments, payouts in transit, a mismatch.
  await prepareFinance(handle.db);
  // The earnings tab (tests/e2e/earnings.spec.ts): a guide per project whose money went through the ledger.
  await prepareEarnings(handle.db, demoTraveler!.hash!);
  // Issue 35: the zh-TW terms of service went on to 1.1.0 (same words) while English and Japanese stay at 1.0.0.
  // The terms spec's English readers agreed to the English text and to zh-TW 1.0.0 only; its disagreeing people
  // to nothing.
  const [zh100] = await handle.db
    .update(terms)
    .set({ isActive: false })
    .where(and(eq(terms.kind, 'terms'), eq(terms.locale, 'zh-TW'), eq(terms.isActive, true)))
    .returning();
  const [zh110] = await handle.db.insert(terms).values({ kind: 'terms', locale: 'zh-TW', title: zh100!.title, content: zh100!.content, version: '1.1.0', isActive: true, createdAt: ZH_TERMS_1_1_0_DATE, updatedAt: ZH_TERMS_1_1_0_DATE }).returning();
  for (const [email, locale] of [...TERMS_ENGLISH.map((e) => [e, 'en'] as const), ...TERMS_DISAGREE.map((e) => [e, 'zh-TW'] as const)]) {
    await handle.db.insert(users).values({ name: email.includes('english') ? 'Terms Reader' : '條款旅客', email, locale, passwordHash: demoTraveler!.hash, type: 'traveler', isEmailVerified: true, emailVerifiedAt: new Date() });
  }
  // Everyone agreed to the current terms of every language (issue 24: otherwise each login would open the terms
  // modal), except the people tests/e2e/terms.spec.ts logs in as to agree.
  const active = await handle.db.select({ id: terms.id, version: terms.version, locale: terms.locale }).from(terms).where(and(eq(terms.kind, 'terms'), eq(terms.isActive, true)));
  const everyone = await handle.db.select({ id: users.id, email: users.email }).from(users);
  const pending = everyone.filter((u) => (TERMS_PENDING as readonly string[]).includes(u.email));
  if (pending.length !== TERMS_PENDING.length) throw new Error(`prepare-data: expected the users ${TERMS_PENDING.join(', ')}`);
  const special = new Set<string>([...TERMS_PENDING, ...TERMS_ENGLISH, ...TERMS_DISAGREE]);
  await handle.db
    .insert(termsAgreements)
    .values(everyone.filter((u) => !special.has(u.email)).flatMap((u) => active.map((row) => ({ userId: u.id, termsId: row.id, version: row.version }))))
    .onConflictDoNothing();
  const english = everyone.filter((u) => (TERMS_ENGLISH as readonly string[]).includes(u.email));
  const en100 = active.find((row) => row.locale === 'en')!;
  await handle.db.delete(termsAgreements).where(inArray(termsAgreements.userId, [...english, ...everyone.filter((u) => (TERMS_DISAGREE as readonly string[]).includes(u.email))].map((u) => u.id)));
  await handle.db.insert(termsAgreements).values(english.flatMap((u) => [{ userId: u.id, termsId: en100.id, version: '1.0.0' }, { userId: u.id, termsId: zh100!.id, version: '1.0.0' }]));
  if (zh110!.version !== '1.1.0') throw new Error('prepare-data: zh-TW terms 1.1.0 not published');
  // The terms spec's people agreed to an earlier version: a newer one is current, so they are asked again
  // (the seed has them agree to the current one, like every demo person: that is taken back first).
  await handle.db.delete(termsAgreements).where(inArray(termsAgreements.userId, pending.map((u) => u.id)));
  await handle.db.insert(termsAgreements).values(pending.map((u) => ({ userId: u.id, termsId: null, version: '0.9.0' })));
  console.log(
    `prepare-data: ${result.guides} guides, ${result.reviews} reviews; hostile link added to privacy (${updated
      .map((u) => u.locale)
      .join(', ')})`,
  );
} finally {
  await handle.close();
  setDatabase(undefined);
}
