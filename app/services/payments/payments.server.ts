import crypto from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '~db/client';
import { paymentEvents, payments } from '~db/schema';
import type { PaymentEventOutcome, PaymentProviderName } from '~/lib/payments';
import { recordAuthorisation, recordCapture, recordRefund, recordVoid } from './ledger.server';
import { nextPayment, type PaymentTransition } from './payment-states.server';
import type { PaymentEvent } from './provider.server';

/**
 * Payments (issue 32, docs/decisions/040): a payment row per attempt to pay an order, moved only through the
 * payment state machine, each move with its ledger entry in the same transaction. Provider calls happen elsewhere
 * (the outbox worker, after commit); this module records what a provider said.
 */
export type PaymentRow = typeof payments.$inferSelect;

/** Our trade number at the provider: `LY`, the order id in base 36, and random letters and digits; ≤ 20 characters. */
export function newMerchantTradeNo(orderId: number): string {
  const random = crypto.randomBytes(8).toString('hex').toUpperCase();
  return `LY${orderId.toString(36).toUpperCase()}T${random}`.slice(0, 20);
}

/** Opens a payment for an order (the booking's transaction): unpaid, with a fresh trade number. */
export async function openPayment(tx: Database, input: { orderId: number; amount: number; provider: PaymentProviderName }): Promise<PaymentRow> {
  const [row] = await tx
    .insert(payments)
    .values({ orderId: input.orderId, provider: input.provider, amount: input.amount, merchantTradeNo: newMerchantTradeNo(input.orderId) })
    .returning();
  return row!;
}

/** The ledger movement that goes with each payment transition (keys per payment: an order may have several). */
async function ledgerFor(tx: Database, payment: PaymentRow, transition: PaymentTransition, refundKey?: string) {
  switch (transition.kind) {
    case 'authorise':
      return recordAuthorisation(tx, { orderId: payment.orderId, amount: payment.amount, idempotencyKey: `payment:${payment.id}:authorise` });
    case 'capture':
      return recordCapture(tx, { orderId: payment.orderId, idempotencyKey: `payment:${payment.id}:capture` });
    case 'void':
      return recordVoid(tx, { orderId: payment.orderId, idempotencyKey: `payment:${payment.id}:void` });
    case 'refund': {
      const [order] = ((await tx.execute(sql`select guide_id from orders where id = ${payment.orderId}`)) as unknown as { rows: { guide_id: number }[] }).rows;
      return recordRefund(tx, { orderId: payment.orderId, guideId: order!.guide_id, amount: transition.amount, idempotencyKey: refundKey ?? `payment:${payment.id}:refund:${payment.refundedAmount}` });
    }
    default:
      return null;
  }
}

/**
 * Applies one transition to a payment (locked for the transaction) with its ledger entry. Null when the state
 * machine refuses it (the caller logs it; nothing changes). `refundKey` names the refund request.
 */
export async function applyPaymentTransition(
  tx: Database,
  paymentId: number,
  transition: PaymentTransition,
  options: { now: Date; refundKey?: string },
): Promise<PaymentRow | null> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  if (!payment) return null;
  const change = nextPayment(payment, transition);
  if (!change) return null;
  await ledgerFor(tx, payment, transition, options.refundKey);
  const [updated] = await tx
    .update(payments)
    .set({
      ...change,
      updatedAt: options.now,
      ...(transition.kind === 'authorise' ? { authorisedAt: options.now } : {}),
      ...(transition.kind === 'capture' ? { capturedAt: options.now } : {}),
    })
    .where(eq(payments.id, paymentId))
    .returning();
  return updated!;
}

export type ProviderEventResult =
  /** Stored and applied; or stored and refused by the state machine (`ignored`); or seen before (`duplicate`). */
  | { outcome: PaymentEventOutcome; payment: PaymentRow; strayAuthorisation: boolean }
  /** No payment has this trade number (yet): store nothing, answer non-2xx, so the provider sends it again. */
  | { outcome: 'unknown_payment' };

/**
 * A verified provider event (the callback route, after `verifyCallback`): stored once per provider event id, in one
 * transaction with its effect. A repeated delivery is a `duplicate`; an event that does not apply to the payment now
 * (out of order, after expiry) is stored as `ignored`. `strayAuthorisation`: the card was authorised for a payment
 * that no longer waits for it (expired, or failed before), so the caller must void it at the provider.
 */
export async function recordProviderEvent(
  db: Database,
  provider: PaymentProviderName,
  event: PaymentEvent,
  now: Date,
  /** What else an applied event does, in its transaction (the guide's notice of a paid booking). */
  onApplied?: (tx: Database, payment: PaymentRow) => Promise<void>,
): Promise<ProviderEventResult> {
  return db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(payments.merchantTradeNo, event.merchantTradeNo)))
      .for('update');
    if (!payment) return { outcome: 'unknown_payment' as const };
    const [stored] = await tx
      .insert(paymentEvents)
      .values({ provider, providerEventId: event.providerEventId, paymentId: payment.id, kind: event.kind, payload: event.raw, outcome: 'ignored', receivedAt: now })
      .onConflictDoNothing()
      .returning({ id: paymentEvents.id });
    if (!stored) return { outcome: 'duplicate' as const, payment, strayAuthorisation: false };

    // An authorisation for another amount than the payment's is not this payment's: refuse to apply it.
    const applies = event.kind === 'failed' || event.amount === payment.amount;
    const transition: PaymentTransition = event.kind === 'authorised' ? { kind: 'authorise' } : { kind: 'fail' };
    const updated = applies ? await applyPaymentTransition(tx, payment.id, transition, { now }) : null;
    if (updated) {
      await tx.update(payments).set({ providerTradeNo: event.providerTradeNo }).where(eq(payments.id, payment.id));
      await tx.update(paymentEvents).set({ outcome: 'applied' }).where(eq(paymentEvents.id, stored.id));
      const applied = { ...updated, providerTradeNo: event.providerTradeNo };
      await onApplied?.(tx, applied);
      return { outcome: 'applied' as const, payment: applied, strayAuthorisation: false };
    }
    return { outcome: 'ignored' as const, payment, strayAuthorisation: event.kind === 'authorised' && (payment.status === 'expired' || payment.status === 'failed') };
  });
}
