import fs from 'node:fs';
import { asc, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { banners } from '~db/schema';
import { storeBlob } from '~/services/platform/blobs.server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Migration 0019 (issue 22): a banner carries its three languages. Rows written one per language (the seed wrote
 * each banner so: same picture, link and place) become one banner with its en and ja text; a banner written in
 * one other language only is kept, switched off, its text in that language's column. The test puts the old table
 * back, writes such rows, and runs the migration's own statements.
 */
useTestDatabase();
const MIGRATION = new URL('../../db/migrations/0019_banner_languages.sql', import.meta.url);

const run = (statement: string) => getDb().execute(sql.raw(statement));

async function putOldTableBack() {
  await run(`DELETE FROM "banners"`);
  await run(`DROP INDEX "banners_active_order_idx"`);
  for (const column of ['title_en', 'title_ja', 'subtitle_en', 'subtitle_ja', 'updated_at']) await run(`ALTER TABLE "banners" DROP COLUMN "${column}"`);
  await run(`ALTER TABLE "banners" ADD COLUMN "locale" text DEFAULT 'zh-TW' NOT NULL`);
  await run(`CREATE INDEX "banners_locale_active_idx" ON "banners" USING btree ("locale","is_active","sort_order")`);
}

describe(`migration 0019: one banner, three languages (${testDriver})`, () => {
  it('merges the per-language rows of one banner and switches off a banner with no Chinese text', async () => {
    await putOldTableBack();
    const image = await storeBlob(Buffer.from('picture'), 'image/webp');
    const insert = (locale: string, title: string, subtitle: string | null, sortOrder: number, imageKey: string | null, link: string | null) =>
      getDb().execute(sql`insert into banners (locale, title, subtitle, sort_order, image_key, link_url) values (${locale}, ${title}, ${subtitle}, ${sortOrder}, ${imageKey}, ${link})`);
    await insert('zh-TW', '花蓮', '海岸', 1, image, '/guides?city=hualien');
    await insert('en', 'Hualien', 'The coast', 1, image, '/guides?city=hualien');
    await insert('ja', '花蓮（日）', '海岸線', 1, image, '/guides?city=hualien');
    await insert('zh-TW', '台北', null, 2, null, null);
    await insert('en', 'Only in English', 'Sub', 3, null, '/guides');

    const statements = fs.readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint');
    await getDb().transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
    });

    const rows = await getDb()
      .select({ title: banners.title, titleEn: banners.titleEn, titleJa: banners.titleJa, subtitle: banners.subtitle, subtitleEn: banners.subtitleEn, subtitleJa: banners.subtitleJa, isActive: banners.isActive })
      .from(banners)
      .orderBy(asc(banners.sortOrder));
    expect(rows).toEqual([
      { title: '花蓮', titleEn: 'Hualien', titleJa: '花蓮（日）', subtitle: '海岸', subtitleEn: 'The coast', subtitleJa: '海岸線', isActive: true },
      { title: '台北', titleEn: null, titleJa: null, subtitle: null, subtitleEn: null, subtitleJa: null, isActive: true },
      { title: 'Only in English', titleEn: 'Only in English', titleJa: null, subtitle: 'Sub', subtitleEn: 'Sub', subtitleJa: null, isActive: false },
    ]);
  });
});
