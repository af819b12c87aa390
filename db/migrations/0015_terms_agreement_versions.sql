-- An agreement to the built-in fallback terms (no row in "terms") keeps its version only; one agreement per user and version.
ALTER TABLE "terms_agreements" ALTER COLUMN "terms_id" DROP NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "terms_agreements_user_version_unique" ON "terms_agreements" USING btree ("user_id","version");
