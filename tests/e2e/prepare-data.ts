/**
 * Run by global-setup (`npx tsx tests/e2e/prepare-data.ts <dataDir>`) BEFORE the server starts:
 * migrates a fresh embedded database, seeds the demo marketplace and appends a test-only paragraph
 * with a hostile and a safe markdown link to every active privacy policy text.
 * A separate process because PGlite allows one owner of a data directory at a time.
 */
import { and, eq, sql } from 'drizzle-orm';
import { openDatabase, setDatabase } from '~db/client';
import { sessions, terms, users } from '~db/schema';
import { seedDemo } from '~db/seed/demo';

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
  console.log(
    `prepare-data: ${result.guides} guides, ${result.reviews} reviews; hostile link added to privacy (${updated
      .map((u) => u.locale)
      .join(', ')})`,
  );
} finally {
  await handle.close();
  setDatabase(undefined);
}
