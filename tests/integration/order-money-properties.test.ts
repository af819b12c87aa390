import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb, type Database } from '~db/client';
import { orders, outbox, payments, payouts, simulatorTrades, users } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { slotStartsAt, TIME_SLOTS, type TimeSlot } from '~/lib/time-slots';
import { adminCancelOrder, adminRefundOrder } from '~/services/admin-orders.server';
import { bookSlot } from '~/services/booking.server';
import { now as clockNow, setClock } from '~/services/clock.server';
import { AppError } from '~/services/errors.server';
import { changeOrder } from '~/services/orders.server';
import { commissionOf } from '~/services/payments/commission.server';
import { adminMarkPayoutPaid } from '~/services/payments/finance-admin.server';
import { accountBalances, orderMoney, startPayout, type OrderMoney } from '~/services/payments/ledger.server';
import { checkoutFor, expireUnpaidOrders, latestPayment, retryPayment, type PaymentJob } from '~/services/payments/order-payments.server';
import { runPaymentJob } from '~/services/payments/payment-jobs.server';
import { savePayoutAccount } from '~/services/payments/payout-accounts.server';
import { createAvailability, createGuide, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer } from '../support/http-server';
import { payOrder, usePaymentsOn } from '../support/payments';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The order's money as a property (issue 32): random sequences of the product's own use cases (book, pay with an
 * approved or declined card, try again, confirm, decline, cancel by either party or an admin at any time, both
 * sides completing, the admin's refund, expiry of unpaid orders, payouts started and marked paid), through the
 * services the pages and /api/v1 call, with the clock moved between them so every refund band of the booking terms
 * occurs. The provider's side is the built-in simulator of this file's test server, reached over HTTP by the real
 * payment lane (`runPaymentJob`, run in queue order when the sequence says so, and at the end). After each run the
 * ledger, the payments, the simulator's own books and the orders must tell one story.
 */
useTestDatabase();
const server = useTestServer();
usePaymentsOn(server);

const db = () => getDb();
const HOUR = 3_600_000;

type Party = 'traveler' | 'guide' | 'admin';
type Command =
  | { op: 'book'; order: number }
  | { op: 'pay'; order: number; card: 'approved' | 'declined' }
  | { op: 'confirm' | 'decline' | 'adminCancel' | 'adminRefund'; order: number }
  | { op: 'cancel' | 'complete'; order: number; by: 'traveler' | 'guide' }
  | { op: 'lane' | 'expire' }
  | { op: 'time'; hours: number }
  | { op: 'payout' | 'paid'; guide: number }
  /** The order's next plausible step for where it stands (so that sequences reach capture, completion and payouts). */
  | { op: 'step'; order: number; pick: number };

const commandArb = (orderCount: number, guideCount: number): fc.Arbitrary<Command> => {
  const order = fc.nat(orderCount - 1);
  const by = fc.constantFrom('traveler' as const, 'guide' as const);
  return fc.oneof(
    {
      weight: 24,
      arbitrary: fc.record({
        op: fc.constant('step' as const),
        order,
        pick: fc.nat(11),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ op: fc.constant('book' as const), order }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constant('pay' as const),
        order,
        card: fc.constantFrom('approved' as const, 'approved' as const, 'declined' as const),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constantFrom('confirm' as const, 'decline' as const, 'adminCancel' as const, 'adminRefund' as const),
        order,
      }),
    },
    {
      weight: 4,
      arbitrary: fc.record({
        op: fc.constantFrom('cancel' as const, 'complete' as const),
        order,
        by,
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constantFrom('lane' as const, 'lane' as const, 'expire' as const),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('time' as const),
        hours: fc.constantFrom(1, 6, 13, 25, 49),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constantFrom('payout' as const, 'paid' as const),
        guide: fc.nat(guideCount - 1),
      }),
    }
  );
};

/** Where an order's `step` commands take it (other commands may take it elsewhere first). */
interface OrderPlan {
  /** The first card is declined and another attempt made. */
  declinedFirst: boolean;
  end: 'cancelPending' | 'decline' | 'cancelConfirmed' | 'adminCancel' | 'complete';
  cancelBy: 'traveler' | 'guide';
  /** When a confirmed order is cancelled: in each band of the booking terms (more than 72 h, 72–24 h, less). */
  cancelHoursBefore: number;
  adminRefund: boolean;
  /** The guide is paid out before the admin's refund (which then waits for the guide's next earnings). */
  payoutFirst: boolean;
}

interface OrderSpec {
  /** Booked before the sequence starts (the others only when the sequence books them). */
  early: boolean;
  plan: OrderPlan;
  guide: number;
  traveler: number;
  daysAhead: number;
  slot: TimeSlot;
}

/** What the sequence did to one order, as the test saw it. */
interface OrderRecord {
  id: number;
  guideId: number;
  date: string;
  slot: TimeSlot;
  price: number;
  percent: number;
  /** A card of this order was declined. */
  declined?: boolean;
  /** Set when a cancel or decline was accepted: by whom, when, and where the money stood just before it. */
  cancel?: {
    party: Party;
    at: Date;
    captured: boolean;
    left: number;
    captureQueued: boolean;
  };
}

/** The booking terms, written out again (not the product's function): more than 72 h all, 72–24 h half, later none. */
function expectedRefund(o: Pick<OrderRecord, 'date' | 'slot'>, party: Party, at: Date, left: number): number {
  if (party !== 'traveler') return left;
  const hours = (slotStartsAt(o.date, o.slot).getTime() - at.getTime()) / HOUR;
  const share = hours > 72 ? 100 : hours >= 24 ? 50 : 0;
  return Math.floor((left * share) / 100);
}

/** AppError is the services' refusal of an action that does not apply now: no change. Anything else fails the run. */
async function attempt(work: () => Promise<unknown>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

const rowsOf = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;

async function unbalancedEntries(): Promise<number> {
  const [row] = await rowsOf<{ n: number }>(
    sql`select count(*)::int as n from (select e.id from ledger_entries e left join ledger_postings p on p.entry_id = e.id
        group by e.id having coalesce(sum(p.amount), 0) <> 0 or count(p.id) < 2) bad`
  );
  return row!.n;
}

const captureQueued = async (orderId: number) =>
  (
    await db()
      .select({ id: outbox.id })
      .from(outbox)
      .where(and(eq(outbox.kind, 'payment'), eq(outbox.dedupeKey, `order:${orderId}:confirm`)))
  ).length > 0;

/**
 * The payment lane, run now in queue order for these orders' jobs only (earlier runs' leftovers are not ours): each
 * pending job goes through the worker's own sender, `runPaymentJob`, and is recorded as the outbox worker records
 * it (sent, or tried again with its error). Passes repeat while one makes progress, as the worker's retries would
 * (a settlement waits for its capture). The worker's claim and record are internal to it; this is its one pass,
 * deterministic, with the database's own clock left alone.
 */
async function runLane(orderIds: ReadonlySet<number>): Promise<{ id: number; key: string | null; error: string }[]> {
  let failures: { id: number; key: string | null; error: string }[] = [];
  for (let pass = 0; pass < 6; pass++) {
    const due = (
      await db()
        .select({
          id: outbox.id,
          key: outbox.dedupeKey,
          payload: outbox.payload,
        })
        .from(outbox)
        .where(and(eq(outbox.kind, 'payment'), eq(outbox.status, 'pending')))
        .orderBy(asc(outbox.id))
    ).filter((job) => orderIds.has((job.payload as PaymentJob).orderId));
    if (due.length === 0) return [];
    failures = [];
    for (const job of due) {
      try {
        await runPaymentJob(job.payload, db());
        await db().execute(sql`update outbox set status = 'sent', sent_at = now(), attempts = attempts + 1, last_error = null where id = ${job.id}`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        failures.push({ id: job.id, key: job.key, error: message });
        await db().execute(sql`update outbox set attempts = attempts + 1, last_error = ${message} where id = ${job.id}`);
      }
    }
    if (failures.length === due.length) break;
  }
  return failures;
}

const balanceKey = (b: { kind: string; ownerId: number | null }) => `${b.kind}:${b.ownerId ?? ''}`;
async function balanceMap(): Promise<Map<string, number>> {
  return new Map((await accountBalances(db())).map((b) => [balanceKey(b), b.balance]));
}

/** A paid, confirmed order of a fresh guide (with a bank account), booked `daysAhead` days after `at`. */
async function paidConfirmedOrder(at: Date, price: number, daysAhead = 2) {
  const guide = await createGuide({ price, locale: 'en' });
  await savePayoutAccount(db(), {
    guideId: guide.id,
    bankCode: '812',
    accountNumber: `77${guide.id}`.padEnd(10, '0'),
    now: at,
  });
  const traveler = await createTraveler({ isEmailVerified: true });
  const date = addDays(todayInTaipei(at), daysAhead);
  await createAvailability(guide.id, { from: date, days: 1, price });
  const { order } = await bookSlot(traveler, {
    guideId: guide.id,
    date,
    timeSlot: 'morning',
    numberOfPeople: 2,
    termsAccepted: true,
  });
  expect(await payOrder(traveler, order.id)).toEqual({
    status: 200,
    body: '1|OK',
  });
  await changeOrder(guide, order.id, { action: 'confirm' });
  return { guide, traveler, order, date };
}

describe(`an admin's refund of an order whose net was paid out (${testDriver})`, () => {
  afterEach(() => setClock(undefined));

  it('gives nothing back at the provider that the ledger cannot take: the refund waits for the guide’s next earnings, then both books agree', async () => {
    const admin = await createUser({ type: 'admin' });
    let now = new Date();
    setClock(() => now);
    const first = await paidConfirmedOrder(now, 5000);
    const ids = new Set([first.order.id]);
    expect(await runLane(ids)).toEqual([]);
    // The tour day: both sides complete, the guide's net is settled and paid out.
    now = new Date(slotStartsAt(first.date, 'morning').getTime() + HOUR);
    await changeOrder(first.traveler, first.order.id, { action: 'complete' });
    await changeOrder(first.guide, first.order.id, { action: 'complete' });
    expect(await runLane(ids)).toEqual([]);
    const payout = await db().transaction((tx) =>
      startPayout(tx as unknown as Database, {
        guideId: first.guide.id,
        settledBefore: new Date(now.getTime() + 24 * HOUR),
      })
    );
    expect(payout?.amount).toBe(5000 - commissionOf(5000, 10));

    // The admin refunds it all. The guide's payable is 0, so the ledger cannot take the guide's share back yet.
    await adminRefundOrder(admin, first.order.id, 'dispute');
    const waiting = await runLane(ids);
    expect(waiting.map((f) => f.key)).toEqual([`order:${first.order.id}:refund`]);
    const books = async (orderId: number) => {
      const [payment] = await db().select().from(payments).where(eq(payments.orderId, orderId));
      const [trade] = await db().select().from(simulatorTrades).where(eq(simulatorTrades.tradeNo, payment!.providerTradeNo!));
      return {
        provider: trade!.refundedAmount,
        payment: payment!.refundedAmount,
        ledger: (await orderMoney(db(), orderId)).refunded,
      };
    };
    // Before the fix the provider had already given the traveler NT$5,000 back here, and the retry found nothing left
    // to refund at the provider and gave up: the ledger and the payment never showed the refund.
    expect(await books(first.order.id)).toEqual({
      provider: 0,
      payment: 0,
      ledger: 0,
    });
    expect(await runLane(ids)).toHaveLength(1);
    expect(await books(first.order.id)).toEqual({
      provider: 0,
      payment: 0,
      ledger: 0,
    });

    // The guide earns again (another tour of theirs is completed): the refund goes through as a deduction.
    const price = 8000;
    await db().update(users).set({ price }).where(eq(users.id, first.guide.id));
    const slotDay = addDays(todayInTaipei(now), 2);
    await createAvailability(first.guide.id, { from: slotDay, days: 1, price });
    const traveler = await createTraveler({ isEmailVerified: true });
    const { order: second } = await bookSlot(traveler, {
      guideId: first.guide.id,
      date: slotDay,
      timeSlot: 'morning',
      numberOfPeople: 2,
      termsAccepted: true,
    });
    expect(await payOrder(traveler, second.id)).toEqual({
      status: 200,
      body: '1|OK',
    });
    await changeOrder(first.guide, second.id, { action: 'confirm' });
    ids.add(second.id);
    now = new Date(slotStartsAt(slotDay, 'morning').getTime() + HOUR);
    await changeOrder(traveler, second.id, { action: 'complete' });
    await changeOrder(first.guide, second.id, { action: 'complete' });
    expect(await runLane(ids)).toEqual([]);
    expect(await books(first.order.id)).toEqual({
      provider: 5000,
      payment: 5000,
      ledger: 5000,
    });
    const money = await orderMoney(db(), first.order.id);
    expect({ guideNet: money.guideNet, commission: money.commission }).toEqual({
      guideNet: 0,
      commission: 0,
    });
    // The next payout is the second order's net less the first's, paid out before and refunded since.
    const next = await db().transaction((tx) =>
      startPayout(tx as unknown as Database, {
        guideId: first.guide.id,
        settledBefore: new Date(now.getTime() + 24 * HOUR),
      })
    );
    expect(next?.amount).toBe(price - commissionOf(price, 10) - (5000 - commissionOf(5000, 10)));
  });
});

