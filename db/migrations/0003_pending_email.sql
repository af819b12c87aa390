ALTER TABLE "email_codes" ADD COLUMN "purpose" text DEFAULT 'verify_email' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "email_codes" ADD CONSTRAINT "email_codes_purpose_check" CHECK (purpose in ('verify_email', 'change_email', 'reset_password'));