import { and, desc, eq, gte, ne, or } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { payments, reconciliationRuns } from '~db/schema';
import type { PaymentStatus } from '~/lib/payments';
import type { ReconciliationMismatch, ReconciliationRunView } from '~/schemas/admin-finance';
import { recordAudit } from '../platform/audit.server';
import { now as clockNow } from '../platform/clock.server';
import { assertAdmin } from '../accounts/user-admin.server';
import type { UserRow } from '../accounts/users.server';
import { paymentProvider } from './configured-provider.server';
import { ProviderUnavailableError } from './form-post.server';
import { orderMoney, type OrderMoney } from './ledger.server';
import type { PaymentProvider, TradeInfo } from './provider.server';

/*
 * Reconciliation (issue 32): the provider's view of each payment of a period against ours (the payments row) and
 * the ledger's (orderMoney). It reads our side first, then asks the provider about each payment with no database
 * transaction open (a slow provider holds no lock), then the caller stores the run (`reconciliation_runs`). A
 * provider that cannot be reached about a payment is counted as unreachable, never as a mismatch.
 *
 * Which payments: this provider's payments opened or changed since the period's start, except those still `unpaid` (nobody
 * has paid yet; the callback or the expiry decides them). Expired and failed ones are asked about too: a provider
 * that took the money of a payment we gave up on is the stray payment this report exists to find.
 */

/** The daily job and "run now" look at the payments opened or changed in the last two days (runs overlap a day). */
export const RECONCILIATION_WINDOW_MS = 48 * 60 * 60 * 1000;
/** Provider queries at once. */
const QUERY_CONCURRENCY = 4;

/** The states in which we believe the traveler's money moved through the provider. */
const MONEY_TAKEN: ReadonlySet<PaymentStatus> = new Set(['authorised', 'captured', 'partly_refunded', 'refunded']);
/** The states in which we believe nothing was taken. */
const NOTHING_TAKEN: ReadonlySet<PaymentStatus> = new Set(['failed', 'expired']);

type PaymentRow = typeof payments.$inferSelect;

export interface ReconcileResult {
  since: Date;
  ranAt: Date;
  /** Payments the provider answered about. */
  checked: number;
  /** Payments the provider could not be asked about (unreachable, or an answer that could not be verified). */
  unreachable: number;
  mismatches: ReconciliationMismatch[];
}

/** What one payment's row, the ledger and the provider say, as mismatches (none when they agree). */
export function compare(p: PaymentRow, ledger: OrderMoney | null, trade: TradeInfo): ReconciliationMismatch[] {
  const base = {
    paymentId: p.id,
    orderId: p.orderId,
    merchantTradeNo: p.merchantTradeNo,
    ours: { status: p.status, amount: p.amount, captured: p.capturedAmount, refunded: p.refundedAmount },
    provider: { status: trade.status, amount: trade.amount },
    ledger: ledger ? { authorisedOpen: ledger.authorisedOpen, captured: ledger.captured, refunded: ledger.refunded } : null,
  };
  const found: ReconciliationMismatch[] = [];
  if (trade.status !== 'paid' && MONEY_TAKEN.has(p.status)) found.push({ kind: 'provider_not_paid', ...base });
  if (trade.status === 'paid' && NOTHING_TAKEN.has(p.status)) found.push({ kind: 'stray_payment', ...base });
  if (trade.status === 'paid' && trade.amount !== p.amount) found.push({ kind: 'amount_differs', ...base });
  if (ledger) {
    const authorisedOpen = p.status === 'authorised' ? p.amount : 0;
    if (ledger.captured !== p.capturedAmount || ledger.refunded !== p.refundedAmount || ledger.authorisedOpen !== authorisedOpen) {
      found.push({ kind: 'ledger_differs', ...base });
    }
  }
  return found;
}

/** Runs `work` over `items`, at most `limit` at a time, in order of the results. */
async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

/**
 * Compares the provider's view of the period's payments with ours and the ledger's. Reads only; the database is
 * read before any provider call and no transaction stays open across them.
 */
export async function reconcile(db: Database, provider: PaymentProvider, options: { since: Date; now: Date }): Promise<ReconcileResult> {
  const rows = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider.name),
        ne(payments.status, 'unpaid'),
        or(gte(payments.createdAt, options.since), gte(payments.updatedAt, options.since)),
      ),
    )
    .orderBy(payments.id);
  // The ledger's figures are per order, and belong to its live payment (at most one is neither failed nor expired).
  const ledgers = new Map<number, OrderMoney>();
  for (const p of rows) if (!NOTHING_TAKEN.has(p.status) && !ledgers.has(p.orderId)) ledgers.set(p.orderId, await orderMoney(db, p.orderId));

  const answers = await inPool(rows, QUERY_CONCURRENCY, async (p) => {
    try {
      return await provider.queryTrade(p.merchantTradeNo);
    } catch (error) {
      if (error instanceof ProviderUnavailableError) return null;
      throw error;
    }
  });
  const mismatches: ReconciliationMismatch[] = [];
  let checked = 0;
  let unreachable = 0;
  rows.forEach((p, i) => {
    const trade = answers[i];
    if (!trade) {
      unreachable++;
      return;
    }
    checked++;
    mismatches.push(...compare(p, NOTHING_TAKEN.has(p.status) ? null : (ledgers.get(p.orderId) ?? null), trade));
  });
  return { since: options.since, ranAt: options.now, checked, unreachable, mismatches };
}

type RunRow = typeof reconciliationRuns.$inferSelect;
const view = (r: RunRow): ReconciliationRunView => ({
  id: r.id,
  ranAt: r.ranAt.toISOString(),
  since: r.since.toISOString(),
  checked: r.checked,
  unreachable: r.unreachable,
  mismatches: r.mismatches as ReconciliationMismatch[],
  actorId: r.actorId,
});

/** Stores a run (after the provider calls: a short write of its own). */
async function storeRun(db: Database, result: ReconcileResult, actorId: number | null): Promise<RunRow> {
  const [row] = await db
    .insert(reconciliationRuns)
    .values({ ranAt: result.ranAt, since: result.since, checked: result.checked, unreachable: result.unreachable, mismatches: result.mismatches, actorId })
    .returning();
  return row!;
}

/** The daily job's work: the last two days, stored as a run of the system. Returns the figures for the job log. */
export async function runDailyReconciliation(db: Database, provider: PaymentProvider = paymentProvider(), at: Date = clockNow()) {
  const result = await reconcile(db, provider, { since: new Date(at.getTime() - RECONCILIATION_WINDOW_MS), now: at });
  await storeRun(db, result, null);
  return { checked: result.checked, unreachable: result.unreachable, mismatches: result.mismatches.length };
}

/** An admin's "run now": the same period as the daily job, stored and audited. */
export async function runReconciliationNow(
  actor: Pick<UserRow, 'id' | 'type'>,
  db: Database = getDb(),
  provider: PaymentProvider = paymentProvider(),
  at: Date = clockNow(),
): Promise<ReconciliationRunView> {
  assertAdmin(actor);
  const result = await reconcile(db, provider, { since: new Date(at.getTime() - RECONCILIATION_WINDOW_MS), now: at });
  const row = await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    const stored = await storeRun(tx, result, actor.id);
    await recordAudit(
      {
        actorId: actor.id,
        action: 'reconciliation.run',
        targetType: 'reconciliation_run',
        targetId: stored.id,
        details: { checked: result.checked, unreachable: result.unreachable, mismatches: result.mismatches.length },
      },
      tx,
    );
    return stored;
  });
  return view(row);
}

/** The latest run (the daily job's or an admin's), or null before the first. */
export async function latestReconciliation(actor: Pick<UserRow, 'type'>, db: Database = getDb()): Promise<ReconciliationRunView | null> {
  assertAdmin(actor);
  const [row] = await db.select().from(reconciliationRuns).orderBy(desc(reconciliationRuns.ranAt), desc(reconciliationRuns.id)).limit(1);
  return row ? view(row) : null;
}
