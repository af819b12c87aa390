import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { users } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { hashPassword } from '~/services/accounts/passwords.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createTraveler } from '~server/seed/factories';
import { bookATour, confirmAsGuide } from '../../../examples/book-a-tour';
import { bookableGuide } from '../../support/booking';
import { useTestServer } from '../../support/http-server';
import { usePaymentsOn, usePaymentWorker } from '../../support/payments';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 33: the typed client's example (examples/book-a-tour.ts) runs end to end against the real server: it logs in,
 * searches, reads the slots, books, pays on the payment simulator's pages, waits while this test plays the guide and
 * confirms over the API, cancels and reads the refund. A real outbox worker runs the provider's capture and refund.
 */
useTestDatabase();
const server = useTestServer();
usePaymentsOn(server);
usePaymentWorker();
beforeEach(() => resetRateLimits());

describe(`examples/book-a-tour.ts (${testDriver})`, () => {
  it('books, pays, is confirmed by the guide, cancels and gets the whole amount back', async () => {
    const passwordHash = await hashPassword('example-pass-1');
    const guide = await bookableGuide(2400);
    await getDb().update(users).set({ passwordHash }).where(eq(users.id, guide.id));
    const traveler = await createTraveler({ passwordHash });
    // Four days ahead: more than 72 hours before any slot of that day, so cancelling gives back all of it.
    const date = addDays(todayInTaipei(), 4);
    const lines: string[] = [];

    const [outcome, confirmedId] = await Promise.all([
      bookATour({ baseUrl: server.baseUrl, traveler: { email: traveler.email, password: 'example-pass-1' }, date, pollMs: 100, waitMs: 20_000, log: (l) => lines.push(l) }),
      confirmAsGuide(server.baseUrl, { email: guide.email, password: 'example-pass-1' }, { pollMs: 100, waitMs: 20_000 }),
    ]);

    expect(confirmedId).toBe(outcome.orderId);
    expect(outcome).toMatchObject({ guideId: guide.id, date, timeSlot: 'morning', captured: 2400, refunded: 2400, orderStatus: 'cancelled', paymentStatus: 'refunded' });
    expect(lines).toEqual([
      `logged in as ${traveler.email}`,
      `1 guide free on ${date}`,
      `booking ${guide.name} (#${guide.id}), ${date} morning, NT$2400`,
      `order #${outcome.orderId}: pending, payment unpaid`,
      `card authorised for NT$2400; waiting for the guide to confirm ${server.baseUrl}/orders/${outcome.orderId}`,
      'confirmed; cancelling now gives back 100% (NT$2400)',
      'cancelled',
      'refund: NT$2400 of NT$2400 (payment refunded)',
    ]);
  }, 60_000);
});
