-- A push subscription belongs to the session that made it (docs/decisions/035): ending the session deletes it.
-- Rows from before do not say which session made them, and guessing (the user's newest session) could tie a
-- phone's browser to a laptop's session, which would then outlive the phone's logout. They are deleted; their
-- browsers are asked to subscribe again on /me. Push jobs still queued for them find no row and send nothing.
DELETE FROM "push_subscriptions";--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD COLUMN "session_id" text NOT NULL;--> statement-breakpoint
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "push_subscriptions_session_idx" ON "push_subscriptions" USING btree ("session_id");
