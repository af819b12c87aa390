ALTER TABLE "orders" ADD COLUMN "meeting_point" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "guide_phone" text;