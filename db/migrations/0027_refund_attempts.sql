CREATE TABLE "refund_attempts" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"state" text NOT NULL,
	"resends" integer DEFAULT 0 NOT NULL,
	"later_steps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_attempts_state_check" CHECK (state in ('calling', 'in_doubt', 'not_sent', 'done')),
	CONSTRAINT "refund_attempts_amount_check" CHECK ("refund_attempts"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "refund_attempts" ADD CONSTRAINT "refund_attempts_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_attempts" ADD CONSTRAINT "refund_attempts_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_attempts_in_doubt_idx" ON "refund_attempts" USING btree ("state") WHERE "refund_attempts"."state" = 'in_doubt';