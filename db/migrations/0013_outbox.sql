CREATE TABLE "outbox" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "outbox_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "outbox_due_idx" ON "outbox" USING btree ("next_attempt_at","id") WHERE "outbox"."status" = 'pending';
--> statement-breakpoint
INSERT INTO "outbox" ("kind", "payload", "status", "attempts", "created_at", "sent_at")
SELECT 'mail', jsonb_strip_nulls(jsonb_build_object('to', "to", 'subject', "subject", 'text', "text", 'html', "html")), 'sent', 1, "created_at", "created_at"
FROM "outbox_emails" ORDER BY "id";
--> statement-breakpoint
DROP TABLE "outbox_emails";
