import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { orders, payments, payouts, users } from '~db/schema';
import {
  FINANCE_PAGE_SIZE,
  type FinancePaymentQuery,
  type FinancePaymentRow,
  type FinancePayoutQuery,
  type FinancePayoutRow,
  type LedgerOverview,
} from '~/schemas/admin-finance';
import { recordAudit } from '../platform/audit.server';
import { now as clockNow } from '../platform/clock.server';
import { AppError } from '../platform/errors.server';
import { audited, EXPORT_PAGE_ROWS, keyset, type CsvExport } from '../admin/exports.server';
import { paginate } from '../catalogue/guides.server';
import { assertAdmin } from '../accounts/user-admin.server';
import type { UserRow } from '../accounts/users.server';
import { accountBalances, markPayoutPaid } from './ledger.server';
import { maskAccountNumber } from './payout-accounts.server';

/*
 * The admin's finance area (issue 32): the ledger's balances in words, every payment, the payouts (mark paid, the
 * bank-transfer CSV). One call per use case, shared by /admin/finance/* and /api/v1/admin/*. Everything here
 * reads, except `adminMarkPayoutPaid`, which moves the payout's money through the ledger's own `markPayoutPaid`
 * and audits it in the same transaction. Reconciliation: reconciliation.server.ts.
 */

type Admin = Pick<UserRow, 'id' | 'type'>;

/** A Taiwan day's first instant, as SQL (the list filters read Taiwan days). */
const taipeiDayStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'Asia/Taipei'`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * The ledger's balances in words. The outside world's two accounts run negative (docs/decisions/038): they are
 * shown negated, as what the provider holds for us (captured) and what it has authorised. `balanced` says whether
 * every account together sums to zero, as double entry must.
 */
export async function ledgerOverview(actor: Admin, db: Database = getDb()): Promise<LedgerOverview> {
  assertAdmin(actor);
  const accounts = await accountBalances(db);
  const sum = (kind: string) => accounts.filter((a) => a.kind === kind).reduce((s, a) => s + a.balance, 0);
  const total = accounts.reduce((s, a) => s + a.balance, 0);
  return {
    heldForTravelers: sum('traveler_funds_held'),
    owedToGuides: sum('guide_payable'),
    guidesOwed: accounts.filter((a) => a.kind === 'guide_payable' && a.balance > 0).length,
    platformCommission: sum('platform_commission'),
    refunds: sum('refunds'),
    payoutsInTransit: sum('payouts_in_transit'),
    paidOut: sum('guide_paid_out'),
    providerClearing: -sum('provider_clearing'),
    providerAuthorised: -sum('provider_authorised'),
    total,
    balanced: total === 0,
    accounts,
  };
}

/** Every payment (each attempt to pay an order, with what was captured and refunded of it), newest first. */
export async function listPaymentsForAdmin(actor: Admin, query: FinancePaymentQuery, db: Database = getDb()) {
  assertAdmin(actor);
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  const where = and(
    query.status ? eq(payments.status, query.status) : undefined,
    query.from ? sql`${payments.createdAt} >= ${taipeiDayStart(query.from)}` : undefined,
    query.to ? sql`${payments.createdAt} < ${taipeiDayStart(query.to)} + interval '1 day'` : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({ payment: payments, travelerId: traveler.id, travelerName: traveler.name, guideId: guide.id, guideName: guide.name })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .innerJoin(traveler, eq(traveler.id, orders.travelerId))
      .innerJoin(guide, eq(guide.id, orders.guideId))
      .where(where)
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(FINANCE_PAGE_SIZE)
      .offset((query.page - 1) * FINANCE_PAGE_SIZE),
    db.select({ n: count() }).from(payments).where(where),
  ]);
  return {
    payments: rows.map(
      ({ payment: p, ...r }): FinancePaymentRow => ({
        id: p.id,
        orderId: p.orderId,
        traveler: { id: r.travelerId, name: r.travelerName },
        guide: { id: r.guideId, name: r.guideName },
        amount: p.amount,
        captured: p.capturedAmount,
        refunded: p.refundedAmount,
        status: p.status,
        provider: p.provider,
        merchantTradeNo: p.merchantTradeNo,
        providerTradeNo: p.providerTradeNo,
        createdAt: p.createdAt.toISOString(),
        authorisedAt: iso(p.authorisedAt),
        capturedAt: iso(p.capturedAt),
        updatedAt: p.updatedAt.toISOString(),
      }),
    ),
    pagination: paginate(query.page, FINANCE_PAGE_SIZE, total?.n ?? 0),
  };
}

const payoutOrders = sql<number>`(select count(*)::int from payout_items i where i.payout_id = ${payouts.id})`;

async function payoutRows(db: Database, where: SQL | undefined, limit: number, offset: number): Promise<FinancePayoutRow[]> {
  const rows = await db
    .select({ payout: payouts, guideName: users.name, orders: payoutOrders })
    .from(payouts)
    .innerJoin(users, eq(users.id, payouts.guideId))
    .where(where)
    .orderBy(desc(payouts.createdAt), desc(payouts.id))
    .limit(limit)
    .offset(offset);
  return rows.map(({ payout: p, guideName, orders: n }) => ({
    id: p.id,
    guide: { id: p.guideId, name: guideName },
    amount: p.amount,
    bankCode: p.bankCode,
    accountNumberMasked: maskAccountNumber(p.accountNumber),
    status: p.status,
    createdAt: p.createdAt.toISOString(),
    paidAt: iso(p.paidAt),
    orders: Number(n),
  }));
}

/** Payouts, newest first, the bank account masked (the full number is only in the bank-transfer CSV). */
export async function listPayoutsForAdmin(actor: Admin, query: FinancePayoutQuery, db: Database = getDb()) {
  assertAdmin(actor);
  const where = query.status ? eq(payouts.status, query.status) : undefined;
  const [rows, [total]] = await Promise.all([
    payoutRows(db, where, FINANCE_PAGE_SIZE, (query.page - 1) * FINANCE_PAGE_SIZE),
    db.select({ n: count() }).from(payouts).where(where),
  ]);
  return { payouts: rows, pagination: paginate(query.page, FINANCE_PAGE_SIZE, total?.n ?? 0) };
}

/**
 * An admin says a payout's bank transfer arrived: in transit → the guide's paid out, through the ledger's
 * `markPayoutPaid` (which locks the payout row, so two admins at once make one entry), audited in the same
 * transaction. Marking a paid payout again changes nothing and records nothing (`changed: false`).
 */
export async function adminMarkPayoutPaid(actor: Admin, payoutId: number, db: Database = getDb(), at: Date = clockNow()) {
  assertAdmin(actor);
  const changed = await db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Database;
    const [exists] = await tx.select({ id: payouts.id }).from(payouts).where(eq(payouts.id, payoutId));
    if (!exists) throw new AppError('NOT_FOUND');
    const done = await markPayoutPaid(tx, { payoutId, paidAt: at });
    if (done) await recordAudit({ actorId: actor.id, action: 'payout.paid', targetType: 'payout', targetId: payoutId }, tx);
    return done;
  });
  const [payout] = await payoutRows(db, eq(payouts.id, payoutId), 1, 0);
  return { payout: payout!, changed };
}

const PAYOUT_CSV_COLUMNS = ['bankCode', 'accountNumber', 'guide', 'amount', 'payoutId'] as const;

/**
 * The payouts in transit as a bank-transfer file: bank code, the full account number (admins only; this is what
 * the bank needs), the guide's name, the amount and the payout's number, written by the CSV exports' own writer
 * (docs/decisions/027: a cell starting with =, +, -, @ … gets a leading quote). Asking for it is audited.
 */
export async function exportPayoutsInTransit(actor: Admin, db: Database = getDb()): Promise<CsvExport> {
  assertAdmin(actor);
  const exp: CsvExport = {
    kind: 'payouts',
    headerPrefix: 'admin.finance.csv',
    columns: PAYOUT_CSV_COLUMNS,
    pages: () =>
      keyset(
        (before) =>
          db
            .select({ id: payouts.id, bankCode: payouts.bankCode, accountNumber: payouts.accountNumber, guide: users.name, amount: payouts.amount, payoutId: payouts.id })
            .from(payouts)
            .innerJoin(users, eq(users.id, payouts.guideId))
            .where(and(eq(payouts.status, 'in_transit'), before))
            .orderBy(desc(payouts.id))
            .limit(EXPORT_PAGE_ROWS),
        payouts.id,
      ),
  };
  return audited(actor, exp, { status: 'in_transit' }, db);
}
