-- Issue 32: the commission percent is copied onto each order when it is booked; payment provider calls leave through
-- the outbox as jobs queued once per order and action (dedupe_key `order:{id}:{action}`).
ALTER TABLE "orders" ADD COLUMN "commission_percent" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_dedupe_key_idx" ON "outbox" USING btree ("dedupe_key");--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_commission_percent_range" CHECK ("orders"."commission_percent" between 0 and 100);