ALTER TABLE "board_replies" ADD COLUMN "is_hidden" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "board_replies" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "hidden_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "unread_mailed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chat_message_reports" ADD COLUMN "resolution" text;--> statement-breakpoint
ALTER TABLE "chat_message_reports" ADD COLUMN "resolved_by" integer;--> statement-breakpoint
ALTER TABLE "chat_message_reports" ADD CONSTRAINT "chat_message_reports_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_messages_unread_mail_idx" ON "chat_messages" USING btree ("created_at") WHERE "chat_messages"."read_at" is null and "chat_messages"."unread_mailed_at" is null;--> statement-breakpoint
CREATE INDEX "chat_message_reports_open_idx" ON "chat_message_reports" USING btree ("created_at") WHERE "chat_message_reports"."resolved_at" is null;
