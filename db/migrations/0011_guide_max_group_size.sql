-- Issue 19: each guide sets the most people one booking may bring (docs/decisions/016-group-size.md). Every
-- existing row gets the default 10, so every guide has a maximum from the start.
ALTER TABLE "users" ADD COLUMN "max_group_size" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_max_group_size_range" CHECK ("users"."max_group_size" between 1 and 50);