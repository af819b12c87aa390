import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '~db/client';
import {
  GUIDE_LEDGER_ACCOUNT_KINDS,
  type LedgerAccountKind,
  type LedgerEntryKind,
} from '~/lib/payments';
import { commissionOf, refundSplitAfterSettlement } from './commission.server';

/**
 * The double-entry ledger (issue 32, docs/decisions/038). Every money movement is one entry whose postings sum to
 * zero, written by `writeEntry` alone, in the caller's transaction:
 *   1. a repeated idempotency key returns the first entry and writes nothing;
 *   2. the entry's accounts are created on first use and locked in ascending id order (as pgledger does), so
 *      entries that share accounts queue instead of deadlocking;
 *   3. the postings are computed under those locks (the order's money as committed so far), and no account may
 *      leave its side of zero: a guide's payable never goes below zero;
 *   4. the entry and its postings are inserted; a deferred trigger (migration 0024) checks the sum again at commit.
 * Balances are sums of postings. The movements below are the only ones the product makes.
 *
 * A caller that writes several entries in one transaction should hold the order's row lock (or the payout's)
 * first, as the order transitions do, so two such transactions never take their account locks in opposite orders.
 */

type GuideKind = (typeof GUIDE_LEDGER_ACCOUNT_KINDS)[number];
type PlatformKind = Exclude<LedgerAccountKind, GuideKind>;
export type AccountRef = { kind: PlatformKind } | { kind: GuideKind; ownerId: number };
export interface Posting {
  account: AccountRef;
  amount: number;
}

export type LedgerErrorCode =
  | 'UNBALANCED'
  | 'INVALID_AMOUNT'
  | 'BALANCE_LIMIT'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'NOTHING_TO_MOVE';

/** A movement the ledger refuses; the caller's transaction should roll back (the wiring maps these to 409s). */
export class LedgerError extends Error {
  constructor(
    readonly code: LedgerErrorCode,
    detail: string,
  ) {
    super(`${code}: ${detail}`);
    this.name = 'LedgerError';
  }
}

/** Which side of zero each account stays on (the outside world's accounts run negative; docs/decisions/038). */
const NEVER_NEGATIVE: ReadonlySet<LedgerAccountKind> = new Set([
  'traveler_funds_held',
  'guide_payable',
  'refunds',
  'payouts_in_transit',
  'guide_paid_out',
]);
const NEVER_POSITIVE: ReadonlySet<LedgerAccountKind> = new Set(['provider_authorised', 'provider_clearing']);

const isGuideKind = (kind: LedgerAccountKind): kind is GuideKind => (GUIDE_LEDGER_ACCOUNT_KINDS as readonly string[]).includes(kind);
const ownerOf = (ref: AccountRef): number | null => ('ownerId' in ref ? ref.ownerId : null);
const refKey = (ref: AccountRef) => `${ref.kind}:${ownerOf(ref) ?? ''}`;

async function rows<T>(db: Database, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

export interface EntryResult {
  entryId: number;
  /** false: the key was used before and this is that first entry (nothing was written now). */
  created: boolean;
}

export interface EntrySpec {
  idempotencyKey: string;
  kind: LedgerEntryKind;
  orderId?: number | null;
  payoutId?: number | null;
  /** Every account a posting may touch: they are locked before `postings` runs. */
  accounts: AccountRef[];
  /**
   * The postings, computed under the accounts' locks (so from the money as it stands). An empty list means there is
   * nothing to move: no entry is written and `writeEntry` answers null.
   */
  postings: Posting[] | ((db: Database) => Promise<Posting[]>);
}

/** Sums the postings per account and checks them: whole, non-zero amounts over two accounts or more, summing to 0. */
export function balancedPostings(postings: Posting[]): Posting[] {
  const merged = new Map<string, Posting>();
  for (const p of postings) {
    if (!Number.isSafeInteger(p.amount)) throw new LedgerError('INVALID_AMOUNT', `amount ${p.amount} is not a whole NT$ amount`);
    if (isGuideKind(p.account.kind) !== ('ownerId' in p.account)) throw new LedgerError('INVALID_AMOUNT', `account ${p.account.kind} has the wrong owner`);
    const key = refKey(p.account);
    const prev = merged.get(key);
    merged.set(key, { account: p.account, amount: (prev?.amount ?? 0) + p.amount });
  }
  const result = [...merged.values()].filter((p) => p.amount !== 0);
  const total = result.reduce((s, p) => s + p.amount, 0);
  if (total !== 0) throw new LedgerError('UNBALANCED', `postings sum to ${total}`);
  if (result.length === 1) throw new LedgerError('UNBALANCED', 'an entry needs two accounts');
  return result;
}

async function existingEntry(db: Database, spec: EntrySpec): Promise<EntryResult | null> {
  const [row] = await rows<{ id: number; kind: string; order_id: number | null }>(
    db,
    sql`select id, kind, order_id from ledger_entries where idempotency_key = ${spec.idempotencyKey}`,
  );
  if (!row) return null;
  if (row.kind !== spec.kind || (row.order_id ?? null) !== (spec.orderId ?? null)) {
    throw new LedgerError('IDEMPOTENCY_KEY_REUSED', `key ${spec.idempotencyKey} belongs to another movement`);
  }
  return { entryId: row.id, created: false };
}

/** The ids of these accounts (created on first use), keyed by refKey. */
async function accountIds(db: Database, refs: AccountRef[]): Promise<Map<string, number>> {
  const unique = [...new Map(refs.map((r) => [refKey(r), r])).values()];
  const values = sql.join(
    unique.map((r) => sql`(${r.kind}, ${ownerOf(r)}::integer)`),
    sql`, `,
  );
  const select = () =>
    rows<{ id: number; kind: LedgerAccountKind; owner_id: number | null }>(
      db,
      sql`select a.id, a.kind, a.owner_id from ledger_accounts a join (values ${values}) as want(kind, owner_id)
          on a.kind = want.kind and a.owner_id is not distinct from want.owner_id`,
    );
  let found = await select();
  // Accounts are made once: only a first use inserts (an insert that conflicts would still spend an identity value).
  if (found.length < unique.length) {
    await db.execute(sql`insert into ledger_accounts (kind, owner_id) values ${values} on conflict on constraint ledger_accounts_kind_owner_unique do nothing`);
    found = await select();
  }
  return new Map(found.map((a) => [`${a.kind}:${a.owner_id ?? ''}`, a.id]));
}

/**
 * Writes one entry in the caller's transaction (see the module's comment). Answers null when the postings say
 * there is nothing to move. Throws LedgerError when the postings do not balance or would take an account past
 * zero, and when the key was used for another kind of movement or another order.
 */
export async function writeEntry(tx: Database, spec: EntrySpec): Promise<EntryResult | null> {
  const first = await existingEntry(tx, spec);
  if (first) return first;

  const ids = await accountIds(tx, spec.accounts);
  const sorted = [...new Set(ids.values())].sort((a, b) => a - b);
  // The locks, in one fixed order for everyone: ascending account id.
  await tx.execute(sql`select id from ledger_accounts where id in (${sql.join(sorted.map((id) => sql`${id}`), sql`, `)}) order by id for update`);

  // A concurrent call with the same key may have committed while this one waited for the locks.
  const raced = await existingEntry(tx, spec);
  if (raced) return raced;

  const postings = balancedPostings(typeof spec.postings === 'function' ? await spec.postings(tx) : spec.postings);
  if (postings.length === 0) return null;
  const resolved = postings.map((p) => {
    const accountId = ids.get(refKey(p.account));
    if (accountId === undefined) throw new LedgerError('INVALID_AMOUNT', `account ${refKey(p.account)} was not locked for this entry`);
    return { ...p, accountId };
  });

  // Limits, checked under the locks: the balance after this entry stays on its account's side of zero.
  const limited = resolved.filter(
    (p) => (p.amount < 0 && NEVER_NEGATIVE.has(p.account.kind)) || (p.amount > 0 && NEVER_POSITIVE.has(p.account.kind)),
  );
  if (limited.length) {
    const balances = await rows<{ account_id: number; balance: string }>(
      tx,
      sql`select account_id, coalesce(sum(amount), 0)::bigint as balance from ledger_postings
          where account_id in (${sql.join(limited.map((p) => sql`${p.accountId}`), sql`, `)}) group by account_id`,
    );
    const balanceOf = new Map(balances.map((b) => [b.account_id, Number(b.balance)]));
    for (const p of limited) {
      const after = (balanceOf.get(p.accountId) ?? 0) + p.amount;
      if (NEVER_NEGATIVE.has(p.account.kind) ? after < 0 : after > 0) {
        throw new LedgerError('BALANCE_LIMIT', `${refKey(p.account)} would be ${after}`);
      }
    }
  }

  const [entry] = await rows<{ id: number }>(
    tx,
    sql`insert into ledger_entries (idempotency_key, order_id, payout_id, kind)
        values (${spec.idempotencyKey}, ${spec.orderId ?? null}, ${spec.payoutId ?? null}, ${spec.kind})
        on conflict (idempotency_key) do nothing returning id`,
  );
  if (!entry) {
    const again = await existingEntry(tx, spec);
    if (again) return again;
    throw new LedgerError('IDEMPOTENCY_KEY_REUSED', `key ${spec.idempotencyKey} is being written by another transaction`);
  }
  await tx.execute(
    sql`insert into ledger_postings (entry_id, account_id, amount) values ${sql.join(
      resolved.map((p) => sql`(${entry.id}, ${p.accountId}, ${p.amount})`),
      sql`, `,
    )}`,
  );
  return { entryId: entry.id, created: true };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading: balances are sums of postings.

export interface AccountBalance {
  kind: LedgerAccountKind;
  ownerId: number | null;
  balance: number;
}

/** Every account's balance (the admin's finance overview; the property tests). */
export async function accountBalances(db: Database): Promise<AccountBalance[]> {
  const found = await rows<{ kind: LedgerAccountKind; owner_id: number | null; balance: string }>(
    db,
    sql`select a.kind, a.owner_id, coalesce(sum(p.amount), 0)::bigint as balance
        from ledger_accounts a left join ledger_postings p on p.account_id = a.id
        group by a.id order by a.kind, a.owner_id nulls first`,
  );
  return found.map((r) => ({ kind: r.kind, ownerId: r.owner_id, balance: Number(r.balance) }));
}

/** One account's balance (0 for an account never used). */
export async function accountBalance(db: Database, ref: AccountRef): Promise<number> {
  const [row] = await rows<{ balance: string }>(
    db,
    sql`select coalesce(sum(p.amount), 0)::bigint as balance from ledger_postings p
        join ledger_accounts a on a.id = p.account_id
        where a.kind = ${ref.kind} and a.owner_id is not distinct from ${ownerOf(ref)}::integer`,
  );
  return Number(row?.balance ?? 0);
}

/**
 * What a guide has earned: the net their orders' settlements credited to their payable account, less refunds taken
 * back from it after settling (the order entries' postings; payouts only move it on and are not counted).
 */
export async function guideEarned(db: Database, guideId: number): Promise<number> {
  const [row] = await rows<{ earned: string }>(
    db,
    sql`select coalesce(sum(p.amount), 0)::bigint as earned from ledger_postings p
        join ledger_accounts a on a.id = p.account_id
        join ledger_entries e on e.id = p.entry_id
        where a.kind = 'guide_payable' and a.owner_id = ${guideId}::integer and e.order_id is not null`,
  );
  return Number(row?.earned ?? 0);
}

/** What the ledger says about one order's money, from the postings of the order's entries. */
export interface OrderMoney {
  /** Authorised at the provider and neither captured nor voided. */
  authorisedOpen: number;
  captured: number;
  refunded: number;
  /** Travelers' money of this order still held (authorised or captured, not settled nor refunded). */
  held: number;
  /** Settled: what went to the guide's payable and to the platform's commission, net of refunds after settling. */
  guideNet: number;
  commission: number;
  /** The guide whose payable the settlement credited (null before settlement). */
  guideId: number | null;
  /** The amounts the settlement itself posted (0 before settlement). */
  settledNet: number;
  settledCommission: number;
}

export async function orderMoney(db: Database, orderId: number): Promise<OrderMoney> {
  const found = await rows<{ entry_kind: LedgerEntryKind; kind: LedgerAccountKind; owner_id: number | null; amount: string }>(
    db,
    sql`select e.kind as entry_kind, a.kind, a.owner_id, sum(p.amount)::bigint as amount
        from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
        where e.order_id = ${orderId} group by e.kind, a.kind, a.owner_id`,
  );
  const money: OrderMoney = { authorisedOpen: 0, captured: 0, refunded: 0, held: 0, guideNet: 0, commission: 0, guideId: null, settledNet: 0, settledCommission: 0 };
  for (const r of found) {
    const amount = Number(r.amount);
    if (r.kind === 'provider_authorised') money.authorisedOpen -= amount;
    else if (r.kind === 'provider_clearing') money.captured -= amount;
    else if (r.kind === 'refunds') money.refunded += amount;
    else if (r.kind === 'traveler_funds_held') money.held += amount;
    else if (r.kind === 'guide_payable') {
      money.guideNet += amount;
      if (r.entry_kind === 'settle') {
        money.settledNet += amount;
        money.guideId = r.owner_id;
      }
    } else if (r.kind === 'platform_commission') {
      money.commission += amount;
      if (r.entry_kind === 'settle') money.settledCommission += amount;
    }
  }
  return money;
}

// ---------------------------------------------------------------------------------------------------------------
// The movements of issue 32. Every one names its idempotency key: the outbox's `order:{id}:{action}` with the
// payment's id where an order may have several attempts (`payment:{id}:authorise`), the refund request's for a refund.

const HELD: AccountRef = { kind: 'traveler_funds_held' };
const AUTHORISED: AccountRef = { kind: 'provider_authorised' };
const CLEARING: AccountRef = { kind: 'provider_clearing' };
const COMMISSION: AccountRef = { kind: 'platform_commission' };
const REFUNDS: AccountRef = { kind: 'refunds' };
const IN_TRANSIT: AccountRef = { kind: 'payouts_in_transit' };
const payable = (guideId: number): AccountRef => ({ kind: 'guide_payable', ownerId: guideId });
const paidOut = (guideId: number): AccountRef => ({ kind: 'guide_paid_out', ownerId: guideId });

function positiveAmount(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new LedgerError('INVALID_AMOUNT', `amount ${amount} must be a positive whole NT$ amount`);
  return amount;
}

/**
 * The provider authorised the traveler's card (TigerBeetle's pending transfer): the money is held for the order,
 * not yet ours. At most one authorisation per order.
 */
export function recordAuthorisation(tx: Database, input: { orderId: number; amount: number; idempotencyKey: string }) {
  const amount = positiveAmount(input.amount);
  return writeEntry(tx, {
    idempotencyKey: input.idempotencyKey,
    kind: 'authorise',
    orderId: input.orderId,
    accounts: [AUTHORISED, HELD],
    postings: async (db) => {
      const money = await orderMoney(db, input.orderId);
      if (money.authorisedOpen > 0 || money.captured > 0) throw new LedgerError('NOTHING_TO_MOVE', `order ${input.orderId} is already paid`);
      return [
        { account: AUTHORISED, amount: -amount },
        { account: HELD, amount },
      ];
    },
  });
}

/** The provider captured the open authorisation (the pending transfer posted): the money is now at the provider for us. */
export function recordCapture(tx: Database, input: { orderId: number; idempotencyKey: string }) {
  return writeEntry(tx, {
    idempotencyKey: input.idempotencyKey,
    kind: 'capture',
    orderId: input.orderId,
    accounts: [AUTHORISED, CLEARING],
    postings: async (db) => {
      const open = (await orderMoney(db, input.orderId)).authorisedOpen;
      return open > 0
        ? [
            { account: AUTHORISED, amount: open },
            { account: CLEARING, amount: -open },
          ]
        : [];
    },
  });
}

/** The open authorisation was given up (declined, expired, cancelled before capture): the hold is released. */
export function recordVoid(tx: Database, input: { orderId: number; idempotencyKey: string }) {
  return writeEntry(tx, {
    idempotencyKey: input.idempotencyKey,
    kind: 'void',
    orderId: input.orderId,
    accounts: [AUTHORISED, HELD],
    postings: async (db) => {
      const open = (await orderMoney(db, input.orderId)).authorisedOpen;
      return open > 0
        ? [
            { account: AUTHORISED, amount: open },
            { account: HELD, amount: -open },
          ]
        : [];
    },
  });
}

/**
 * Money goes back to the traveler (a cancel by the booking terms, an admin's refund). Before the order is settled
 * it comes out of the travelers' funds held; after, out of the guide's payable and the platform's commission in
 * the settlement's proportion (docs/decisions/038), so refunding all of a settled order reverses both exactly.
 * A refund larger than what is left of the order's captured money, or one that would take the guide's payable below
 * zero (already paid out), is refused. `idempotencyKey` names the refund request (one per provider refund).
 */
export function recordRefund(tx: Database, input: { orderId: number; guideId: number; amount: number; idempotencyKey: string }) {
  const amount = positiveAmount(input.amount);
  return writeEntry(tx, {
    idempotencyKey: input.idempotencyKey,
    kind: 'refund',
    orderId: input.orderId,
    accounts: [HELD, payable(input.guideId), COMMISSION, REFUNDS],
    postings: (db) => refundPostings(db, { ...input, amount }),
  });
}

/** A refund's postings from the order's money as it stands (recordRefund's, computed under its locks). */
async function refundPostings(db: Database, input: { orderId: number; guideId: number; amount: number }): Promise<Posting[]> {
  const { amount } = input;
  const money = await orderMoney(db, input.orderId);
  if (amount > money.captured - money.refunded) {
    throw new LedgerError('BALANCE_LIMIT', `order ${input.orderId} has ${money.captured - money.refunded} left to refund, not ${amount}`);
  }
  const settled = money.settledNet + money.settledCommission;
  if (settled === 0) {
    return [
      { account: HELD, amount: -amount },
      { account: REFUNDS, amount },
    ];
  }
  if (money.guideId !== input.guideId) throw new LedgerError('INVALID_AMOUNT', `order ${input.orderId} was settled to guide ${money.guideId}`);
  const refundedSinceSettled = settled - (money.guideNet + money.commission);
  const split = refundSplitAfterSettlement({ settled, settledCommission: money.settledCommission, refundedBefore: refundedSinceSettled, amount });
  return [
    { account: payable(input.guideId), amount: -split.fromGuide },
    { account: COMMISSION, amount: -split.fromCommission },
    { account: REFUNDS, amount },
  ];
}

/**
 * Whether the ledger would take this refund now, read without locks: the payment lane asks before the provider gives
 * any money back, so that a refund the ledger must refuse (the guide's share of an order already paid out, while the
 * guide's payable is short of it) waits instead of leaving the provider's books and ours apart. The write itself
 * checks again under its locks.
 */
export async function refundFits(db: Database, input: { orderId: number; guideId: number; amount: number }): Promise<boolean> {
  const postings = await refundPostings(db, { ...input, amount: positiveAmount(input.amount) });
  for (const p of postings) {
    if (p.amount < 0 && NEVER_NEGATIVE.has(p.account.kind) && (await accountBalance(db, p.account)) + p.amount < 0) return false;
  }
  return true;
}

/**
 * The order's captured money still held is settled: the guide's net to the guide's payable and the platform's
 * commission (the order's percent) in one entry, as Formance splits a payment. Done at completion, and for what
 * a cancel after capture keeps (the part of the booking terms that is not refunded). Refused while an
 * authorisation is open (capture or void it first).
 */
export function recordSettlement(tx: Database, input: { orderId: number; guideId: number; commissionPercent: number; idempotencyKey: string }) {
  return writeEntry(tx, {
    idempotencyKey: input.idempotencyKey,
    kind: 'settle',
    orderId: input.orderId,
    accounts: [HELD, payable(input.guideId), COMMISSION],
    postings: async (db) => {
      const money = await orderMoney(db, input.orderId);
      if (money.authorisedOpen > 0) throw new LedgerError('NOTHING_TO_MOVE', `order ${input.orderId} has an authorisation not yet captured`);
      if (money.held <= 0) return [];
      const commission = commissionOf(money.held, input.commissionPercent);
      return [
        { account: HELD, amount: -money.held },
        { account: payable(input.guideId), amount: money.held - commission },
        { account: COMMISSION, amount: commission },
      ];
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Payouts: payable → payouts in transit (a payout is sent) → paid out (an admin marks it paid).

export interface PayoutLine {
  orderId: number;
  /** Positive: earnings paid now; negative: a deduction (money refunded from an order already paid out). */
  amount: number;
}

/**
 * What a payout of this guide would pay now, per order: each order's settled net (after refunds) not yet in a
 * payout, for orders settled at or before `settledBefore` (the hold after completion); deductions always count.
 */
export async function payableLines(db: Database, guideId: number, settledBefore: Date): Promise<PayoutLine[]> {
  const found = await rows<{ order_id: number; amount: string }>(
    db,
    sql`with earned as (
          select e.order_id, sum(p.amount)::bigint as amount,
                 min(e.created_at) filter (where e.kind = 'settle') as settled_at
          from ledger_entries e join ledger_postings p on p.entry_id = e.id join ledger_accounts a on a.id = p.account_id
          where a.kind = 'guide_payable' and a.owner_id = ${guideId} and e.order_id is not null
          group by e.order_id
        ), paid as (
          select i.order_id, sum(i.amount)::bigint as amount from payout_items i join payouts o on o.id = i.payout_id
          where o.guide_id = ${guideId} group by i.order_id
        )
        select earned.order_id, (earned.amount - coalesce(paid.amount, 0))::bigint as amount
        from earned left join paid on paid.order_id = earned.order_id
        where earned.amount - coalesce(paid.amount, 0) < 0
           or (earned.amount - coalesce(paid.amount, 0) > 0 and earned.settled_at <= ${settledBefore.toISOString()}::timestamptz)
        order by earned.order_id`,
  );
  return found.map((r) => ({ orderId: r.order_id, amount: Number(r.amount) }));
}

/**
 * Starts one payout of a guide's payable earnings (the weekly batch calls it per guide): locks the guide's payable
 * account first, so two instances running the batch at once make one payout; writes the payout with the bank
 * account copied onto it, its lines, and the entry payable → in transit. Null when there is nothing to pay or the
 * guide has no bank account yet.
 */
export async function startPayout(tx: Database, input: { guideId: number; settledBefore: Date }): Promise<{ payoutId: number; amount: number } | null> {
  const ids = await accountIds(tx, [payable(input.guideId)]);
  await tx.execute(sql`select id from ledger_accounts where id = ${ids.get(refKey(payable(input.guideId)))!} for update`);
  const [bank] = await rows<{ bank_code: string; account_number: string }>(
    tx,
    sql`select bank_code, account_number from guide_payout_accounts where guide_id = ${input.guideId}`,
  );
  if (!bank) return null;
  const lines = await payableLines(tx, input.guideId, input.settledBefore);
  const total = lines.reduce((s, l) => s + l.amount, 0);
  if (total <= 0) return null;
  const [payout] = await rows<{ id: number }>(
    tx,
    sql`insert into payouts (guide_id, amount, bank_code, account_number) values (${input.guideId}, ${total}, ${bank.bank_code}, ${bank.account_number}) returning id`,
  );
  await tx.execute(
    sql`insert into payout_items (payout_id, order_id, amount) values ${sql.join(
      lines.map((l) => sql`(${payout!.id}, ${l.orderId}, ${l.amount})`),
      sql`, `,
    )}`,
  );
  await writeEntry(tx, {
    idempotencyKey: `payout:${payout!.id}:start`,
    kind: 'payout',
    payoutId: payout!.id,
    accounts: [payable(input.guideId), IN_TRANSIT],
    postings: [
      { account: payable(input.guideId), amount: -total },
      { account: IN_TRANSIT, amount: total },
    ],
  });
  return { payoutId: payout!.id, amount: total };
}

/** The bank transfer of a payout arrived (an admin marks it paid): in transit → the guide's paid out. Idempotent. */
export async function markPayoutPaid(tx: Database, input: { payoutId: number; paidAt: Date }): Promise<boolean> {
  const [payout] = await rows<{ guide_id: number; amount: number; status: string }>(
    tx,
    sql`select guide_id, amount, status from payouts where id = ${input.payoutId} for update`,
  );
  if (!payout) throw new LedgerError('NOTHING_TO_MOVE', `no payout ${input.payoutId}`);
  if (payout.status === 'paid') return false;
  await writeEntry(tx, {
    idempotencyKey: `payout:${input.payoutId}:paid`,
    kind: 'payout_paid',
    payoutId: input.payoutId,
    accounts: [IN_TRANSIT, paidOut(payout.guide_id)],
    postings: [
      { account: IN_TRANSIT, amount: -payout.amount },
      { account: paidOut(payout.guide_id), amount: payout.amount },
    ],
  });
  await tx.execute(sql`update payouts set status = 'paid', paid_at = ${input.paidAt.toISOString()}::timestamptz where id = ${input.payoutId}`);
  return true;
}
