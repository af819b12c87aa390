-- Issue 19: a completed order keeps holding its slot (the old index covered pending and confirmed only, so a slot
-- whose tour was marked completed could be booked again). Live orders that the old index let onto a slot already
-- held are cancelled by the system, with a timeline event, before the new index is built: per guide, date and
-- slot the completed order stays, else the confirmed one, else the oldest. Two completed orders of one slot cannot
-- be settled by a migration: it stops and names them, for an operator to decide.
DO $$
DECLARE
  clash text;
BEGIN
  SELECT string_agg(ids, '; ') INTO clash FROM (
    SELECT string_agg(id::text, ', ' ORDER BY id) AS ids FROM orders
    WHERE status = 'completed' AND deleted_at IS NULL
    GROUP BY guide_id, date, time_slot HAVING count(*) > 1
  ) twice;
  IF clash IS NOT NULL THEN
    RAISE EXCEPTION 'orders completed twice for one slot (ids %): settle them before migration 0010', clash;
  END IF;
END $$;--> statement-breakpoint
WITH ranked AS (
  SELECT id, status, row_number() OVER (
    PARTITION BY guide_id, date, time_slot
    ORDER BY (status = 'completed') DESC, (status = 'confirmed') DESC, created_at, id
  ) AS n
  FROM orders
  WHERE status IN ('pending', 'confirmed', 'completed') AND deleted_at IS NULL
), cancelled AS (
  UPDATE orders SET status = 'cancelled', updated_at = now()
  FROM ranked WHERE orders.id = ranked.id AND ranked.n > 1
  RETURNING orders.id, ranked.status AS from_status
)
INSERT INTO order_events (order_id, action, from_status, to_status, actor_role)
SELECT id, 'cancel', from_status, 'cancelled', 'system' FROM cancelled;--> statement-breakpoint
DROP INDEX "orders_no_double_booking";--> statement-breakpoint
CREATE UNIQUE INDEX "orders_no_double_booking" ON "orders" USING btree ("guide_id","date","time_slot") WHERE "orders"."status" in ('pending', 'confirmed', 'completed') and "orders"."deleted_at" is null;
