CREATE TABLE "guide_view_counts" (
	"guide_id" integer NOT NULL,
	"day" date NOT NULL,
	"kind" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "guide_view_counts_guide_id_day_kind_pk" PRIMARY KEY("guide_id","day","kind"),
	CONSTRAINT "guide_view_counts_kind_check" CHECK (kind in ('guide_page', 'booking_form'))
);
--> statement-breakpoint
ALTER TABLE "guide_view_counts" ADD CONSTRAINT "guide_view_counts_guide_id_users_id_fk" FOREIGN KEY ("guide_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "guide_view_counts_day_idx" ON "guide_view_counts" USING btree ("day","kind");
--> statement-breakpoint
CREATE INDEX "orders_created_at_idx" ON "orders" USING btree ("created_at");
--> statement-breakpoint
CREATE INDEX "users_register_date_idx" ON "users" USING btree ("register_date");
--> statement-breakpoint
CREATE STATISTICS "orders_taipei_day_stats" ON ((created_at at time zone 'Asia/Taipei')::date) FROM "orders";
