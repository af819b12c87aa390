DROP INDEX "users_search_text_trgm_idx";--> statement-breakpoint
CREATE INDEX "users_search_text_trgm_idx" ON "users" USING gin ("search_text" gin_trgm_ops) WITH (fastupdate=false);