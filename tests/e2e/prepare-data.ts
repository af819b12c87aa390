/**
 * Run by global-setup (`npx tsx tests/e2e/prepare-data.ts <dataDir>`) BEFORE the server starts:
 * migrates a fresh embedded database, seeds the demo marketplace and appends a test-only paragraph
 * with a hostile and a safe markdown link to every active privacy policy text.
 * A separate process because PGlite allows one owner of a data directory at a time.
 */
import { and, eq, sql } from 'drizzle-orm';
import { openDatabase, setDatabase } from '~db/client';
import { terms } from '~db/schema';
import { seedDemo } from '~db/seed';

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
  console.log(
    `prepare-data: ${result.guides} guides, ${result.reviews} reviews; hostile link added to privacy (${updated
      .map((u) => u.locale)
      .join(', ')})`,
  );
} finally {
  await handle.close();
  setDatabase(undefined);
}
