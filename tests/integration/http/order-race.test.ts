import { and, asc, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { notifications, orderEvents, orders, outbox } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { setClock } from '~/services/platform/clock.server';
import { createGuide, createOrder, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 21, "confirm and cancel of one order": the guide's confirm and the traveler's cancel of one pending order,
 * sent at the same moment over real HTTP, on PostgreSQL (PGlite runs one transaction at a time and proves nothing).
 * On the tour day a confirmed order can no longer be cancelled and a cancelled one not confirmed, so exactly one
 * of the two can win; `changeOrder` locks the row, so the second sees the first's result and gets 409.
 * Without the lock both read "pending" and both answer 200.
 */
useTestDatabase();
const server = useTestServer();
afterEach(() => setClock(undefined));

const ROUNDS = 30;
const SLOTS = ['morning', 'afternoon', 'evening'] as const;

describe.runIf(testDriver === 'pg')('confirm and cancel of one order at the same moment (pg)', () => {
  it(`exactly one wins, the other gets 409, in ${ROUNDS} rounds; state, timeline and notices agree`, async () => {
    const tourDay = addDays(todayInTaipei(), 5);
    // Midnight in Taiwan on the tour day: every slot of it is still ahead (the guide may confirm), but it is the
    // tour day (the traveler may no longer cancel a confirmed order).
    setClock(new Date(`${tourDay}T00:00:00+08:00`));
    const traveler = await createTraveler();
    const travelerToken = (await loginAs(traveler)).token;
    const outcomes: Record<string, number> = {};

    for (let round = 0; round < ROUNDS; round++) {
      const guide = await createGuide();
      const guideToken = (await loginAs(guide)).token;
      const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, date: tourDay, timeSlot: SLOTS[round % 3], status: 'pending' });
      const put = (token: string, json: unknown) => server.request(`/api/v1/orders/${order.id}`, { method: 'PUT', token, json });

      const [confirm, cancel] = await Promise.all([put(guideToken, { status: 'confirmed' }), put(travelerToken, { status: 'cancelled' })]);

      const statuses = [confirm.status, cancel.status].sort();
      expect(statuses, `round ${round}: ${confirm.text} / ${cancel.text}`).toEqual([200, 409]);
      const loser = confirm.status === 409 ? confirm : cancel;
      expect(loser.json.code).toBe('INVALID_TRANSITION');
      const winner = confirm.status === 200 ? 'confirm' : 'cancel';
      outcomes[winner] = (outcomes[winner] ?? 0) + 1;

      const [row] = await getDb().select().from(orders).where(eq(orders.id, order.id));
      expect(row!.status).toBe(winner === 'confirm' ? 'confirmed' : 'cancelled');
      const events = await getDb().select().from(orderEvents).where(eq(orderEvents.orderId, order.id)).orderBy(asc(orderEvents.id));
      expect(events.map((e) => [e.action, e.fromStatus, e.toStatus])).toEqual([[winner, 'pending', row!.status]]);
      // One notice, to the other party of the winner, and one mail queued for it.
      const notices = await getDb().select().from(notifications).where(eq(notifications.link, `/orders/${order.id}`));
      expect(notices.map((n) => [n.userId, n.type])).toEqual([
        winner === 'confirm' ? [traveler.id, 'order.confirmed'] : [guide.id, 'order.cancelled'],
      ]);
      const mails = await getDb()
        .select()
        .from(outbox)
        .where(and(eq(outbox.kind, 'mail'), sql`${outbox.payload}->>'text' like ${`%/orders/${order.id}\n%`}`));
      expect(mails).toHaveLength(1);
    }
    // Both sides won some rounds: the requests really raced.
    console.log(`confirm/cancel race over ${ROUNDS} rounds: ${JSON.stringify(outcomes)}`);
  });
});
