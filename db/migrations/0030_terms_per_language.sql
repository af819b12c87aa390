DROP INDEX "terms_agreements_user_version_unique";--> statement-breakpoint
CREATE UNIQUE INDEX "terms_agreements_user_builtin_unique" ON "terms_agreements" USING btree ("user_id","version") WHERE "terms_agreements"."terms_id" is null;--> statement-breakpoint
-- Until now one agreement stood for a version in every language (the zh-TW row was recorded). Each language now
-- has its own line of versions: a past agreement to a version counts for that version's text in each language.
INSERT INTO "terms_agreements" ("user_id", "terms_id", "version", "agreed_at")
SELECT a."user_id", other."id", a."version", a."agreed_at"
FROM "terms_agreements" a
JOIN "terms" agreed ON agreed."id" = a."terms_id"
JOIN "terms" other ON other."kind" = agreed."kind" AND other."version" = agreed."version" AND other."id" <> agreed."id"
ON CONFLICT DO NOTHING;
