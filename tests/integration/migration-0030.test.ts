import fs from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { termsAgreements } from '~db/schema';
import { agreementStatus } from '~/services/accounts/terms.server';
import { createTerms, createTraveler } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Migration 0030 (issue 35): each language has its own line of terms versions. Before it, one agreement stood for
 * a version in every language (the zh-TW row was recorded, one per user and version); the migration counts it for
 * that version's text in each language, so nobody is asked again for a text they had already agreed to. The test
 * puts the old index back, writes an agreement as it was recorded, and runs the migration's own statements.
 */
useTestDatabase();
const MIGRATION = new URL('../../db/migrations/0030_terms_per_language.sql', import.meta.url);
const run = (statement: string) => getDb().execute(sql.raw(statement));

describe(`migration 0030: terms agreements per language (${testDriver})`, () => {
  it('an agreement to a version counts for its text in each language; then one version may be agreed once per language', async () => {
    await run(`DROP INDEX "terms_agreements_user_builtin_unique"`);
    await run(`CREATE UNIQUE INDEX "terms_agreements_user_version_unique" ON "terms_agreements" USING btree ("user_id","version")`);
    const zh = await createTerms({ kind: 'terms', locale: 'zh-TW', version: '1.2.0' });
    const en = await createTerms({ kind: 'terms', locale: 'en', version: '1.2.0' });
    const traveler = await createTraveler();
    await getDb().delete(termsAgreements).where(eq(termsAgreements.userId, traveler.id));
    await getDb().insert(termsAgreements).values({ userId: traveler.id, termsId: zh.id, version: '1.2.0' });
    expect((await agreementStatus(traveler, 'en')).requiresAgreement).toBe(true);

    const statements = fs.readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint');
    await getDb().transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
    });
    const rows = await getDb().select().from(termsAgreements).where(eq(termsAgreements.userId, traveler.id));
    expect(rows.map((r) => r.termsId).sort()).toEqual([zh.id, en.id].sort());
    expect((await agreementStatus(traveler, 'en')).requiresAgreement).toBe(false);
    expect((await agreementStatus(traveler, 'zh-TW')).requiresAgreement).toBe(false);
    // The built-in text (no row) is still recorded once per version.
    await getDb().insert(termsAgreements).values({ userId: traveler.id, termsId: null, version: '1.0.0' });
    await expect(getDb().insert(termsAgreements).values({ userId: traveler.id, termsId: null, version: '1.0.0' })).rejects.toThrow();
  });
});
