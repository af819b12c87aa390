import { and, desc, eq, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { payments, refundAttempts } from '~db/schema';
import type { RefundAttemptState } from '~/lib/payments';
import type { RefundInDoubtView, RefundResolution } from '~/schemas/admin-finance';
import { recordAudit } from '../platform/audit.server';
import { now as clockNow } from '../platform/clock.server';
import { countEvent } from '../platform/counters.server';
import { AppError } from '../platform/errors.server';
import { logEvent } from '../platform/log.server';
import { enqueueOnce } from '../platform/outbox.server';
import { assertAdmin } from '../accounts/user-admin.server';
import type { UserRow } from '../accounts/users.server';
import type { PaymentStep } from './order-payments.server';
import { applyPaymentTransition } from './payments.server';

/*
 * A refund is the one provider action that moves money again when it is repeated (a second capture or void of a
 * trade is refused by the provider; a second refund is paid). So each refund's call is written down before it is
 * made (docs/decisions/040, "A refund in doubt"):
 *
 *   begin → `calling` → the provider's answer → `done` (with its ledger entry, one transaction)
 *                                             → `not_sent` (refused, or no connection was ever made: safe to send again)
 *                     → no answer, or the process died → `in_doubt`: never sent again by itself
 *
 * A refund in doubt waits for an admin, who looks the trade up at the provider and says what happened: refunded
 * (recorded now, under the same key) or not (sent again). Either way the job's later steps (its settlement) follow.
 */

export interface RefundCall {
  key: string;
  paymentId: number;
  orderId: number;
  amount: number;
  /** The job's steps after this refund, run once it is settled. */
  laterSteps: PaymentStep[];
}

/**
 * Before the provider is asked to refund: true to call now; false when an earlier call under this key may have
 * reached the provider and its answer is unknown (then it is in doubt, and left for an admin).
 */
export async function beginRefundCall(db: Database, call: RefundCall): Promise<boolean> {
  const started = await db
    .insert(refundAttempts)
    .values({ idempotencyKey: call.key, paymentId: call.paymentId, orderId: call.orderId, amount: call.amount, state: 'calling', laterSteps: call.laterSteps })
    .onConflictDoUpdate({
      target: refundAttempts.idempotencyKey,
      set: { state: 'calling', amount: call.amount, laterSteps: call.laterSteps, updatedAt: sql`now()` },
      setWhere: sql`${refundAttempts.state} = 'not_sent'`,
    })
    .returning({ key: refundAttempts.idempotencyKey });
  if (started.length > 0) return true;
  // A call under this key began and never ended here: the process died during it (or another run is making it now).
  await markInDoubt(db, call, 'an earlier call under this key never recorded its answer');
  return false;
}

/** The provider's answer is unknown (a timeout, a cut-off answer, a crash): held for an admin, never sent again by itself. */
export async function markInDoubt(db: Database, call: Pick<RefundCall, 'key' | 'orderId' | 'paymentId' | 'amount'>, reason: string): Promise<void> {
  const changed = await db
    .update(refundAttempts)
    .set({ state: 'in_doubt', updatedAt: sql`now()` })
    .where(and(eq(refundAttempts.idempotencyKey, call.key), eq(refundAttempts.state, 'calling')))
    .returning({ key: refundAttempts.idempotencyKey });
  if (changed.length === 0) return;
  countEvent('payment_refunds_in_doubt_total');
  logEvent('error', 'payments: a refund is in doubt; an admin must check it at the provider', { ...call, reason });
}

/** The call certainly refunded nothing (refused, or never reached the provider): it may be sent again. */
export async function markNotSent(db: Database, key: string): Promise<void> {
  await setState(db, key, 'not_sent');
}

/** Refunded and recorded: in the transaction that writes the refund's ledger entry. */
export async function markRefunded(tx: Database, key: string): Promise<void> {
  await setState(tx, key, 'done');
}

async function setState(db: Database, key: string, state: RefundAttemptState) {
  await db.update(refundAttempts).set({ state, updatedAt: sql`now()` }).where(eq(refundAttempts.idempotencyKey, key));
}

/** The refunds in doubt, oldest first (the admin's finance area). */
export async function refundsInDoubt(actor: Pick<UserRow, 'type'>, db: Database = getDb()): Promise<RefundInDoubtView[]> {
  assertAdmin(actor);
  const rows = await db
    .select({
      key: refundAttempts.idempotencyKey,
      orderId: refundAttempts.orderId,
      paymentId: refundAttempts.paymentId,
      merchantTradeNo: payments.merchantTradeNo,
      providerTradeNo: payments.providerTradeNo,
      amount: refundAttempts.amount,
      startedAt: refundAttempts.updatedAt,
    })
    .from(refundAttempts)
    .innerJoin(payments, eq(payments.id, refundAttempts.paymentId))
    .where(eq(refundAttempts.state, 'in_doubt'))
    .orderBy(desc(refundAttempts.updatedAt));
  return rows.map((r) => ({ ...r, startedAt: r.startedAt.toISOString() }));
}

/**
 * An admin settles a refund in doubt after looking the trade up at the provider: `refunded` records it now (the
 * payment, its ledger entry under the refund's own key); `not_refunded` sends it again through the payment lane.
 * The job's later steps follow either way. Audited; a refund no longer in doubt is 404.
 */
export async function resolveRefundInDoubt(
  actor: Pick<UserRow, 'id' | 'type'>,
  input: { key: string; outcome: RefundResolution },
  db: Database = getDb(),
  now: Date = clockNow(),
): Promise<void> {
  assertAdmin(actor);
  await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    const [attempt] = await tx
      .select()
      .from(refundAttempts)
      .where(and(eq(refundAttempts.idempotencyKey, input.key), eq(refundAttempts.state, 'in_doubt')))
      .for('update');
    if (!attempt) throw new AppError('NOT_FOUND', { messageKey: 'admin.finance.inDoubt.gone' });
    const laterSteps = attempt.laterSteps as PaymentStep[];
    let steps: PaymentStep[] = laterSteps;
    if (input.outcome === 'refunded') {
      const recorded = await applyPaymentTransition(tx, attempt.paymentId, { kind: 'refund', amount: attempt.amount }, { now, refundKey: attempt.idempotencyKey });
      if (!recorded) throw new AppError('INVALID_TRANSITION', { messageKey: 'admin.finance.inDoubt.cannotRecord' });
      await markRefunded(tx, attempt.idempotencyKey);
    } else {
      await tx
        .update(refundAttempts)
        .set({ state: 'not_sent', resends: attempt.resends + 1, updatedAt: sql`now()` })
        .where(eq(refundAttempts.idempotencyKey, attempt.idempotencyKey));
      steps = [{ kind: 'refund', amount: attempt.amount, key: attempt.idempotencyKey }, ...laterSteps];
    }
    if (steps.length > 0) {
      const job = { orderId: attempt.orderId, paymentId: attempt.paymentId, steps };
      await enqueueOnce('payment', `refund:${attempt.idempotencyKey}:resolved:${attempt.resends + 1}`, job, tx);
    }
    await recordAudit(
      { actorId: actor.id, action: 'payment.refund_resolved', targetType: 'order', targetId: attempt.orderId, details: { key: attempt.idempotencyKey, amount: attempt.amount, outcome: input.outcome } },
      tx,
    );
  });
}
