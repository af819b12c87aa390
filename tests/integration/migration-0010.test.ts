import fs from 'node:fs';
import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { orderEvents, orders } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { SLOT_HOLDING_STATUSES } from '~/schemas/orders';
import { createGuide, createOrder, createTraveler } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Migration 0010 (issue 19): completed orders keep their slot. A database that ran under the old index may hold
 * a live order on a slot whose tour was completed; the migration cancels it (with a system event) before the new
 * index is built, and stops, naming them, on two completed orders of one slot. The test puts the old index back,
 * writes such rows, and runs the migration's own statements.
 */
useTestDatabase();
const MIGRATION = new URL('../../db/migrations/0010_completed_orders_hold_slots.sql', import.meta.url);

async function runMigration() {
  const statements = fs.readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint');
  await getDb().transaction(async (tx) => {
    for (const statement of statements) await tx.execute(sql.raw(statement));
  });
}

async function putOldIndexBack() {
  await getDb().execute(sql.raw(`DROP INDEX "orders_no_double_booking"`));
  await getDb().execute(
    sql.raw(
      `CREATE UNIQUE INDEX "orders_no_double_booking" ON "orders" ("guide_id","date","time_slot") WHERE status in ('pending', 'confirmed') and deleted_at is null`,
    ),
  );
}

describe(`migration 0010: completed orders hold their slot (${testDriver})`, () => {
  it('the index covers exactly the statuses that hold a slot', async () => {
    const result = await getDb().execute(sql`select indexdef from pg_indexes where indexname = 'orders_no_double_booking'`);
    const definition = String((result as unknown as { rows: Array<{ indexdef: string }> }).rows[0]!.indexdef);
    for (const status of SLOT_HOLDING_STATUSES) expect(definition).toContain(`'${status}'`);
    for (const status of ['cancelled', 'refunded']) expect(definition).not.toContain(`'${status}'`);
  });

  it('cancels the live orders the old index let onto a completed slot, keeps the rest, and builds the new index', async () => {
    await putOldIndexBack();
    const guide = await createGuide();
    const [a, b, c] = [await createTraveler(), await createTraveler(), await createTraveler()];
    const day = addDays(todayInTaipei(), -1);
    const kept = await createOrder({ travelerId: a.id, guideId: guide.id, date: day, timeSlot: 'evening', status: 'completed' });
    const second = await createOrder({ travelerId: b.id, guideId: guide.id, date: day, timeSlot: 'evening', status: 'confirmed' });
    const untouched = await createOrder({ travelerId: c.id, guideId: guide.id, date: day, timeSlot: 'morning', status: 'pending' });
    const cancelledBefore = await createOrder({ travelerId: c.id, guideId: guide.id, date: day, timeSlot: 'evening', status: 'cancelled' });

    await runMigration();

    const rows = await getDb()
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(inArray(orders.id, [kept.id, second.id, untouched.id, cancelledBefore.id]))
      .orderBy(orders.id);
    expect(rows).toEqual([
      { id: kept.id, status: 'completed' },
      { id: second.id, status: 'cancelled' },
      { id: untouched.id, status: 'pending' },
      { id: cancelledBefore.id, status: 'cancelled' },
    ]);
    const events = await getDb().select().from(orderEvents).where(eq(orderEvents.orderId, second.id));
    expect(events).toMatchObject([{ action: 'cancel', fromStatus: 'confirmed', toStatus: 'cancelled', actorRole: 'system', actorId: null }]);
    await expect(
      createOrder({ travelerId: b.id, guideId: guide.id, date: day, timeSlot: 'evening', status: 'pending' }),
    ).rejects.toThrow();
  });

  it('stops on two completed orders of one slot and names them', async () => {
    await putOldIndexBack();
    const guide = await createGuide();
    const day = addDays(todayInTaipei(), -2);
    const one = await createOrder({ travelerId: (await createTraveler()).id, guideId: guide.id, date: day, timeSlot: 'morning', status: 'completed' });
    const two = await createOrder({ travelerId: (await createTraveler()).id, guideId: guide.id, date: day, timeSlot: 'morning', status: 'completed' });
    const failure = await runMigration().then(() => undefined, (error: unknown) => error);
    const messages: string[] = [];
    for (let e = failure as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) messages.push(String(e.message));
    expect(messages.join(' | ')).toContain(`orders completed twice for one slot (ids ${one.id}, ${two.id})`);
    // Settled by an operator, it runs.
    await getDb().update(orders).set({ deletedAt: new Date() }).where(eq(orders.id, two.id));
    await runMigration();
  });
});
