-- hand-written: keyword search (issue 9) uses trigram indexes; pg_trgm is a trusted extension (PostgreSQL 13+), PGlite registers it in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "search_history" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "search_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "headline" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "localized" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_text" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rating_average" real;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "rating_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_history" ADD CONSTRAINT "search_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "search_history_user_key_unique" ON "search_history" USING btree ("user_id","key");--> statement-breakpoint
CREATE INDEX "search_history_user_created_idx" ON "search_history" USING btree ("user_id","created_at");--> statement-breakpoint
-- hand-written: guide standing is active|suspended now; a new guide is listed without approval (issue 9).
UPDATE "users" SET "guide_status" = CASE WHEN "guide_status" = 'rejected' THEN 'suspended' WHEN "guide_status" = 'suspended' THEN 'suspended' ELSE 'active' END WHERE "guide_status" IS NOT NULL OR "type" = 'guide';--> statement-breakpoint
-- hand-written: stored rating figures start from the reviews already written (visible traveler reviews of the guide).
UPDATE "users" SET "rating_average" = r.avg, "rating_count" = r.n FROM (SELECT "reviewee_id", round(avg("rating")::numeric, 1)::real AS avg, count(*)::int AS n FROM "reviews" WHERE "role" = 'traveler' AND "is_hidden" = false GROUP BY "reviewee_id") r WHERE r."reviewee_id" = "users"."id";--> statement-breakpoint
CREATE INDEX "users_search_text_trgm_idx" ON "users" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_guide_status_check" CHECK ("users"."guide_status" is null or "users"."guide_status" in ('active', 'suspended'));