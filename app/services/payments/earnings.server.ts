import { eq, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import { getConfig } from '~/env.server';
import type { EarningLine, EarningState, GuideEarnings, MaskedPayoutAccountView, PayoutAccountInput, PayoutSummary } from '~/schemas/earnings';
import { recordAudit } from '../platform/audit.server';
import { now as clockNow } from '../platform/clock.server';
import { AppError } from '../platform/errors.server';
import { verifyPassword } from '../accounts/passwords.server';
import { clearAttempts, releaseAttempt, reserveAttempt, type LimitLog } from '../platform/rate-limit.server';
import type { UserRow } from '../accounts/users.server';
import { commissionOf } from './commission.server';
import { accountBalance, orderMoney, payableLines } from './ledger.server';
import { maskAccountNumber, payoutAccountOf, savePayoutAccount, type MaskedPayoutAccount } from './payout-accounts.server';

/**
 * The guide's side of the money (issue 32, docs/decisions/038): per order with money, what it earned and where it
 * stands, the totals and the guide's payouts. Everything is read from the ledger (its own reads: `orderMoney` per
 * order, `accountBalance`, `payableLines`) and the payouts tables; nothing is stored twice.
 *
 * The ledger has no per-order read of "settled when" and "in which payout": `orderFacts` below reads them from
 * ledger_entries and payout_items (the order's settle entry's time, the payouts its lines are in).
 */

const DAY_MS = 24 * 60 * 60 * 1000;

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** The guide's orders with money (captured or settled), newest tour first, with when each was settled and its payout lines. */
interface OrderFacts {
  id: number;
  date: string;
  time_slot: string;
  traveler_name: string;
  commission_percent: number;
  settled_at: Date | string | null;
  /** The payout lines of the order, newest payout first: [payoutId, amount, status, paidAt]. */
  payouts: { payout_id: number; amount: number; status: 'in_transit' | 'paid'; paid_at: string | null }[] | null;
}

function orderFacts(db: Database, guideId: number): Promise<OrderFacts[]> {
  return rows<OrderFacts>(
    db,
    sql`select o.id, o.date::text as date, o.time_slot, t.name as traveler_name, o.commission_percent,
               (select min(e.created_at) from ledger_entries e where e.order_id = o.id and e.kind = 'settle') as settled_at,
               (select json_agg(json_build_object('payout_id', p.id, 'amount', i.amount, 'status', p.status, 'paid_at', p.paid_at) order by p.id desc)
                  from payout_items i join payouts p on p.id = i.payout_id where i.order_id = o.id and p.guide_id = ${guideId}) as payouts
        from orders o join users t on t.id = o.traveler_id
        where o.guide_id = ${guideId}
          and exists (select 1 from ledger_entries e where e.order_id = o.id and e.kind in ('capture', 'settle'))
        order by o.date desc, o.id desc`,
  );
}

/** One order's line: its money as the ledger has it, and where it stands at `at`. */
async function earningLine(db: Database, facts: OrderFacts, at: Date, holdDays: number): Promise<EarningLine | null> {
  const money = await orderMoney(db, facts.id);
  const settled = facts.settled_at !== null;
  const price = money.captured - money.refunded;
  const payouts = facts.payouts ?? [];
  if (!settled && money.held <= 0 && payouts.length === 0) return null; // captured and wholly refunded before the tour
  // Before settlement the split is what the settlement will make of the money held (the order's own percent).
  const commission = settled ? money.commission : commissionOf(money.held, facts.commission_percent);
  const net = settled ? money.guideNet : money.held - commission;
  const inPayouts = payouts.reduce((s, p) => s + p.amount, 0);
  const latest = payouts.find((p) => p.amount > 0) ?? null;
  const payableAt = settled ? new Date(new Date(facts.settled_at!).getTime() + holdDays * DAY_MS) : null;
  let state: EarningState;
  if (!settled) state = 'held';
  else if (net - inPayouts > 0 || !latest) state = payableAt! > at ? 'payable_after' : 'payable';
  else state = latest.status === 'paid' ? 'paid' : 'in_payout';
  return {
    orderId: facts.id,
    date: facts.date,
    timeSlot: facts.time_slot,
    travelerName: facts.traveler_name,
    price,
    commission,
    net,
    commissionPercent: facts.commission_percent,
    state,
    payableAfter: state === 'payable_after' ? payableAt!.toISOString() : null,
    payoutId: state === 'in_payout' || state === 'paid' ? latest!.payout_id : null,
    paidAt: state === 'paid' ? iso(latest!.paid_at) : null,
  };
}

/**
 * A guide's earnings at `at`: per order with money, its price (captured − refunded), commission, net and state;
 * the totals: held (the net of tours not completed yet), payable (the guide's payable balance) and of it what the
 * next payout would pay now, in transit (payouts not yet marked paid) and paid out.
 */
export async function guideEarnings(guideId: number, at: Date = clockNow(), db: Database = getDb()): Promise<GuideEarnings> {
  const holdDays = getConfig().PAYOUT_HOLD_DAYS;
  const facts = await orderFacts(db, guideId);
  const lines: EarningLine[] = [];
  // One order after another: PGlite has one connection, and a pool would be drained by a long list.
  for (const f of facts) {
    const line = await earningLine(db, f, at, holdDays);
    if (line) lines.push(line);
  }
  const payable = await accountBalance(db, { kind: 'guide_payable', ownerId: guideId });
  const payableNow = (await payableLines(db, guideId, new Date(at.getTime() - holdDays * DAY_MS))).reduce((s, l) => s + l.amount, 0);
  const paidOut = await accountBalance(db, { kind: 'guide_paid_out', ownerId: guideId });
  const [transit] = await rows<{ amount: string }>(
    db,
    sql`select coalesce(sum(amount), 0)::bigint as amount from payouts where guide_id = ${guideId} and status = 'in_transit'`,
  );
  return {
    holdDays,
    totals: {
      held: lines.filter((l) => l.state === 'held').reduce((s, l) => s + l.net, 0),
      payable,
      payableNow: Math.max(0, Math.min(payable, payableNow)),
      inTransit: Number(transit?.amount ?? 0),
      paidOut,
    },
    lines,
  };
}

/** A guide's payouts, newest first, with the account each went to (masked) and how many orders it pays. */
export async function guidePayouts(guideId: number, db: Database = getDb()): Promise<PayoutSummary[]> {
  const found = await rows<{
    id: number;
    created_at: Date | string;
    amount: number;
    status: 'in_transit' | 'paid';
    paid_at: Date | string | null;
    order_count: number;
    bank_code: string;
    account_number: string;
  }>(
    db,
    sql`select p.id, p.created_at, p.amount, p.status, p.paid_at, p.bank_code, p.account_number,
               (select count(*)::int from payout_items i where i.payout_id = p.id) as order_count
        from payouts p where p.guide_id = ${guideId} order by p.created_at desc, p.id desc`,
  );
  return found.map((p) => ({
    id: p.id,
    createdAt: iso(p.created_at)!,
    amount: p.amount,
    status: p.status,
    paidAt: iso(p.paid_at),
    orderCount: p.order_count,
    bankCode: p.bank_code,
    accountNumberMasked: maskAccountNumber(p.account_number),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// The use cases of the /me earnings tab and /api/v1 (one call each, page and API alike): a guide's own only.

type Viewer = Pick<UserRow, 'id' | 'type'>;

function requireGuide(viewer: Viewer): void {
  if (viewer.type !== 'guide') throw new AppError('FORBIDDEN');
}

const accountView = (account: MaskedPayoutAccount): MaskedPayoutAccountView => ({
  bankCode: account.bankCode,
  accountNumberMasked: account.accountNumberMasked,
  updatedAt: account.updatedAt.toISOString(),
});

/** GET /api/v1/earnings and the earnings tab. */
export async function myEarnings(viewer: Viewer, db: Database = getDb()): Promise<GuideEarnings> {
  requireGuide(viewer);
  return guideEarnings(viewer.id, clockNow(), db);
}

/** GET /api/v1/payouts and the earnings tab. */
export async function myPayouts(viewer: Viewer, db: Database = getDb()): Promise<{ payouts: PayoutSummary[] }> {
  requireGuide(viewer);
  return { payouts: await guidePayouts(viewer.id, db) };
}

/** GET /api/v1/payout-account and the bank account card: masked, always. */
export async function myPayoutAccount(viewer: Viewer, db: Database = getDb()): Promise<{ account: MaskedPayoutAccountView | null }> {
  requireGuide(viewer);
  const account = await payoutAccountOf(db, viewer.id);
  return { account: account ? accountView(account) : null };
}

/**
 * Wrong passwords per guide and minute on this form. The guide is logged in already: this only slows down someone
 * at an unlocked session guessing the password to send the payouts elsewhere (a right password forgives the typos).
 */
export const PAYOUT_PASSWORD_FAILURES_PER_MINUTE = 5;

/**
 * PUT /api/v1/payout-account and the bank account form: where the guide's payouts go, changed only with the
 * guide's current password. A wrong password is INVALID_CREDENTIALS (as at login) and changes nothing; the
 * change is audited (bank code and the masked number, never the whole number).
 */
export async function changePayoutAccount(
  viewer: Viewer,
  input: PayoutAccountInput,
  db: Database = getDb(),
  limits?: LimitLog,
): Promise<{ account: MaskedPayoutAccountView }> {
  requireGuide(viewer);
  const limit = { key: `payout-password:${viewer.id}`, limit: PAYOUT_PASSWORD_FAILURES_PER_MINUTE };
  await reserveAttempt([limit], undefined, limits);
  let valid: boolean;
  try {
    const [row] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, viewer.id));
    valid = Boolean(row?.passwordHash) && (await verifyPassword(row!.passwordHash!, input.password));
  } catch (error) {
    await releaseAttempt([limit], limits); // our failure, not a guess
    throw error;
  }
  if (!valid) {
    const key = 'profile.payout.errors.wrongPassword';
    throw new AppError('INVALID_CREDENTIALS', { messageKey: key, fieldErrors: { password: [key] } });
  }
  await clearAttempts([limit], limits);
  const saved = await db.transaction(async (tx) => {
    const account = await savePayoutAccount(tx as unknown as Database, { guideId: viewer.id, bankCode: input.bankCode, accountNumber: input.accountNumber, now: new Date() });
    await recordAudit(
      {
        actorId: viewer.id,
        action: 'payout_account.change',
        targetType: 'user',
        targetId: viewer.id,
        details: { bankCode: account.bankCode, accountNumber: account.accountNumberMasked },
      },
      tx as unknown as Database,
    );
    return account;
  });
  return { account: accountView(saved) };
}
