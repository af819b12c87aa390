import { and, eq, isNotNull, lt, lte, or, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { emailCodes, jobRuns, sessions } from '~db/schema';
import { now } from '../platform/clock.server';
import { purgeDeliveredOutbox } from '../platform/outbox-retention.server';
import { runDailyReconciliation } from '../payments/reconciliation.server';
import { PAYOUT_BATCH_EVERY_MS, runPayoutBatch } from '../payments/payout-batch.server';
import { mailUnreadMessages } from '../messaging/unread-mail.server';
import { deliverOrderNotices } from '../messaging/order-notices.server';
import { expireUnpaidOrders } from '../payments/order-payments.server';
import { deleteExpiredIdempotencyKeys } from '../platform/idempotency.server';

/**
 * Periodic work that must run once across instances (docs/decisions/024). Every instance ticks; a tick runs a
 * job only when its row in `job_runs` is due and this instance claims it: the row is locked with
 * `FOR UPDATE SKIP LOCKED` inside the job's transaction, so a second instance skips it while the first works,
 * and finds it no longer due once the first commits. A job that throws rolls back with its claim, and the next
 * tick tries again. Plain SQL on the row: the same on PostgreSQL and PGlite, no session-bound advisory lock
 * (a pool would hand it to another connection).
 */
export interface Job {
  name: string;
  /** The least time between two runs. */
  everyMs: number;
  /** The work, inside the claiming transaction: short and idempotent. Returns what it did, for the log. */
  run(tx: Database): Promise<Record<string, number>>;
  /**
   * The work calls another service (the payment provider) and must hold no transaction open meanwhile: the job is
   * claimed by moving its row's next run forward in a statement of its own, and `run` gets the pool, not a
   * transaction. A run that throws puts the next run back to now, so the next tick tries again.
   */
  outsideTransaction?: true;
}

export type JobOutcome = { ran: true; result: Record<string, number> } | { ran: false };

/** Runs `job` when it is due and no other instance runs it now. */
export async function runJobIfDue(job: Job, db: Database = getDb()): Promise<JobOutcome> {
  const at = now();
  await db.insert(jobRuns).values({ name: job.name, nextRunAt: at }).onConflictDoNothing();
  if (job.outsideTransaction) return runDetached(job, db, at);
  return db.transaction(async (tx) => {
    const claimed = await tx
      .select({ name: jobRuns.name })
      .from(jobRuns)
      .where(and(eq(jobRuns.name, job.name), lte(jobRuns.nextRunAt, at)))
      .for('update', { skipLocked: true });
    if (claimed.length === 0) return { ran: false } as const;
    const result = await job.run(tx);
    const finished = now();
    await tx
      .update(jobRuns)
      .set({ nextRunAt: new Date(at.getTime() + job.everyMs), lastFinishedAt: finished, runs: sql`${jobRuns.runs} + 1` })
      .where(eq(jobRuns.name, job.name));
    return { ran: true, result } as const;
  });
}

/**
 * Claims the job with one UPDATE of its row (a second instance's UPDATE waits for the row, then finds it no longer
 * due and claims nothing), then runs it with no transaction open.
 */
async function runDetached(job: Job, db: Database, at: Date): Promise<JobOutcome> {
  const claimed = await db
    .update(jobRuns)
    .set({ nextRunAt: new Date(at.getTime() + job.everyMs) })
    .where(and(eq(jobRuns.name, job.name), lte(jobRuns.nextRunAt, at)))
    .returning({ name: jobRuns.name });
  if (claimed.length === 0) return { ran: false };
  let result: Record<string, number>;
  try {
    result = await job.run(db);
  } catch (error) {
    await db.update(jobRuns).set({ nextRunAt: at }).where(eq(jobRuns.name, job.name));
    throw error;
  }
  await db.update(jobRuns).set({ lastFinishedAt: now(), runs: sql`${jobRuns.runs} + 1` }).where(eq(jobRuns.name, job.name));
  return { ran: true, result };
}

/** A revoked session is kept this long (who was logged out when), then removed like an expired one. */
const REVOKED_SESSION_KEPT_MS = 7 * 24 * 60 * 60 * 1000;

/** Expired and long-revoked sessions and expired email codes: rows nobody can use any more. */
export const expireSessionsAndCodes: Job = {
  name: 'expire-sessions-and-codes',
  everyMs: 10 * 60 * 1000,
  async run(tx) {
    // Sessions and codes are stamped and checked with the real time, never the order rules' clock (which the
    // end-to-end server moves to 05:00 Taipei time): on that clock a code mailed a moment ago could already
    // look expired and be deleted before its owner typed it.
    const at = new Date();
    const revokedBefore = new Date(at.getTime() - REVOKED_SESSION_KEPT_MS);
    const goneSessions = await tx
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, at), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, revokedBefore))))
      .returning({ id: sessions.id });
    const goneCodes = await tx.delete(emailCodes).where(lt(emailCodes.expiresAt, at)).returning({ id: emailCodes.id });
    return { sessions: goneSessions.length, emailCodes: goneCodes.length };
  },
};

/** The unread-message mail (docs/decisions/028), every minute: a message waits 10 to 11 minutes for its mail. */
export const unreadMessageMail: Job = {
  name: 'unread-message-mail',
  everyMs: 60 * 1000,
  run: (tx) => mailUnreadMessages(tx),
};

/** Delivered outbox rows after their retention period (outbox-retention.server.ts, docs/decisions/036). */
export const purgeOutbox: Job = {
  name: 'purge-outbox',
  everyMs: 10 * 60 * 1000,
  run: (tx) => purgeDeliveredOutbox(tx),
};

/**
 * The daily reconciliation (issue 32, payments/reconciliation.server.ts): the provider's view of the last two days'
 * payments against ours and the ledger, stored in reconciliation_runs. It asks the provider, so it runs outside
 * the claiming transaction.
 */
export const dailyReconciliation: Job = {
  name: 'daily-reconciliation',
  everyMs: 24 * 60 * 60 * 1000,
  outsideTransaction: true,
  run: (db) => runDailyReconciliation(db),
};

/**
 * Unpaid orders past PAYMENT_WINDOW_MINUTES (issue 32): cancelled, their slots freed, their travelers told. On the
 * orders' clock (the end-to-end server moves it). The socket events go out from inside the claim's transaction:
 * the notification rows they announce are committed a moment later.
 */
export const expireUnpaidOrdersJob: Job = {
  name: 'expire-unpaid-orders',
  everyMs: 60 * 1000,
  async run(tx) {
    const { expired, pending } = await expireUnpaidOrders(tx, now());
    deliverOrderNotices(pending);
    return { expired };
  },
};

/** The weekly payouts (issue 32, payout-batch.server.ts): one payout per guide with earnings past the hold. */
export const weeklyPayouts: Job = {
  name: 'weekly-payouts',
  everyMs: PAYOUT_BATCH_EVERY_MS,
  run: async (tx) => ({ ...(await runPayoutBatch(tx, new Date())) }),
};

/** Idempotency keys past their 24 hours (docs/decisions/042): nobody can replay them any more. */
export const expireIdempotencyKeys: Job = {
  name: 'expire-idempotency-keys',
  everyMs: 10 * 60 * 1000,
  run: (tx) => deleteExpiredIdempotencyKeys(tx),
};

/** Every periodic job of the product (the mail outbox has its own worker). */
export const PERIODIC_JOBS: readonly Job[] = [expireSessionsAndCodes, unreadMessageMail, purgeOutbox, expireUnpaidOrdersJob, dailyReconciliation, weeklyPayouts, expireIdempotencyKeys];
