import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { ledgerEntries, notifications, outbox, paymentEvents, payments, simulatorTrades } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { slotStartsAt } from '~/lib/time-slots';
import { bookSlot } from '~/services/booking/booking.server';
import { AppError } from '~/services/platform/errors.server';
import { changeOrder } from '~/services/booking/orders.server';
import { acceptProviderCallback } from '~/services/payments/callbacks.server';
import { checkoutFor } from '~/services/payments/order-payments.server';
import { runPaymentJob } from '~/services/payments/payment-jobs.server';
import { acceptCheckout, payWithCard, SIMULATOR_CARDS } from '~/services/payments/simulator.server';
import { createAvailability, createGuide, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer } from '../support/http-server';
import { payOrder, usePaymentsOn } from '../support/payments';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Payments under concurrency (issue 32), on PostgreSQL only: PGlite has one connection, so nothing there ever
 * happens at once. Each race is run ROUNDS times. The provider's side is this file's test server's simulator
 * (capture, void and refund go to it over HTTP); the payment jobs are run with the worker's own sender.
 */
useTestDatabase();
const server = useTestServer();
usePaymentsOn(server);

const ROUNDS = 10;
const onPostgres = testDriver === 'pg';

let seq = 0;
async function paidBooking(days = 6) {
  const guide = await createGuide({ price: 3000, locale: 'en' });
  const traveler = await createTraveler({ isEmailVerified: true, name: `Racer ${++seq}` });
  const day = addDays(todayInTaipei(), days);
  await createAvailability(guide.id, { from: day, days: 1, price: 3000 });
  const { order } = await bookSlot(traveler, { guideId: guide.id, date: day, timeSlot: 'morning', numberOfPeople: 2, termsAccepted: true });
  expect(await payOrder(traveler, order.id)).toEqual({ status: 200, body: '1|OK' });
  return { guide, traveler, order, day };
}

/** What a settled promise became: 'ok', an AppError's code, or the error itself (rethrown by the caller's expect). */
async function outcome(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    return `error: ${(error as Error).message}`;
  }
}

const jobsOf = (orderId: number) =>
  getDb()
    .select({ key: outbox.dedupeKey, payload: outbox.payload })
    .from(outbox)
    .where(and(eq(outbox.kind, 'payment'), like(outbox.dedupeKey, `order:${orderId}:%`)))
    .orderBy(outbox.id);
/** Runs an order's queued payment jobs with the worker's sender, in the order they were queued. */
async function runJobs(orderId: number) {
  for (const job of await jobsOf(orderId)) await runPaymentJob(job.payload, getDb());
}
const entriesOf = async (orderId: number) =>
  (await getDb().select({ kind: ledgerEntries.kind }).from(ledgerEntries).where(eq(ledgerEntries.orderId, orderId)).orderBy(ledgerEntries.id)).map((e) => e.kind);
const paymentOf = async (orderId: number) => (await getDb().select().from(payments).where(eq(payments.orderId, orderId)))[0]!;
const tradeOf = async (merchantTradeNo: string) => (await getDb().select().from(simulatorTrades).where(eq(simulatorTrades.merchantTradeNo, merchantTradeNo)))[0]!;

describe.skipIf(!onPostgres)(`payments at once (PostgreSQL only: PGlite has one connection, nothing there runs at once)`, () => {
  it(`the guide's confirm and cancel of one paid order at once: never both a capture and a void, the money ends captured and kept or all given back (${ROUNDS} rounds)`, async () => {
    const seen = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const { guide, order } = await paidBooking();
      const answers = await Promise.all([
        outcome(changeOrder(guide, order.id, { status: 'confirmed' })),
        outcome(changeOrder(guide, order.id, { status: 'cancelled' })),
      ]);
      // The order's lock puts them in a line: the cancel first (a decline; the confirm then finds it cancelled), or
      // the confirm first and then the cancel of a confirmed order. Never a confirm that lands after the cancel.
      expect([['INVALID_TRANSITION', 'ok'], ['ok', 'ok']], `round ${round}`).toContainEqual(answers);
      const jobs = await jobsOf(order.id);
      const steps = jobs.flatMap((j) => (j.payload as { steps: { kind: string }[] }).steps.map((step) => step.kind));
      expect(steps.includes('capture') && steps.includes('void'), `round ${round}: ${JSON.stringify(jobs.map((j) => j.key))} ${steps}`).toBe(false);
      const sequence = answers[0] === 'INVALID_TRANSITION' ? 'decline' : 'confirm,cancel';
      seen.add(sequence);
      expect(jobs.map((j) => j.key), `round ${round}`).toEqual(
        sequence === 'decline' ? [`order:${order.id}:decline`] : [`order:${order.id}:confirm`, `order:${order.id}:cancel`],
      );
      // The jobs run at once (the worker's lane runs four at a time).
      await Promise.all(jobs.map((job) => runPaymentJob(job.payload, getDb())));
      await runJobs(order.id); // and again, as a retry would: nothing changes twice
      const payment = await paymentOf(order.id);
      const trade = await tradeOf(payment.merchantTradeNo);
      if (sequence === 'decline') {
        expect(payment.status, `round ${round}`).toBe('voided');
        expect(await entriesOf(order.id)).toEqual(['authorise', 'void']);
        expect(trade.status).toBe('given_up');
      } else {
        // Cancelled while only authorised: the traveler gets all of it back (captured by the confirmation, refunded).
        expect(payment, `round ${round}`).toMatchObject({ status: 'refunded', capturedAmount: 3000, refundedAmount: 3000 });
        expect(await entriesOf(order.id)).toEqual(['authorise', 'capture', 'refund']);
        expect(trade).toMatchObject({ status: 'closed', refundedAmount: 3000 });
      }
    }
    console.info(`confirm and cancel at once: ${[...seen].join(' / ')} seen`);
  }, 180_000);

  it(`the same provider callback delivered twice at once: one applied, one duplicate (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const guide = await createGuide({ price: 3000, locale: 'en' });
      const traveler = await createTraveler({ isEmailVerified: true });
      const day = addDays(todayInTaipei(), 6);
      await createAvailability(guide.id, { from: day, days: 1, price: 3000 });
      const { order } = await bookSlot(traveler, { guideId: guide.id, date: day, timeSlot: 'morning', numberOfPeople: 2, termsAccepted: true });
      // The simulator's signed server callback, as payOrder makes it, delivered twice at the same moment.
      const { checkout } = await checkoutFor(traveler, order.id, new Date());
      if (checkout.state !== 'pay' || checkout.start.kind !== 'form') throw new Error('checkout expected');
      const accepted = await acceptCheckout(getDb(), checkout.start.fields, new Date());
      if (!accepted.ok) throw new Error(accepted.message);
      const paid = await payWithCard(getDb(), accepted.trade.tradeNo, SIMULATOR_CARDS.approved, new Date());
      const body = new URLSearchParams(paid.deliveries.find((d) => d.target === 'server')!.fields).toString();
      const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
      const answers = await Promise.all([acceptProviderCallback(body, headers), acceptProviderCallback(body, headers)]);
      expect(answers, `round ${round}`).toEqual([
        { status: 200, body: '1|OK' },
        { status: 200, body: '1|OK' },
      ]);
      const payment = await paymentOf(order.id);
      expect(payment.status).toBe('authorised');
      const events = await getDb().select().from(paymentEvents).where(eq(paymentEvents.paymentId, payment.id));
      expect(events.map((e) => e.outcome), `round ${round}`).toEqual(['applied']);
      expect(await entriesOf(order.id), `round ${round}`).toEqual(['authorise']);
      const notices = await getDb().select().from(notifications).where(eq(notifications.userId, guide.id));
      expect(notices.map((n) => n.type), `round ${round}`).toEqual(['order.booked']);
    }
  }, 120_000);

  it(`an admin's refund pressed twice at once: one refund in the ledger, at the provider and on the payment (${ROUNDS} rounds)`, async () => {
    const admin = await createUser({ type: 'admin' });
    for (let round = 0; round < ROUNDS; round++) {
      const { guide, traveler, order, day } = await paidBooking();
      await changeOrder(guide, order.id, { status: 'confirmed' });
      await runJobs(order.id);
      // The traveler cancels 30 h before: half back by the terms, the other half settled.
      await changeOrder(traveler, order.id, { status: 'cancelled' }, getDb(), new Date(slotStartsAt(day, 'morning').getTime() - 30 * 3_600_000));
      await runJobs(order.id);
      expect((await paymentOf(order.id)).refundedAmount).toBe(1500);

      const answers = await Promise.all([
        outcome(changeOrder(admin, order.id, { status: 'refunded' })),
        outcome(changeOrder(admin, order.id, { status: 'refunded' })),
      ]);
      expect(answers.sort(), `round ${round}`).toEqual(['INVALID_TRANSITION', 'ok']);
      expect((await jobsOf(order.id)).map((j) => j.key)).toEqual([`order:${order.id}:confirm`, `order:${order.id}:cancel`, `order:${order.id}:refund`]);
      // The refund job run twice at once too (a lease that ran out while it was still running).
      const [job] = (await jobsOf(order.id)).filter((j) => j.key === `order:${order.id}:refund`);
      await Promise.all([runPaymentJob(job!.payload, getDb()), runPaymentJob(job!.payload, getDb())]);
      const payment = await paymentOf(order.id);
      expect(payment, `round ${round}`).toMatchObject({ status: 'refunded', capturedAmount: 3000, refundedAmount: 3000 });
      expect(await entriesOf(order.id), `round ${round}`).toEqual(['authorise', 'capture', 'refund', 'settle', 'refund']);
      expect((await tradeOf(payment.merchantTradeNo)).refundedAmount, `round ${round}`).toBe(3000);
    }
  }, 180_000);
});

describe(`a confirmed order cancelled before its capture ran (${testDriver})`, () => {
  it('gives the traveler everything back whichever job runs first', async () => {
    for (const first of ['capture', 'void'] as const) {
      const { guide, traveler, order } = await paidBooking();
      await changeOrder(guide, order.id, { status: 'confirmed' });
      // The card is still only authorised: the traveler is told all of it comes back.
      await changeOrder(traveler, order.id, { status: 'cancelled' });
      const jobs = await jobsOf(order.id);
      expect(jobs.map((j) => j.key)).toEqual([`order:${order.id}:confirm`, `order:${order.id}:cancel`]);
      for (const job of first === 'capture' ? jobs : [...jobs].reverse()) await runPaymentJob(job.payload, getDb());
      const payment = await paymentOf(order.id);
      expect(payment.capturedAmount - payment.refundedAmount, `${first} first: ${payment.status}`).toBe(0);
      const trade = await tradeOf(payment.merchantTradeNo);
      expect(trade.status === 'given_up' || trade.refundedAmount === trade.amount, `${first} first: trade ${trade.status}`).toBe(true);
    }
  });
});
