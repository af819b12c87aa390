import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, type Database } from '~db/client';
import { guidePayoutAccounts } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { pgErrorCode } from '~/services/platform/errors.server';
import { commissionOf } from '~/services/payments/commission.server';
import {
  accountBalances,
  LedgerError,
  markPayoutPaid,
  orderMoney,
  recordAuthorisation,
  recordCapture,
  recordRefund,
  recordSettlement,
  recordVoid,
  startPayout,
  writeEntry,
  type AccountBalance,
} from '~/services/payments/ledger.server';
import { createGuide, createOrder, createTraveler } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The ledger (issue 32, docs/decisions/038) against the real database: properties over random sequences of every
 * money movement, the database's own zero-sum and append-only checks, and (on PostgreSQL, where the transactions
 * below run on separate pool connections at once) concurrency: no deadlock, no overdraft, one entry per key.
 */
useTestDatabase();

let orderDay = 0;
async function newOrder(travelerId: number, guideId: number, totalPrice: number) {
  // Cancelled orders hold no slot, so any number of them may share a guide and a day.
  return createOrder({ travelerId, guideId, totalPrice, status: 'cancelled', date: addDays(todayInTaipei(), 3 + (orderDay++ % 300)) });
}

const inTx = <T>(fn: (tx: Database) => Promise<T>) => getDb().transaction((tx) => fn(tx as unknown as Database));

function balanceKey(b: Pick<AccountBalance, 'kind' | 'ownerId'>) {
  return `${b.kind}:${b.ownerId ?? ''}`;
}
async function balanceMap(): Promise<Map<string, number>> {
  return new Map((await accountBalances(getDb())).map((b) => [balanceKey(b), b.balance]));
}

async function unbalancedEntries(): Promise<number> {
  const result = (await getDb().execute(
    sql`select count(*)::int as n from (select e.id from ledger_entries e left join ledger_postings p on p.entry_id = e.id
        group by e.id having coalesce(sum(p.amount), 0) <> 0 or count(p.id) < 2) bad`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0]!.n;
}

/** What the model expects of one order's money. */
interface OrderModel {
  id: number;
  guideId: number;
  amount: number;
  percent: number;
  attempt: number;
  open: number;
  captured: number;
  refunded: number;
  held: number;
  settled: boolean;
  settledTotal: number;
  settledCommission: number;
  net: number;
  commission: number;
  refundRequests: number;
}

type Command =
  | { op: 'authorise' | 'capture' | 'void' | 'settle'; order: number }
  | { op: 'refund'; order: number; share: number }
  | { op: 'payout' | 'paid'; guide: number };

const commandArb = (orders: number, guides: number): fc.Arbitrary<Command> =>
  fc.oneof(
    fc.record({ op: fc.constantFrom('authorise' as const, 'capture' as const, 'void' as const, 'settle' as const), order: fc.nat(orders - 1) }),
    fc.record({ op: fc.constant('refund' as const), order: fc.nat(orders - 1), share: fc.integer({ min: 1, max: 120 }) }),
    fc.record({ op: fc.constantFrom('payout' as const, 'paid' as const), guide: fc.nat(guides - 1) }),
  );

describe(`ledger (${testDriver})`, () => {
  let travelerId: number;
  let guideIds: number[];
  beforeAll(async () => {
    travelerId = (await createTraveler()).id;
    guideIds = [(await createGuide()).id, (await createGuide()).id, (await createGuide()).id];
    for (const [i, guideId] of guideIds.entries()) {
      await getDb().insert(guidePayoutAccounts).values({ guideId, bankCode: '812', accountNumber: `0000${i}1234567` });
    }
  });

  it('any sequence of authorise, capture, void, refund, settle and payout keeps every entry at zero, payables ≥ 0 and the balances equal to the orders’ money', async () => {
    const runs = testDriver === 'pg' ? 12 : 20;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ amount: fc.integer({ min: 1, max: 50_000 }), percent: fc.integer({ min: 0, max: 30 }), guide: fc.nat(2) }), { minLength: 1, maxLength: 4 }),
        fc.array(commandArb(4, 3), { minLength: 1, maxLength: 30 }),
        async (orderSpecs, commands) => {
          const before = await balanceMap();
          const models: OrderModel[] = [];
          for (const spec of orderSpecs) {
            const guideId = guideIds[spec.guide]!;
            const order = await newOrder(travelerId, guideId, spec.amount);
            models.push({
              id: order.id, guideId, amount: spec.amount, percent: spec.percent, attempt: 0, open: 0, captured: 0, refunded: 0, held: 0,
              settled: false, settledTotal: 0, settledCommission: 0, net: 0, commission: 0, refundRequests: 0,
            });
          }
          const payable = new Map(guideIds.map((g) => [g, 0]));
          const paidOut = new Map(guideIds.map((g) => [g, 0]));
          const inTransit: { payoutId: number; guideId: number; amount: number }[] = [];

          const expectRefusal = async (promise: Promise<unknown>, code: LedgerError['code']) => {
            const error = await promise.then(() => undefined, (e: unknown) => e);
            expect(error).toBeInstanceOf(LedgerError);
            expect((error as LedgerError).code).toBe(code);
          };

          for (const command of commands) {
            if (command.op === 'payout' || command.op === 'paid') {
              const guideId = guideIds[command.guide]!;
              if (command.op === 'payout') {
                const payout = await inTx((tx) => startPayout(tx, { guideId, settledBefore: new Date(Date.now() + 86_400_000) }));
                const expected = payable.get(guideId)!;
                if (expected > 0) {
                  expect(payout?.amount).toBe(expected);
                  inTransit.push({ payoutId: payout!.payoutId, guideId, amount: expected });
                  payable.set(guideId, 0);
                } else {
                  expect(payout).toBeNull();
                }
              } else {
                const index = inTransit.findIndex((p) => p.guideId === guideId);
                if (index >= 0) {
                  const [p] = inTransit.splice(index, 1);
                  expect(await inTx((tx) => markPayoutPaid(tx, { payoutId: p!.payoutId, paidAt: new Date() }))).toBe(true);
                  // Marking it paid again changes nothing.
                  expect(await inTx((tx) => markPayoutPaid(tx, { payoutId: p!.payoutId, paidAt: new Date() }))).toBe(false);
                  paidOut.set(guideId, paidOut.get(guideId)! + p!.amount);
                }
              }
              continue;
            }
            const m = models[(command as { order: number }).order % models.length]!;
            switch (command.op) {
              case 'authorise': {
                const attempt = ++m.attempt;
                const write = inTx((tx) => recordAuthorisation(tx, { orderId: m.id, amount: m.amount, idempotencyKey: `order:${m.id}:authorise:${attempt}` }));
                if (m.open > 0 || m.captured > 0) await expectRefusal(write, 'NOTHING_TO_MOVE');
                else {
                  expect((await write)?.created).toBe(true);
                  m.open = m.amount;
                  m.held += m.amount;
                }
                break;
              }
              case 'capture': {
                const result = await inTx((tx) => recordCapture(tx, { orderId: m.id, idempotencyKey: `order:${m.id}:capture:${m.attempt}` }));
                if (m.open > 0) {
                  // The same attempt's capture may have been written before (then the key answers the first entry).
                  m.captured += m.open;
                  m.open = 0;
                  expect(result).not.toBeNull();
                }
                break;
              }
              case 'void': {
                const result = await inTx((tx) => recordVoid(tx, { orderId: m.id, idempotencyKey: `order:${m.id}:void:${m.attempt}` }));
                if (m.open > 0) {
                  expect(result).not.toBeNull();
                  m.held -= m.open;
                  m.open = 0;
                }
                break;
              }
              case 'settle': {
                const write = inTx((tx) => recordSettlement(tx, { orderId: m.id, guideId: m.guideId, commissionPercent: m.percent, idempotencyKey: `order:${m.id}:settle` }));
                if (m.open > 0 && !m.settled) await expectRefusal(write, 'NOTHING_TO_MOVE');
                else {
                  const result = await write;
                  if (!m.settled && m.held > 0) {
                    expect(result?.created).toBe(true);
                    const commission = commissionOf(m.held, m.percent);
                    m.settled = true;
                    m.settledTotal = m.held;
                    m.settledCommission = commission;
                    m.net = m.held - commission;
                    m.commission = commission;
                    payable.set(m.guideId, payable.get(m.guideId)! + m.net);
                    m.held = 0;
                  } else if (!m.settled) expect(result).toBeNull();
                  else expect(result?.created ?? false).toBe(false);
                }
                break;
              }
              case 'refund': {
                const amount = Math.max(1, Math.floor((m.amount * command.share) / 100));
                const key = `refund:${m.id}:${++m.refundRequests}`;
                const write = inTx((tx) => recordRefund(tx, { orderId: m.id, guideId: m.guideId, amount, idempotencyKey: key }));
                const left = m.captured - m.refunded;
                if (amount > left) {
                  await expectRefusal(write, 'BALANCE_LIMIT');
                  break;
                }
                if (!m.settled) {
                  expect((await write)?.created).toBe(true);
                  m.held -= amount;
                  m.refunded += amount;
                  break;
                }
                const refundedBefore = m.settledTotal - (m.net + m.commission);
                const upTo = (r: number) => Math.floor((m.settledCommission * r) / m.settledTotal);
                const fromCommission = upTo(refundedBefore + amount) - upTo(refundedBefore);
                const fromGuide = amount - fromCommission;
                if (fromGuide > payable.get(m.guideId)!) {
                  // Already paid out: the guide's payable may not go below zero.
                  await expectRefusal(write, 'BALANCE_LIMIT');
                  break;
                }
                expect((await write)?.created).toBe(true);
                // Repeating the same refund request writes nothing more.
                expect((await inTx((tx) => recordRefund(tx, { orderId: m.id, guideId: m.guideId, amount, idempotencyKey: key })))?.created).toBe(false);
                m.refunded += amount;
                m.net -= fromGuide;
                m.commission -= fromCommission;
                payable.set(m.guideId, payable.get(m.guideId)! - fromGuide);
                break;
              }
            }
          }

          // Each order's money as the ledger reads it is the model's.
          for (const m of models) {
            const money = await orderMoney(getDb(), m.id);
            expect(money).toMatchObject({ authorisedOpen: m.open, captured: m.captured, refunded: m.refunded, held: m.held, guideNet: m.net, commission: m.commission });
          }
          // The accounts moved by exactly what the orders and payouts say.
          const after = await balanceMap();
          const delta = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
          const sum = (f: (m: OrderModel) => number) => models.reduce((s, m) => s + f(m), 0);
          expect(delta('provider_authorised:')).toBe(0 - sum((m) => m.open));
          expect(delta('provider_clearing:')).toBe(0 - sum((m) => m.captured));
          expect(delta('traveler_funds_held:')).toBe(sum((m) => m.held));
          expect(delta('refunds:')).toBe(sum((m) => m.refunded));
          expect(delta('platform_commission:')).toBe(sum((m) => m.commission));
          expect(delta('payouts_in_transit:')).toBe(inTransit.reduce((s, p) => s + p.amount, 0));
          for (const g of guideIds) {
            expect(after.get(`guide_payable:${g}`) ?? 0).toBe(payable.get(g));
            expect(delta(`guide_paid_out:${g}`)).toBe(paidOut.get(g));
          }
          // Every entry balances, the whole ledger sums to zero, and no limited account is past zero.
          expect(await unbalancedEntries()).toBe(0);
          expect([...after.values()].reduce((a, b) => a + b, 0)).toBe(0);
          for (const b of await accountBalances(getDb())) {
            if (['guide_payable', 'traveler_funds_held', 'refunds', 'payouts_in_transit', 'guide_paid_out'].includes(b.kind)) expect(b.balance).toBeGreaterThanOrEqual(0);
            if (['provider_authorised', 'provider_clearing'].includes(b.kind)) expect(b.balance).toBeLessThanOrEqual(0);
          }

          // Leave nothing in transit or payable for the next run (its model starts from zero payables).
          for (const p of inTransit) await inTx((tx) => markPayoutPaid(tx, { payoutId: p.payoutId, paidAt: new Date() }));
          for (const g of guideIds) await inTx((tx) => startPayout(tx, { guideId: g, settledBefore: new Date(Date.now() + 86_400_000) }));
          const drained = await balanceMap();
          for (const g of guideIds) expect(drained.get(`guide_payable:${g}`) ?? 0).toBe(0);
        },
      ),
      { numRuns: runs },
    );
  });

  it('a payout waits for the hold after settlement, and a refund after the payout becomes a deduction from the next one', async () => {
    const guideId = guideIds[0]!;
    const order = await newOrder(travelerId, guideId, 3000);
    const other = await newOrder(travelerId, guideId, 1000);
    for (const o of [order, other]) {
      await inTx(async (tx) => {
        await recordAuthorisation(tx, { orderId: o.id, amount: o.totalPrice, idempotencyKey: `t2:${o.id}:a` });
        await recordCapture(tx, { orderId: o.id, idempotencyKey: `t2:${o.id}:c` });
        await recordSettlement(tx, { orderId: o.id, guideId, commissionPercent: 10, idempotencyKey: `t2:${o.id}:s` });
      });
    }
    // Settled just now: a cutoff three days back pays nothing yet.
    expect(await inTx((tx) => startPayout(tx, { guideId, settledBefore: new Date(Date.now() - 3 * 86_400_000) }))).toBeNull();
    const first = await inTx((tx) => startPayout(tx, { guideId, settledBefore: new Date(Date.now() + 1000) }));
    expect(first?.amount).toBe(2700 + 900);
    // The traveler of the first order is refunded NT$1,000 after the payout: the guide's payable has nothing left.
    await expect(inTx((tx) => recordRefund(tx, { orderId: order.id, guideId, amount: 1000, idempotencyKey: 't2:r1' }))).rejects.toMatchObject({ code: 'BALANCE_LIMIT' });
    // With a new order settled, the refund comes out of it, and the next payout carries the deduction.
    const third = await newOrder(travelerId, guideId, 2000);
    await inTx(async (tx) => {
      await recordAuthorisation(tx, { orderId: third.id, amount: 2000, idempotencyKey: `t2:${third.id}:a` });
      await recordCapture(tx, { orderId: third.id, idempotencyKey: `t2:${third.id}:c` });
      await recordSettlement(tx, { orderId: third.id, guideId, commissionPercent: 10, idempotencyKey: `t2:${third.id}:s` });
    });
    await inTx((tx) => recordRefund(tx, { orderId: order.id, guideId, amount: 1000, idempotencyKey: 't2:r2' }));
    const second = await inTx((tx) => startPayout(tx, { guideId, settledBefore: new Date(Date.now() + 1000) }));
    expect(second?.amount).toBe(1800 - 900);
    const items = (await getDb().execute(sql`select order_id, amount from payout_items where payout_id = ${second!.payoutId} order by order_id`)) as unknown as {
      rows: { order_id: number; amount: number }[];
    };
    expect(items.rows).toEqual([
      { order_id: order.id, amount: -900 },
      { order_id: third.id, amount: 1800 },
    ]);
  });

  it('the database refuses an entry whose postings do not sum to zero, and any change to a written entry', async () => {
    const write = getDb().transaction(async (tx) => {
      const [entry] = ((await tx.execute(sql`insert into ledger_entries (idempotency_key, kind) values ('raw:unbalanced', 'refund') returning id`)) as unknown as {
        rows: { id: number }[];
      }).rows;
      const accounts = ((await tx.execute(
        sql`insert into ledger_accounts (kind) values ('refunds'), ('platform_commission') on conflict on constraint ledger_accounts_kind_owner_unique do update set kind = excluded.kind returning id`,
      )) as unknown as { rows: { id: number }[] }).rows;
      await tx.execute(sql`insert into ledger_postings (entry_id, account_id, amount) values (${entry!.id}, ${accounts[0]!.id}, 5), (${entry!.id}, ${accounts[1]!.id}, -4)`);
    });
    expect(pgErrorCode(await write.then(() => undefined, (e: unknown) => e))).toBe('23514');
    // An entry with no postings at all is refused too.
    const empty = getDb().execute(sql`insert into ledger_entries (idempotency_key, kind) values ('raw:empty', 'refund')`);
    expect(pgErrorCode(await empty.then(() => undefined, (e: unknown) => e))).toBe('23514');

    const order = await newOrder(travelerId, guideIds[1]!, 500);
    await inTx((tx) => recordAuthorisation(tx, { orderId: order.id, amount: 500, idempotencyKey: `raw:${order.id}:a` }));
    const edit = getDb().execute(sql`update ledger_postings set amount = amount * 2 where entry_id = (select id from ledger_entries where idempotency_key = ${`raw:${order.id}:a`})`);
    expect(pgErrorCode(await edit.then(() => undefined, (e: unknown) => e))).toBe('55000');
    const remove = getDb().execute(sql`delete from ledger_entries where idempotency_key = ${`raw:${order.id}:a`}`);
    expect(pgErrorCode(await remove.then(() => undefined, (e: unknown) => e))).toBe('55000');
  });

  it('refuses postings that do not balance before they reach the database, and a key reused for another movement', async () => {
    await expect(
      inTx((tx) => writeEntry(tx, { idempotencyKey: 'x:1', kind: 'refund', accounts: [{ kind: 'refunds' }, { kind: 'platform_commission' }], postings: [{ account: { kind: 'refunds' }, amount: 3 }, { account: { kind: 'platform_commission' }, amount: -2 }] })),
    ).rejects.toMatchObject({ code: 'UNBALANCED' });
    const order = await newOrder(travelerId, guideIds[1]!, 800);
    await inTx((tx) => recordAuthorisation(tx, { orderId: order.id, amount: 800, idempotencyKey: `k:${order.id}` }));
    await expect(inTx((tx) => recordVoid(tx, { orderId: order.id, idempotencyKey: `k:${order.id}` }))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
  });
});

describe(`ledger under concurrency (${testDriver})`, () => {
  let guideIds: number[];
  let travelerId: number;
  beforeAll(async () => {
    travelerId = (await createTraveler()).id;
    guideIds = [];
    for (let i = 0; i < 4; i++) guideIds.push((await createGuide()).id);
  });

  const transfer = (from: number, to: number, amount: number, key: string) =>
    inTx((tx) =>
      writeEntry(tx, {
        idempotencyKey: key,
        kind: 'refund',
        // Listed from → to: two opposite transfers name the same accounts in opposite orders.
        accounts: [{ kind: 'guide_payable', ownerId: from }, { kind: 'guide_payable', ownerId: to }],
        postings: [
          { account: { kind: 'guide_payable', ownerId: from }, amount: -amount },
          { account: { kind: 'guide_payable', ownerId: to }, amount },
        ],
      }),
    );

  // Funds a guide's payable from the commission account (unlimited), once per guide.
  const fund = (g: number) =>
    inTx((tx) =>
      writeEntry(tx, {
        idempotencyKey: `fund:${g}`,
        kind: 'settle',
        accounts: [{ kind: 'platform_commission' }, { kind: 'guide_payable', ownerId: g }],
        postings: [
          { account: { kind: 'platform_commission' }, amount: -1_000_000 },
          { account: { kind: 'guide_payable', ownerId: g }, amount: 1_000_000 },
        ],
      }),
    );

  it('many entries at once on the same accounts, in opposite orders, never deadlock and keep the sums', async () => {
    for (const g of guideIds) await fund(g);
    const rounds = testDriver === 'pg' ? 15 : 2;
    for (let round = 0; round < rounds; round++) {
      const results = await Promise.allSettled(
        Array.from({ length: 24 }, (_, i) => {
          const from = guideIds[i % guideIds.length]!;
          const to = guideIds[(i + 1 + (round % 3)) % guideIds.length]!;
          return i % 2 ? transfer(from, to, 1 + i, `mix:${round}:${i}`) : transfer(to, from, 1 + i, `mix:${round}:${i}`);
        }),
      );
      const failures = results.filter((r) => r.status === 'rejected').map((r) => pgErrorCode((r as PromiseRejectedResult).reason) ?? String((r as PromiseRejectedResult).reason));
      expect(failures).toEqual([]);
    }
    const balances = await balanceMap();
    expect(guideIds.reduce((s, g) => s + balances.get(`guide_payable:${g}`)!, 0)).toBe(4_000_000);
    expect(await unbalancedEntries()).toBe(0);
  });

  it('withdrawals at once never take a payable below zero (checked under the lock)', async () => {
    const rounds = testDriver === 'pg' ? 10 : 2;
    for (let round = 0; round < rounds; round++) {
      const [rich, poor] = [guideIds[0]!, (await createGuide()).id];
      await fund(rich);
      await transfer(rich, poor, 1000, `seed:${round}`);
      // Twenty withdrawals of 100 from NT$1,000: exactly ten can happen.
      const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => transfer(poor, rich, 100, `drain:${round}:${i}`)));
      const ok = results.filter((r) => r.status === 'fulfilled').length;
      const refused = results.filter((r) => r.status === 'rejected' && (r.reason as LedgerError).code === 'BALANCE_LIMIT').length;
      expect([ok, refused]).toEqual([10, 10]);
      expect((await balanceMap()).get(`guide_payable:${poor}`)).toBe(0);
    }
  });

  it('the same idempotency key twice at once writes one entry', async () => {
    const rounds = testDriver === 'pg' ? 15 : 2;
    for (let round = 0; round < rounds; round++) {
      const order = await newOrder(travelerId, guideIds[1]!, 1200);
      const key = `order:${order.id}:authorise`;
      const results = await Promise.all(
        Array.from({ length: 4 }, () => inTx((tx) => recordAuthorisation(tx, { orderId: order.id, amount: 1200, idempotencyKey: key }))),
      );
      expect(new Set(results.map((r) => r!.entryId)).size).toBe(1);
      expect(results.filter((r) => r!.created)).toHaveLength(1);
      const count = (await getDb().execute(sql`select count(*)::int as n from ledger_entries where idempotency_key = ${key}`)) as unknown as { rows: { n: number }[] };
      expect(count.rows[0]!.n).toBe(1);
      expect((await orderMoney(getDb(), order.id)).held).toBe(1200);
    }
  });
});
