-- One banner carries its three languages (issue 22, docs/decisions/026-banners.md): the zh-TW title and subtitle
-- stay in "title" and "subtitle", en and ja get their own columns, and the per-language rows go.
ALTER TABLE "banners" ADD COLUMN "title_en" text;--> statement-breakpoint
ALTER TABLE "banners" ADD COLUMN "title_ja" text;--> statement-breakpoint
ALTER TABLE "banners" ADD COLUMN "subtitle_en" text;--> statement-breakpoint
ALTER TABLE "banners" ADD COLUMN "subtitle_ja" text;--> statement-breakpoint
ALTER TABLE "banners" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- An en or ja row that is the same banner as a zh-TW row (same picture, link and place; the seed writes them so)
-- becomes that row's translation.
UPDATE "banners" AS z SET "title_en" = e."title", "subtitle_en" = e."subtitle"
  FROM "banners" AS e
  WHERE z."locale" = 'zh-TW' AND e."locale" = 'en' AND z."image_key" IS NOT DISTINCT FROM e."image_key"
    AND z."link_url" IS NOT DISTINCT FROM e."link_url" AND z."sort_order" = e."sort_order";--> statement-breakpoint
UPDATE "banners" AS z SET "title_ja" = j."title", "subtitle_ja" = j."subtitle"
  FROM "banners" AS j
  WHERE z."locale" = 'zh-TW' AND j."locale" = 'ja' AND z."image_key" IS NOT DISTINCT FROM j."image_key"
    AND z."link_url" IS NOT DISTINCT FROM j."link_url" AND z."sort_order" = j."sort_order";--> statement-breakpoint
DELETE FROM "banners" AS o
  WHERE o."locale" <> 'zh-TW' AND EXISTS (
    SELECT 1 FROM "banners" AS z
    WHERE z."locale" = 'zh-TW' AND z."image_key" IS NOT DISTINCT FROM o."image_key"
      AND z."link_url" IS NOT DISTINCT FROM o."link_url" AND z."sort_order" = o."sort_order");--> statement-breakpoint
-- A banner written in one other language only: its text is kept in that language's column (and, as the title
-- must not be empty, in the zh-TW one), switched off until an admin writes its Chinese text.
UPDATE "banners" SET "title_en" = "title", "subtitle_en" = "subtitle", "is_active" = false WHERE "locale" = 'en';--> statement-breakpoint
UPDATE "banners" SET "title_ja" = "title", "subtitle_ja" = "subtitle", "is_active" = false WHERE "locale" = 'ja';--> statement-breakpoint
DROP INDEX "banners_locale_active_idx";--> statement-breakpoint
ALTER TABLE "banners" DROP COLUMN "locale";--> statement-breakpoint
CREATE INDEX "banners_active_order_idx" ON "banners" USING btree ("is_active","sort_order");
