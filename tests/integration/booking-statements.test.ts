import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Database } from '~db/client';
import * as schema from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { bookSlot } from '~/services/booking.server';
import { listNotifications } from '~/services/notifications.server';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * What a booking costs the database (issue 20): every statement is a round trip that holds the traveler's lock, so
 * the count is part of the design. The service runs on the test database through a drizzle instance that
 * records each statement it sends.
 */
const database = useTestDatabase();

function recordingDatabase(statements: string[]): Database {
  const logger = { logQuery: (query: string) => statements.push(query) };
  const client = (database.handle.db as unknown as { $client: unknown }).$client;
  return (
    testDriver === 'pg' ? drizzlePg(client as pg.Pool, { schema, logger }) : drizzlePglite(client as PGlite, { schema, logger })
  ) as unknown as Database;
}

describe('a booking', () => {
  it('is five statements: BEGIN, the traveler with the guide, the slot with the counts, the order with its event and notice, COMMIT', async () => {
    const guide = await createGuide({ price: 2600, locale: 'en' });
    const traveler = await createTraveler({ isEmailVerified: true, name: 'Statement Counter' });
    const day = addDays(todayInTaipei(), 5);
    await createAvailability(guide.id, { from: day, days: 1, price: 2600 });

    const statements: string[] = [];
    const order = await bookSlot(traveler, { guideId: guide.id, date: day, timeSlot: 'afternoon', numberOfPeople: 2, termsAccepted: true }, recordingDatabase(statements));

    const inTransaction = ['select', 'select', 'with'];
    // PGlite's driver opens and ends the transaction itself, without a statement drizzle sees.
    expect(statements.map((s) => s.trim().split(/\s+/)[0]!.toLowerCase())).toEqual(testDriver === 'pg' ? ['begin', ...inTransaction, 'commit'] : inTransaction);
    expect(order).toMatchObject({ guideId: guide.id, travelerId: traveler.id, date: day, timeSlot: 'afternoon', status: 'pending', totalPrice: 2600 });
    // The notice written in the order's statement names the order, in the guide's language.
    const { notifications } = await listNotifications(guide.id, { page: 1, limit: 10, unread: false }, 'en');
    expect(notifications).toHaveLength(1);
    expect(notifications[0]).toMatchObject({ type: 'order.booked', link: `/orders/${order.id}`, isRead: false });
  });
});
