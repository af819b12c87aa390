CREATE TABLE "guide_payout_accounts" (
	"guide_id" integer PRIMARY KEY NOT NULL,
	"bank_code" text NOT NULL,
	"account_number" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "guide_payout_accounts_bank_code_format" CHECK ("guide_payout_accounts"."bank_code" ~ '^[0-9]{3}$'),
	CONSTRAINT "guide_payout_accounts_account_number_format" CHECK ("guide_payout_accounts"."account_number" ~ '^[0-9]{6,16}$')
);
--> statement-breakpoint
CREATE TABLE "ledger_accounts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_accounts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"owner_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_accounts_kind_owner_unique" UNIQUE NULLS NOT DISTINCT("kind","owner_id"),
	CONSTRAINT "ledger_accounts_kind_check" CHECK (kind in ('provider_authorised', 'provider_clearing', 'traveler_funds_held', 'guide_payable', 'platform_commission', 'refunds', 'payouts_in_transit', 'guide_paid_out')),
	CONSTRAINT "ledger_accounts_owner_by_kind" CHECK (("ledger_accounts"."owner_id" is not null) = (kind in ('guide_payable', 'guide_paid_out')))
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"idempotency_key" text NOT NULL,
	"order_id" integer,
	"payout_id" integer,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_check" CHECK (kind in ('authorise', 'capture', 'void', 'refund', 'settle', 'payout', 'payout_paid'))
);
--> statement-breakpoint
CREATE TABLE "ledger_postings" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "ledger_postings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"entry_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"amount" integer NOT NULL,
	CONSTRAINT "ledger_postings_amount_nonzero" CHECK ("ledger_postings"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payment_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider" text NOT NULL,
	"provider_event_id" text NOT NULL,
	"payment_id" integer,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	CONSTRAINT "payment_events_provider_check" CHECK (provider in ('simulator', 'ecpay')),
	CONSTRAINT "payment_events_outcome_check" CHECK (outcome in ('applied', 'duplicate', 'ignored'))
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" integer NOT NULL,
	"provider" text NOT NULL,
	"merchant_trade_no" text NOT NULL,
	"status" text DEFAULT 'unpaid' NOT NULL,
	"amount" integer NOT NULL,
	"captured_amount" integer DEFAULT 0 NOT NULL,
	"refunded_amount" integer DEFAULT 0 NOT NULL,
	"provider_trade_no" text,
	"authorised_at" timestamp with time zone,
	"captured_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_provider_check" CHECK (provider in ('simulator', 'ecpay')),
	CONSTRAINT "payments_status_check" CHECK (status in ('unpaid', 'authorised', 'captured', 'partly_refunded', 'refunded', 'voided', 'failed', 'expired')),
	CONSTRAINT "payments_merchant_trade_no_format" CHECK ("payments"."merchant_trade_no" ~ '^[A-Za-z0-9]{1,20}$'),
	CONSTRAINT "payments_amounts" CHECK ("payments"."amount" > 0 and "payments"."refunded_amount" >= 0 and "payments"."refunded_amount" <= "payments"."captured_amount" and "payments"."captured_amount" <= "payments"."amount")
);
--> statement-breakpoint
CREATE TABLE "payout_items" (
	"payout_id" integer NOT NULL,
	"order_id" integer NOT NULL,
	"amount" integer NOT NULL,
	CONSTRAINT "payout_items_payout_id_order_id_pk" PRIMARY KEY("payout_id","order_id"),
	CONSTRAINT "payout_items_amount_nonzero" CHECK ("payout_items"."amount" <> 0)
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "payouts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"guide_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"status" text DEFAULT 'in_transit' NOT NULL,
	"bank_code" text NOT NULL,
	"account_number" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "payouts_status_check" CHECK (status in ('in_transit', 'paid')),
	CONSTRAINT "payouts_amount_positive" CHECK ("payouts"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "simulator_trades" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "simulator_trades_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"merchant_id" text NOT NULL,
	"merchant_trade_no" text NOT NULL,
	"trade_no" text NOT NULL,
	"status" text DEFAULT 'awaiting_card' NOT NULL,
	"amount" integer NOT NULL,
	"refunded_amount" integer DEFAULT 0 NOT NULL,
	"checkout" jsonb NOT NULL,
	"switches" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"card_last4" text,
	"payment_date" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "simulator_trades_status_check" CHECK (status in ('awaiting_card', 'authorised', 'closed', 'given_up', 'declined')),
	CONSTRAINT "simulator_trades_amounts" CHECK ("simulator_trades"."amount" > 0 and "simulator_trades"."refunded_amount" between 0 and "simulator_trades"."amount")
);
--> statement-breakpoint
ALTER TABLE "guide_payout_accounts" ADD CONSTRAINT "guide_payout_accounts_guide_id_users_id_fk" FOREIGN KEY ("guide_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_accounts" ADD CONSTRAINT "ledger_accounts_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_entry_id_ledger_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_postings" ADD CONSTRAINT "ledger_postings_account_id_ledger_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."ledger_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_items" ADD CONSTRAINT "payout_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_guide_id_users_id_fk" FOREIGN KEY ("guide_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_idempotency_key_unique" ON "ledger_entries" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_entries_order_idx" ON "ledger_entries" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_entry_idx" ON "ledger_postings" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "ledger_postings_account_idx" ON "ledger_postings" USING btree ("account_id","amount");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_events_provider_event_unique" ON "payment_events" USING btree ("provider","provider_event_id");--> statement-breakpoint
CREATE INDEX "payment_events_payment_idx" ON "payment_events" USING btree ("payment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_merchant_trade_no_unique" ON "payments" USING btree ("merchant_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_one_live_per_order" ON "payments" USING btree ("order_id") WHERE "payments"."status" not in ('failed', 'expired');--> statement-breakpoint
CREATE INDEX "payments_status_idx" ON "payments" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "payout_items_order_idx" ON "payout_items" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "payouts_guide_idx" ON "payouts" USING btree ("guide_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "simulator_trades_merchant_trade_unique" ON "simulator_trades" USING btree ("merchant_id","merchant_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "simulator_trades_trade_no_unique" ON "simulator_trades" USING btree ("trade_no");--> statement-breakpoint
-- hand-written (docs/decisions/038): every ledger entry's postings sum to zero and an entry has two postings or more,
-- checked at commit (deferred), so the one function that writes an entry may insert its postings one by one and a
-- hand-made insert that forgets a side fails. Written for PostgreSQL 15 and PGlite alike.
CREATE FUNCTION ledger_check_entry(entry integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  total bigint;
  postings integer;
BEGIN
  SELECT coalesce(sum(amount), 0), count(*) INTO total, postings FROM ledger_postings WHERE entry_id = entry;
  IF total <> 0 OR postings < 2 THEN
    RAISE EXCEPTION 'ledger entry % does not balance: % postings summing to %', entry, postings, total USING ERRCODE = '23514';
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION ledger_postings_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_check_entry(NEW.entry_id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION ledger_entries_balance() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ledger_check_entry(NEW.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_postings_balance AFTER INSERT ON ledger_postings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_postings_balance();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER ledger_entries_balance AFTER INSERT ON ledger_entries
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ledger_entries_balance();
--> statement-breakpoint
-- The ledger is append-only: a correction is a new entry, never an edit.
CREATE FUNCTION ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the ledger is append-only (% on %)', TG_OP, TG_TABLE_NAME USING ERRCODE = '55000';
END
$$;
--> statement-breakpoint
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
--> statement-breakpoint
CREATE TRIGGER ledger_postings_append_only BEFORE UPDATE OR DELETE ON ledger_postings FOR EACH ROW EXECUTE FUNCTION ledger_append_only();
