import { eq } from 'drizzle-orm';
import type { Database } from '~db/client';
import { ledgerEntries, orders, payments } from '~db/schema';
import { countEvent } from '../platform/counters.server';
import { now as clockNow } from '../platform/clock.server';
import { logEvent } from '../platform/log.server';
import { deliverOrderNotices, type PendingNotice } from '../messaging/order-notices.server';
import { paymentProvider } from './configured-provider.server';
import { ProviderUnavailableError } from './form-post.server';
import { recordSettlement, refundFits } from './ledger.server';
import { noticeOrderPaid, queuePaymentJob, type PaymentJob, type PaymentStep } from './order-payments.server';
import { applyPaymentTransition, recordProviderEvent, type PaymentRow } from './payments.server';
import { enqueueReceiptMail } from './receipt.server';
import { beginRefundCall, markInDoubt, markNotSent, markRefunded } from './refund-attempts.server';
import type { ActionResult, PaymentEvent } from './provider.server';

/**
 * The payment lane of the outbox worker (issue 32, docs/decisions/040): the provider's part of an order transition,
 * after its commit. Each step reads the payment as it stands, skips what is already done (so a job run twice, after
 * a lease ran out, changes nothing twice), calls the provider with no transaction open, then records the answer
 * with its ledger entry. A provider that cannot be reached throws: the worker tries the job again later. A refusal
 * is an answer: logged and counted, not retried (the admin's reconciliation shows it).
 */
export async function runPaymentJob(payload: unknown, db: Database): Promise<void> {
  const job = payload as PaymentJob;
  for (const [i, step] of job.steps.entries()) {
    const done = await runStep(db, job, step, job.steps.slice(i + 1));
    if (!done) return;
  }
}

async function paymentRow(db: Database, id: number): Promise<PaymentRow> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  if (!row) throw new Error(`payment ${id} not found`);
  return row;
}

/** Records a refusal; false stops the job's later steps. */
function refused(job: PaymentJob, step: PaymentStep, answer: ActionResult): boolean {
  if (answer.ok) return true;
  countEvent('payment_actions_refused_total', { action: step.kind });
  logEvent('error', 'payments: the provider refused an action', { orderId: job.orderId, paymentId: job.paymentId, action: step.kind, code: answer.code, message: answer.message });
  return false;
}

const inTransaction = <T>(db: Database, work: (tx: Database) => Promise<T>) => db.transaction((tx) => work(tx as unknown as Database));

async function runStep(db: Database, job: PaymentJob, step: PaymentStep, laterSteps: PaymentStep[]): Promise<boolean> {
  const payment = await paymentRow(db, job.paymentId);
  const trade = { merchantTradeNo: payment.merchantTradeNo, providerTradeNo: payment.providerTradeNo ?? '' };
  const provider = paymentProvider();
  switch (step.kind) {
    case 'capture': {
      if (payment.status !== 'authorised') return payment.status === 'captured' || payment.status === 'partly_refunded' || payment.status === 'refunded';
      if (!refused(job, step, await provider.capture(trade, payment.amount))) return false;
      await inTransaction(db, async (tx) => {
        // The receipt mail is queued with the capture it tells of: once, when the charge is recorded.
        if (await applyPaymentTransition(tx, payment.id, { kind: 'capture' }, { now: clockNow() })) await enqueueReceiptMail(tx, job.orderId);
      });
      countEvent('payment_actions_total', { action: 'capture' });
      return true;
    }
    case 'void': {
      if (payment.status !== 'authorised') return true;
      if (!refused(job, step, await provider.void(trade, payment.amount))) return false;
      await inTransaction(db, (tx) => applyPaymentTransition(tx, payment.id, { kind: 'void' }, { now: clockNow() }));
      countEvent('payment_actions_total', { action: 'void' });
      return true;
    }
    case 'refund': {
      // The refund's ledger entry is its receipt: written once, under the request's key.
      const [recorded] = await db.select({ id: ledgerEntries.id }).from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, step.key));
      if (recorded) return true;
      const amount = Math.min(step.amount, payment.capturedAmount - payment.refundedAmount);
      if (amount <= 0) return true;
      // The ledger must be able to take the refund before the provider gives anything back: the guide's share of an
      // order already paid out waits (retried) until the guide has earned it again (docs/decisions/038). Refunded
      // first, the ledger's refusal left the traveler's money given back with no entry, and the retry found nothing
      // left to refund at the provider and stopped.
      const [order] = await db.select({ guideId: orders.guideId }).from(orders).where(eq(orders.id, job.orderId));
      if (!(await refundFits(db, { orderId: job.orderId, guideId: order!.guideId, amount }))) {
        throw new Error(`order ${job.orderId}: the refund waits for the guide's earnings (the order's net was paid out)`);
      }
      // A repeated refund pays twice: the call is written down first, and one whose answer was lost is never repeated
      // by itself (refund-attempts.server.ts).
      const call = { key: step.key, paymentId: payment.id, orderId: job.orderId, amount, laterSteps };
      if (!(await beginRefundCall(db, call))) return false;
      let answer: ActionResult;
      try {
        answer = await provider.refund(trade, amount);
      } catch (error) {
        if (error instanceof ProviderUnavailableError && !error.mayHaveArrived) {
          await markNotSent(db, step.key);
          throw error; // never reached the provider: the worker tries again later
        }
        await markInDoubt(db, call, error instanceof Error ? error.message : String(error));
        return false;
      }
      if (!refused(job, step, answer)) {
        await markNotSent(db, step.key);
        return false;
      }
      await inTransaction(db, async (tx) => {
        await applyPaymentTransition(tx, payment.id, { kind: 'refund', amount }, { now: clockNow(), refundKey: step.key });
        await markRefunded(tx, step.key);
      });
      countEvent('payment_actions_total', { action: 'refund' });
      return true;
    }
    case 'voidStray': {
      if (!refused(job, step, await provider.void({ merchantTradeNo: payment.merchantTradeNo, providerTradeNo: step.providerTradeNo }, step.amount))) return false;
      countEvent('payment_actions_total', { action: 'void_stray' });
      return true;
    }
    case 'settle': {
      // Settlement needs the money captured: a capture still queued or being retried comes first.
      if (payment.status === 'authorised') throw new Error(`order ${job.orderId}: settlement waits for the capture`);
      if (payment.capturedAmount === 0) return true;
      await inTransaction(db, async (tx) => {
        const [order] = await tx.select({ guideId: orders.guideId, commissionPercent: orders.commissionPercent }).from(orders).where(eq(orders.id, job.orderId));
        await recordSettlement(tx, { orderId: job.orderId, guideId: order!.guideId, commissionPercent: order!.commissionPercent, idempotencyKey: `order:${job.orderId}:settle` });
      });
      return true;
    }
  }
}

/**
 * A verified provider event (the server callback or the traveler's browser coming back with the signed result):
 * stored once and applied (payments.server.ts recordProviderEvent). An authorisation tells the guide of the booking
 * in the same transaction; a card authorised for an order that no longer waits is voided at the provider.
 */
export async function acceptPaymentEvent(db: Database, event: PaymentEvent, at: Date = clockNow()) {
  let notice: PendingNotice | null = null;
  const provider = paymentProvider();
  const result = await recordProviderEvent(db, provider.name, event, at, async (tx, payment) => {
    if (payment.status === 'authorised') notice = await noticeOrderPaid(tx, payment.orderId);
  });
  countEvent('payment_events_total', { outcome: result.outcome });
  if (notice) deliverOrderNotices([notice]);
  if (result.outcome !== 'unknown_payment' && result.strayAuthorisation) {
    // Our payment row stays expired (or failed) and the ledger never held this money: only the provider's
    // authorisation is given up.
    const stray = result.payment;
    const step: PaymentStep = { kind: 'voidStray', providerTradeNo: event.providerTradeNo, amount: event.amount };
    await queuePaymentJob(db, `stray:${stray.id}`, { orderId: stray.orderId, paymentId: stray.id, steps: [step] });
  }
  return result;
}
