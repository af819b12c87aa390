import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { orderEvents, orders, outbox, payments, users } from '~db/schema';
import { getConfig } from '~/env.server';
import type { PaymentStatus } from '~/lib/payments';
import { slotHoursText } from '~/lib/time-slots';
import type { OrderPaymentView } from '~/schemas/payments';
import type { Party } from '../booking/order-state.server';
import { refundOnCancel } from '../booking/order-state.server';
import { AppError } from '../platform/errors.server';
import { enqueueOnce } from '../platform/outbox.server';
import { recordOrderNotice, orderNoticeFacts, type PendingNotice } from '../messaging/order-notices.server';
import { selectOrderWithParties } from '../booking/order-parties.server';
import { openPayment, applyPaymentTransition, type PaymentRow } from './payments.server';
import { paymentProvider, paymentProviderName } from './configured-provider.server';
import type { CheckoutStart } from './provider.server';
import { moneyEffectOf, refundable } from './payment-states.server';

/**
 * An order's money (issue 32, docs/decisions/040), the part the order services call: which payment belongs to an
 * order, what an order transition does to it, and who may see an order that is not paid yet. Provider calls are
 * never made here: a transition queues an outbox job (`order:{id}:{action}`, payment-jobs.server.ts) in its own
 * transaction, and the worker calls the provider after the commit.
 */

/** Statuses of a payment that was authorised at some point: its order reached the guide. */
export const PAID_AT_SOME_POINT: readonly PaymentStatus[] = ['authorised', 'captured', 'partly_refunded', 'refunded', 'voided'];

/**
 * The orders a guide (and the guide's lists, counts and pages) may see: paid at some point, or taking no payment
 * (a free tour, or booked before payments). An order waiting for its traveler's card is the traveler's alone.
 */
export function reachedGuide(orderId: SQL | typeof orders.id = orders.id): SQL {
  return sql`(not exists (select 1 from ${payments} where ${payments.orderId} = ${orderId})
    or exists (select 1 from ${payments} where ${payments.orderId} = ${orderId} and ${payments.status} in ${PAID_AT_SOME_POINT}))`;
}

/** Whether the order is still its traveler's alone: it takes a payment that was never authorised (see reachedGuide). */
export async function unseenByGuide(orderId: number, db: Database = getDb()): Promise<boolean> {
  const result = (await db.execute(sql`select ${reachedGuide(sql`${orderId}::integer`)} as reached`)) as unknown as { rows: { reached: boolean }[] };
  return result.rows[0]?.reached === false;
}

/** The newest payment attempt of each order (an order may have a declined attempt before the one that paid). */
export async function latestPayments(orderIds: readonly number[], db: Database = getDb()): Promise<Map<number, PaymentRow>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db.select().from(payments).where(inArray(payments.orderId, [...orderIds])).orderBy(desc(payments.id));
  const latest = new Map<number, PaymentRow>();
  for (const row of rows) if (!latest.has(row.orderId)) latest.set(row.orderId, row);
  return latest;
}

export async function latestPayment(orderId: number, db: Database = getDb()): Promise<PaymentRow | null> {
  return (await latestPayments([orderId], db)).get(orderId) ?? null;
}

/** The newest payment of an order, locked for the caller's transaction (the order's row must be locked first). */
async function latestPaymentForUpdate(tx: Database, orderId: number): Promise<PaymentRow | null> {
  const [row] = await tx.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(desc(payments.id)).limit(1).for('update');
  return row ?? null;
}

/** When an unpaid order expires: PAYMENT_WINDOW_MINUTES after it was booked. */
export function payBy(order: { createdAt: Date | string }): Date {
  return new Date(new Date(order.createdAt).getTime() + getConfig().PAYMENT_WINDOW_MINUTES * 60_000);
}

export const checkoutPath = (orderId: number) => `/orders/${orderId}/pay`;

/** The payment as the pages and the API show it; `orderStatus` says whether the traveler may still pay. */
export function paymentView(payment: PaymentRow | null, order: { id: number; status: string; createdAt: Date | string }): OrderPaymentView | null {
  if (!payment) return null;
  const waiting = order.status === 'pending' && (payment.status === 'unpaid' || payment.status === 'failed');
  return {
    status: payment.status,
    amount: payment.amount,
    captured: payment.capturedAmount,
    refunded: payment.refundedAmount,
    provider: payment.provider,
    providerReference: payment.providerTradeNo,
    authorisedAt: payment.authorisedAt?.toISOString() ?? null,
    capturedAt: payment.capturedAt?.toISOString() ?? null,
    payBy: waiting ? payBy(order).toISOString() : null,
    checkoutUrl: waiting ? new URL(checkoutPath(order.id), getConfig().PUBLIC_URL).toString() : null,
  };
}

/** What a booking copies from the configuration: the provider its payment goes through and the commission percent. */
export function bookingMoneyTerms() {
  const config = getConfig();
  return { provider: paymentProviderName(config), commissionPercent: config.PLATFORM_COMMISSION_PERCENT };
}

/** A job of the payment lane: the steps to take, in order, for one order's payment. */
export type PaymentStep =
  | { kind: 'capture' }
  | { kind: 'void' }
  | { kind: 'refund'; amount: number; key: string }
  | { kind: 'settle' }
  /** A card authorised after its payment expired or failed: give the authorisation up at the provider. */
  | { kind: 'voidStray'; providerTradeNo: string; amount: number };
export interface PaymentJob {
  orderId: number;
  paymentId: number;
  steps: PaymentStep[];
}

/** Whether the order's confirmation queued a capture (done or not: the capture step skips a capture already made). */
async function captureQueued(tx: Database, orderId: number): Promise<boolean> {
  const [row] = await tx.select({ id: outbox.id }).from(outbox).where(and(eq(outbox.kind, 'payment'), eq(outbox.dedupeKey, `order:${orderId}:confirm`)));
  return !!row;
}

/** Queues a payment job once per order and action (the outbox's dedupe key `order:{id}:{action}`). */
export function queuePaymentJob(tx: Database, action: string, job: PaymentJob): Promise<boolean> {
  return enqueueOnce('payment', `order:${job.orderId}:${action}`, { ...job }, tx);
}

/**
 * The money side of an order transition, in the transition's transaction after the state machine allowed it and
 * under the order's row lock (changeOrder): refuses to confirm an unpaid order (409 PAYMENT_REQUIRED), gives up an
 * unpaid payment when its order leaves `pending` (a card paid later is then a stray, voided at the provider), and
 * queues the provider's part (capture, void, refund by the booking terms, settlement) for after the commit.
 */
export async function applyMoneyEffect(
  tx: Database,
  input: {
    action: 'confirm' | 'decline' | 'cancel' | 'complete' | 'refund';
    order: { id: number; date: string; timeSlot: Parameters<typeof refundOnCancel>[0]['timeSlot']; status: string; createdAt: Date | string };
    party: Party;
    now: Date;
  },
): Promise<void> {
  const payment = await latestPaymentForUpdate(tx, input.order.id);
  if (!payment) return; // a free tour, or an order booked before payments
  const effect = moneyEffectOf(input.action, payment);
  const job = (steps: PaymentStep[]) => queuePaymentJob(tx, input.action, { orderId: input.order.id, paymentId: payment.id, steps });
  switch (effect) {
    case 'payment_required':
      throw new AppError('PAYMENT_REQUIRED');
    case 'capture':
      await job([{ kind: 'capture' }]);
      return;
    case 'void':
      // A confirmation's capture is queued (or running) for this authorisation: a void now would race it at the
      // provider, and a capture that got there first would keep the traveler's money with the void refused. Let the
      // capture happen (a second capture is a no-op) and give all of it back, as the cancel dialog said.
      if (await captureQueued(tx, input.order.id)) {
        await job([{ kind: 'capture' }, { kind: 'refund', amount: payment.amount, key: `order:${input.order.id}:${input.action}:refund` }]);
        return;
      }
      await job([{ kind: 'void' }]);
      return;
    case 'refund_by_terms': {
      const { amount } = refundOnCancel({ ...input.order, totalPrice: refundable(payment) }, input.party, input.now);
      const key = `order:${input.order.id}:cancel:refund`;
      await job([...(amount > 0 ? [{ kind: 'refund' as const, amount, key }] : []), { kind: 'settle' }]);
      return;
    }
    case 'settle':
      await job([{ kind: 'settle' }]);
      return;
    case 'refund_rest': {
      const amount = refundable(payment);
      if (amount > 0) await job([{ kind: 'refund', amount, key: `order:${input.order.id}:refund:refund` }]);
      return;
    }
    case 'none':
      // The order leaves `pending` before it was paid: the attempt is over (a card paid after this is voided).
      if (payment.status === 'unpaid' && input.order.status !== 'pending') await applyPaymentTransition(tx, payment.id, { kind: 'expire' }, { now: input.now });
      return;
    case 'open_checkout':
      return;
  }
}

/**
 * What cancelling now gives the traveler back, as the cancel dialog says it before asking: a card only authorised is
 * released in full (it is charged when the guide confirms); money captured comes back by the booking terms
 * (order-state.server.ts refundOnCancel); an order not paid yet costs nothing. An order without a payment (a free
 * tour, or booked before payments) follows the terms on its price.
 */
export function refundIfCancelled(
  order: Parameters<typeof refundOnCancel>[0],
  payment: PaymentRow | null,
  party: Party,
  now: Date,
): { share: 0 | 50 | 100; amount: number; basis: 'refund' | 'authorisation' | 'unpaid'; grace?: true } {
  if (!payment) return { ...refundOnCancel(order, party, now), basis: 'refund' };
  if (payment.status === 'authorised') return { share: 100, amount: payment.amount, basis: 'authorisation' };
  const left = refundable(payment);
  if (left > 0) return { ...refundOnCancel({ ...order, totalPrice: left }, party, now), basis: 'refund' };
  return { share: 100, amount: 0, basis: 'unpaid' };
}

/**
 * Another attempt to pay (the checkout page's "try again" after a declined card): a new payment with a fresh trade
 * number, while the order is still pending and within its payment window. The traveler's own order only.
 */
export async function retryPayment(viewer: { id: number }, orderId: number, now: Date, db: Database = getDb()): Promise<PaymentRow> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('no key update');
    if (!order || order.deletedAt || order.travelerId !== viewer.id) throw new AppError('NOT_FOUND');
    const payment = await latestPaymentForUpdate(tx, orderId);
    if (!payment) throw new AppError('INVALID_TRANSITION');
    if (payment.status === 'unpaid') return payment;
    if (order.status !== 'pending' || payment.status !== 'failed' || payBy(order) <= now) throw new AppError('INVALID_TRANSITION');
    return openPayment(tx, { orderId, amount: order.totalPrice, provider: payment.provider });
  });
}

/**
 * The guide hears of a booking once it is paid (issue 32): the 'booked' notice, written in the transaction that
 * applied the authorisation. Returns it for the socket events after the commit.
 */
export async function noticeOrderPaid(tx: Database, orderId: number): Promise<PendingNotice | null> {
  const [row] = await selectOrderWithParties(tx).where(and(eq(orders.id, orderId), eq(orders.status, 'pending')));
  if (!row) return null;
  const facts = orderNoticeFacts(row.order, { traveler: row.traveler.name, guide: row.guide.name, actor: row.traveler.name });
  return recordOrderNotice(row.guide, 'booked', facts, tx);
}

/**
 * Unpaid orders past their payment window (a job, every minute): each is cancelled by the system, its payment
 * expired, its slot freed, and its traveler told. Orders locked SKIP LOCKED, a few at a time, so a traveler paying
 * right now (the callback locks the payment, not the order) is never waited for; a card authorised after the
 * expiry is voided (recordProviderEvent reports it as stray).
 */
export async function expireUnpaidOrders(tx: Database, now: Date): Promise<{ expired: number; pending: PendingNotice[] }> {
  const cutoff = new Date(now.getTime() - getConfig().PAYMENT_WINDOW_MINUTES * 60_000);
  const due = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.status, 'pending'),
        sql`${orders.deletedAt} is null`,
        sql`${orders.createdAt} < ${cutoff.toISOString()}::timestamptz`,
        sql`exists (select 1 from ${payments} where ${payments.orderId} = ${orders.id})`,
        sql`not ${reachedGuide()}`,
      ),
    )
    .orderBy(orders.id)
    .limit(100)
    .for('no key update', { skipLocked: true });
  const pending: PendingNotice[] = [];
  for (const { id } of due) {
    await tx.update(orders).set({ status: 'cancelled', updatedAt: now }).where(eq(orders.id, id));
    await tx.insert(orderEvents).values({ orderId: id, action: 'expire', fromStatus: 'pending', toStatus: 'cancelled', actorId: null, actorRole: 'system', at: now });
    const unpaid = await tx.select({ id: payments.id }).from(payments).where(and(eq(payments.orderId, id), eq(payments.status, 'unpaid')));
    for (const p of unpaid) await applyPaymentTransition(tx, p.id, { kind: 'expire' }, { now });
    const [row] = await selectOrderWithParties(tx).where(eq(orders.id, id));
    const facts = orderNoticeFacts(row!.order, { traveler: row!.traveler.name, guide: row!.guide.name, actor: '' });
    pending.push(await recordOrderNotice(row!.traveler, 'paymentExpired', facts, tx));
  }
  return { expired: due.length, pending };
}

/** Where the checkout stands for its traveler (the /orders/:id/pay page). */
export type Checkout =
  /** Unpaid: the form that takes the browser to the provider's card page. */
  | { state: 'pay'; start: CheckoutStart; payBy: string }
  /** The last card was declined: another attempt may be made until `payBy`. */
  | { state: 'declined'; payBy: string }
  /** Paid (authorised or more): the booking's outcome page says the rest. */
  | { state: 'paid' }
  /** Not paid in time, or cancelled before it was: nothing more to pay. */
  | { state: 'closed' };

/**
 * The checkout of an order for its traveler: the provider's form to post (signed with the payment's trade number,
 * so a reload posts the same trade), or where the payment stands. Another person's order is NOT_FOUND.
 */
export async function checkoutFor(
  viewer: { id: number },
  orderId: number,
  now: Date,
  db: Database = getDb(),
): Promise<{ order: typeof orders.$inferSelect & { guideName: string }; payment: PaymentRow | null; checkout: Checkout }> {
  const [row] = await db
    .select({ order: orders, guideName: users.name })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.guideId))
    .where(eq(orders.id, orderId));
  if (!row || row.order.deletedAt || row.order.travelerId !== viewer.id) throw new AppError('NOT_FOUND');
  const order = { ...row.order, guideName: row.guideName };
  const payment = await latestPayment(orderId, db);
  const deadline = payBy(order);
  const open = order.status === 'pending' && deadline > now;
  if (!payment || PAID_AT_SOME_POINT.includes(payment.status)) return { order, payment, checkout: { state: 'paid' } };
  if (open && payment.status === 'failed') return { order, payment, checkout: { state: 'declined', payBy: deadline.toISOString() } };
  if (!open || payment.status !== 'unpaid') return { order, payment, checkout: { state: 'closed' } };
  const base = getConfig().PUBLIC_URL;
  const start = paymentProvider().startCheckout({
    orderId,
    merchantTradeNo: payment.merchantTradeNo,
    amount: payment.amount,
    createdAt: payment.createdAt,
    // Shown on the provider's page and kept with the trade: the same in every language (a re-post must sign the same).
    itemName: `${row.guideName} ${order.date} ${slotHoursText(order.timeSlot)}`,
    callbackUrl: `${base}/payments/callback`,
    returnUrl: `${base}/payments/return/${orderId}`,
  });
  return { order, payment, checkout: { state: 'pay', start, payBy: deadline.toISOString() } };
}
