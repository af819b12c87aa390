import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Database } from '~db/client';
import * as schema from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { bookSlot } from '~/services/booking/booking.server';
import { listNotifications } from '~/services/messaging/notifications.server';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * What a booking costs the database (issue 20): every statement is a round trip that holds the traveler's lock, so
 * the count is part of the design. The service runs on the test database through a drizzle instance that
 * records each statement it sends.
 */
const database = useTestDatabase();

function recordingDatabase(statements: string[], parameters: unknown[][] = []): Database {
  const logger = {
    logQuery: (query: string, params: unknown[]) => {
      statements.push(query);
      parameters.push(params);
    },
  };
  const client = (database.handle.db as unknown as { $client: unknown }).$client;
  return (
    testDriver === 'pg' ? drizzlePg(client as pg.Pool, { schema, logger }) : drizzlePglite(client as PGlite, { schema, logger })
  ) as unknown as Database;
}

describe('a booking', () => {
  it('of a paid tour is five statements: BEGIN, the traveler with the guide, the slot with the counts, the order with its event and unpaid payment, COMMIT; no notice yet', async () => {
    const guide = await createGuide({ price: 2600, locale: 'en' });
    const traveler = await createTraveler({ isEmailVerified: true, name: 'Statement Counter' });
    const day = addDays(todayInTaipei(), 5);
    await createAvailability(guide.id, { from: day, days: 1, price: 2600 });

    const statements: string[] = [];
    const { order, payment } = await bookSlot(traveler, { guideId: guide.id, date: day, timeSlot: 'afternoon', numberOfPeople: 2, termsAccepted: true }, recordingDatabase(statements));

    const inTransaction = ['select', 'with', 'with'];
    // PGlite's driver opens and ends the transaction itself, without a statement drizzle sees.
    expect(statements.map((s) => s.trim().split(/\s+/)[0]!.toLowerCase())).toEqual(testDriver === 'pg' ? ['begin', ...inTransaction, 'commit'] : inTransaction);
    // The order's statement writes the order, its first event and its payment (issue 32).
    const placing = statements.at(testDriver === 'pg' ? -2 : -1)!;
    for (const table of ['"orders"', '"order_events"', '"payments"']) expect(placing).toContain(`insert into ${table}`);
    expect(placing).not.toContain('"notifications"');
    expect(order).toMatchObject({ guideId: guide.id, travelerId: traveler.id, date: day, timeSlot: 'afternoon', status: 'pending', totalPrice: 2600 });
    expect(payment).toMatchObject({ status: 'unpaid', amount: 2600, captured: 0, refunded: 0 });
    const [row] = await database.handle.db.select().from(schema.payments).where(eq(schema.payments.orderId, order.id));
    expect(row).toMatchObject({ status: 'unpaid', amount: 2600 });
    // The guide hears of it once the card is authorised, not in the booking's statement.
    expect((await listNotifications(guide.id, { page: 1, limit: 10, unread: false }, 'en')).notifications).toEqual([]);
  });
});

/** Every plan node that reads the orders table, with the rows it read (returned plus thrown away by a filter). */
type PlanNode = { 'Relation Name'?: string; 'Actual Rows'?: number; 'Actual Loops'?: number; 'Rows Removed by Filter'?: number; Plans?: PlanNode[] };
function ordersRowsRead(node: PlanNode): number {
  const own = node['Relation Name'] === 'orders' ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + ordersRowsRead(child), 0);
}

describe.runIf(testDriver === 'pg')('the booking limits (PostgreSQL)', () => {
  it("read only the traveler's own orders, even through a cached generic plan on statistics older than the table", async () => {
    // Many live orders of somebody else, written after the table's statistics were taken (a fresh or fast-growing
    // table between two ANALYZE runs): a plan that walks the orders of every traveler shows up here.
    const guide = await createGuide({ price: 2600 });
    const other = await createTraveler({ isEmailVerified: true });
    const client = await (database.handle.db as unknown as { $client: pg.Pool }).$client.connect();
    try {
      await client.query(
        `insert into orders (traveler_id, guide_id, date, time_slot, number_of_people, status, total_price, terms_accepted_at)
         select $1, $2, date '2030-01-01' + (n / 3), (array['morning', 'afternoon', 'evening'])[n % 3 + 1], 2, 'pending', 2600, now()
         from generate_series(0, 2999) as n`,
        [other.id, guide.id],
      );
      const traveler = await createTraveler({ isEmailVerified: true });
      const day = addDays(todayInTaipei(), 5);
      await createAvailability(guide.id, { from: day, days: 1, price: 2600 });
      const statements: string[] = [];
      const parameters: unknown[][] = [];
      await bookSlot(traveler, { guideId: guide.id, date: day, timeSlot: 'morning', numberOfPeople: 2, termsAccepted: true }, recordingDatabase(statements, parameters));
      const index = statements.findIndex((s) => s.includes('availability_slots'));
      expect(index).toBeGreaterThan(-1);

      // The plan a pooled connection keeps after its first executions: generic, made without the parameters' values.
      await client.query('set plan_cache_mode = force_generic_plan');
      await client.query(`prepare limits_under_test as ${statements[index]}`);
      const values = parameters[index]!.map((v) => (v instanceof Date ? v.toISOString() : v));
      const literals = values.map((v) => (typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`));
      const { rows } = await client.query(`explain (analyze, format json) execute limits_under_test(${literals.join(', ')})`);
      const plan = (rows[0] as { 'QUERY PLAN': { Plan: PlanNode }[] })['QUERY PLAN'][0]!.Plan;
      // The traveler's one order (the booking above) may be read by each count; never the other 3,000.
      expect(ordersRowsRead(plan)).toBeLessThanOrEqual(10);
    } finally {
      // The connection goes back to the pool as it came: no statement of the test, no forced generic plans.
      await client.query('deallocate limits_under_test; reset plan_cache_mode').catch(() => undefined);
      client.release();
    }
  });
});
