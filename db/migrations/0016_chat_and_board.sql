-- Chat (issue 23): a message's client id makes a resend store nothing new; a participant may block the conversation.
ALTER TABLE "chat_messages" ADD COLUMN "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_messages_sender_client_unique" ON "chat_messages" USING btree ("sender_id","client_id");--> statement-breakpoint
CREATE INDEX "chat_messages_chat_id_idx" ON "chat_messages" USING btree ("chat_id","id");--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "blocked_by" integer;--> statement-breakpoint
ALTER TABLE "chats" ADD COLUMN "blocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "chats" ADD CONSTRAINT "chats_blocked_by_users_id_fk" FOREIGN KEY ("blocked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chats_guide_idx" ON "chats" USING btree ("guide_id");--> statement-breakpoint
CREATE TABLE "chat_message_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_message_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"message_id" integer NOT NULL,
	"reporter_id" integer NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "chat_message_reports" ADD CONSTRAINT "chat_message_reports_message_id_chat_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."chat_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_message_reports" ADD CONSTRAINT "chat_message_reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "chat_message_reports_once" ON "chat_message_reports" USING btree ("message_id","reporter_id");--> statement-breakpoint
-- The message board (issue 23): trip requests with a city, dates and languages; admins hide with a reason.
ALTER TABLE "board_posts" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "board_posts" ADD COLUMN "languages" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "board_posts" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "board_posts" ADD COLUMN "end_date" date;--> statement-breakpoint
ALTER TABLE "board_posts" ADD COLUMN "hidden_reason" text;--> statement-breakpoint
ALTER TABLE "board_posts" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE TABLE "board_replies" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "board_replies_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"post_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "board_replies" ADD CONSTRAINT "board_replies_post_id_board_posts_id_fk" FOREIGN KEY ("post_id") REFERENCES "public"."board_posts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_replies" ADD CONSTRAINT "board_replies_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "board_replies_post_idx" ON "board_replies" USING btree ("post_id","id");
