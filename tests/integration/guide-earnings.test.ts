import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb, type Database } from '~db/client';
import { auditLogs, guidePayoutAccounts, notifications, payouts } from '~db/schema';
import { getConfig } from '~/env.server';
import { addDays, todayInTaipei } from '~/lib/dates';
import { changePayoutAccount, guideEarnings, guidePayouts, myEarnings } from '~/services/payments/earnings.server';
import {
  accountBalance,
  markPayoutPaid,
  recordAuthorisation,
  recordCapture,
  recordRefund,
  recordSettlement,
  startPayout,
} from '~/services/payments/ledger.server';
import { savePayoutAccount } from '~/services/payments/payout-accounts.server';
import { runPayoutBatch } from '~/services/payments/payout-batch.server';
import { hashPassword } from '~/services/accounts/passwords.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { getEarnings } from '~/services/booking/user-stats.server';
import { createGuide, createOrder, createTraveler } from '~server/seed/factories';
import { testDriver, useTestDatabase } from './../support/test-database';

/**
 * The guide's side of the money (issue 32): the earnings per order and their states, the totals and the payouts, all
 * made through the real ledger functions on real orders; the bank account change behind the password; the weekly
 * payout batch (and, on PostgreSQL, two batches at once: one payout per guide).
 */
useTestDatabase();

const DAY = 86_400_000;
const inTx = <T,>(fn: (tx: Database) => Promise<T>) => getDb().transaction((tx) => fn(tx as unknown as Database));

let day = 0;
async function order(travelerId: number, guideId: number, totalPrice: number, commissionPercent = 10) {
  return createOrder({ travelerId, guideId, totalPrice, commissionPercent, status: 'cancelled', date: addDays(todayInTaipei(), 2 + day++) });
}
async function capture(o: { id: number; totalPrice: number }) {
  await inTx((tx) => recordAuthorisation(tx, { orderId: o.id, amount: o.totalPrice, idempotencyKey: `payment:${o.id}:authorise` }));
  await inTx((tx) => recordCapture(tx, { orderId: o.id, idempotencyKey: `payment:${o.id}:capture` }));
}
async function settle(o: { id: number; guideId: number; commissionPercent: number }) {
  await inTx((tx) => recordSettlement(tx, { orderId: o.id, guideId: o.guideId, commissionPercent: o.commissionPercent, idempotencyKey: `order:${o.id}:settle` }));
}
const refund = (o: { id: number; guideId: number }, amount: number, key: string) =>
  inTx((tx) => recordRefund(tx, { orderId: o.id, guideId: o.guideId, amount, idempotencyKey: key }));

describe(`guide earnings (${testDriver})`, () => {
  const hold = getConfig().PAYOUT_HOLD_DAYS;
  let guideId: number;
  let travelerName: string;
  const ids = { a: 0, b: 0, c: 0, d: 0, e: 0, f: 0, g: 0 };
  let paidAt: Date;

  beforeAll(async () => {
    const traveler = await createTraveler({ name: '旅客小林' });
    travelerName = traveler.name;
    const guide = await createGuide();
    guideId = guide.id;
    await savePayoutAccount(getDb(), { guideId, bankCode: '004', accountNumber: '1234-567-890', now: new Date() });

    // D: paid out. C: in a payout on its way. B: settled, refunded in part after that, payable after the hold.
    const d = await order(traveler.id, guideId, 2000);
    await capture(d);
    await settle(d);
    const p1 = await inTx((tx) => startPayout(tx, { guideId, settledBefore: new Date(Date.now() + 1000) }));
    paidAt = new Date();
    await inTx((tx) => markPayoutPaid(tx, { payoutId: p1!.payoutId, paidAt }));
    const c = await order(traveler.id, guideId, 1500, 20);
    await capture(c);
    await settle(c);
    await inTx((tx) => startPayout(tx, { guideId, settledBefore: new Date(Date.now() + 1000) }));
    const b = await order(traveler.id, guideId, 3001, 15);
    await capture(b);
    await settle(b);
    await refund(b, 1001, `refund:${b.id}:1`);
    // A: captured, tour not completed. E: captured, partly refunded before completion.
    const a = await order(traveler.id, guideId, 3000);
    await capture(a);
    const e = await order(traveler.id, guideId, 2000);
    await capture(e);
    await refund(e, 500, `refund:${e.id}:1`);
    // F: only authorised. G: captured and wholly refunded before the tour. Neither earns anything.
    const f = await order(traveler.id, guideId, 900);
    await inTx((tx) => recordAuthorisation(tx, { orderId: f.id, amount: 900, idempotencyKey: `payment:${f.id}:authorise` }));
    const g = await order(traveler.id, guideId, 800);
    await capture(g);
    await refund(g, 800, `refund:${g.id}:1`);
    Object.assign(ids, { a: a.id, b: b.id, c: c.id, d: d.id, e: e.id, f: f.id, g: g.id });
  });

  it('lists each order with money: price (captured − refunded), commission, net and where it stands', async () => {
    const now = new Date();
    const { lines, holdDays } = await guideEarnings(guideId, now);
    expect(holdDays).toBe(hold);
    const byId = new Map(lines.map((l) => [l.orderId, l]));
    expect([...byId.keys()].sort((x, y) => x - y)).toEqual([ids.a, ids.b, ids.c, ids.d, ids.e].sort((x, y) => x - y));
    expect(byId.get(ids.a)).toMatchObject({ price: 3000, commission: 300, net: 2700, state: 'held', payableAfter: null, payoutId: null, travelerName });
    expect(byId.get(ids.e)).toMatchObject({ price: 1500, commission: 150, net: 1350, state: 'held' });
    // B settled 3001 at 15%: commission 450, net 2551; refunding 1001 takes floor(450·1001/3001) = 150 from the commission.
    expect(byId.get(ids.b)).toMatchObject({ price: 2000, commission: 300, net: 1700, commissionPercent: 15, state: 'payable_after' });
    const after = new Date(byId.get(ids.b)!.payableAfter!);
    expect(after.getTime()).toBeGreaterThan(now.getTime() + (hold * DAY) - 60_000);
    expect(after.getTime()).toBeLessThanOrEqual(now.getTime() + hold * DAY);
    expect(byId.get(ids.c)).toMatchObject({ price: 1500, commission: 300, net: 1200, state: 'in_payout', paidAt: null });
    expect(byId.get(ids.c)!.payoutId).toEqual(expect.any(Number));
    expect(byId.get(ids.d)).toMatchObject({ price: 2000, commission: 200, net: 1800, state: 'paid' });
    expect(new Date(byId.get(ids.d)!.paidAt!).getTime()).toBe(paidAt.getTime());
    for (const l of lines) expect(l.commission + l.net).toBe(l.price);
  });

  it('adds up the totals from the ledger; after the hold the settled order is payable', async () => {
    const now = new Date();
    const before = await guideEarnings(guideId, now);
    expect(before.totals).toEqual({ held: 2700 + 1350, payable: 1700, payableNow: 0, inTransit: 1200, paidOut: 1800 });
    expect(before.totals.payable).toBe(await accountBalance(getDb(), { kind: 'guide_payable', ownerId: guideId }));
    const later = await guideEarnings(guideId, new Date(now.getTime() + (hold + 1) * DAY));
    expect(later.totals.payableNow).toBe(1700);
    expect(later.lines.find((l) => l.orderId === ids.b)).toMatchObject({ state: 'payable', payableAfter: null });
  });

  it('lists the payouts, newest first, with the account masked', async () => {
    const list = await guidePayouts(guideId);
    expect(list).toHaveLength(2);
    expect(list.map((p) => [p.amount, p.status, p.orderCount, p.bankCode, p.accountNumberMasked])).toEqual([
      [1200, 'in_transit', 1, '004', '••••••7890'],
      [1800, 'paid', 1, '004', '••••••7890'],
    ]);
    expect(list[1]!.paidAt).toBe(paidAt.toISOString());
    expect(JSON.stringify(await getEarnings(guideId))).not.toContain('1234567890');
  });

  it('answers guides only', async () => {
    const traveler = await createTraveler();
    await expect(myEarnings(traveler)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe(`payout account change (${testDriver})`, () => {
  it('needs the current password: a wrong one changes nothing; the right one saves, masked, and is audited', async () => {
    resetRateLimits();
    const guide = await createGuide({ passwordHash: await hashPassword('right-password') });
    await expect(changePayoutAccount(guide, { bankCode: '012', accountNumber: '99887766', password: 'wrong-password' })).rejects.toMatchObject({
      code: 'INVALID_CREDENTIALS',
      fieldErrors: { password: ['profile.payout.errors.wrongPassword'] },
    });
    expect(await getDb().select().from(guidePayoutAccounts).where(eq(guidePayoutAccounts.guideId, guide.id))).toEqual([]);

    const saved = await changePayoutAccount(guide, { bankCode: '012', accountNumber: '99887766', password: 'right-password' });
    expect(saved.account).toMatchObject({ bankCode: '012', accountNumberMasked: '••••7766' });
    const [audit] = await getDb().select().from(auditLogs).where(and(eq(auditLogs.actorId, guide.id), eq(auditLogs.action, 'payout_account.change')));
    expect(audit!.details).toEqual({ bankCode: '012', accountNumber: '••••7766' });

    await expect(changePayoutAccount(guide, { bankCode: '013', accountNumber: '11112222', password: 'nope' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    const [row] = await getDb().select().from(guidePayoutAccounts).where(eq(guidePayoutAccounts.guideId, guide.id));
    expect([row!.bankCode, row!.accountNumber]).toEqual(['012', '99887766']);
  });

  it('refuses travelers, and too many wrong passwords in a minute (429)', async () => {
    resetRateLimits();
    const traveler = await createTraveler({ passwordHash: await hashPassword('right-password') });
    await expect(changePayoutAccount(traveler, { bankCode: '012', accountNumber: '99887766', password: 'right-password' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const guide = await createGuide({ passwordHash: await hashPassword('right-password') });
    for (let i = 0; i < 5; i++) {
      await expect(changePayoutAccount(guide, { bankCode: '012', accountNumber: '99887766', password: `x${i}` })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    }
    await expect(changePayoutAccount(guide, { bankCode: '012', accountNumber: '99887766', password: 'right-password' })).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    resetRateLimits();
  });
});

/** A guide with one order settled now and paid out nothing yet; with a bank account unless `account` is false. */
async function guideOwed(travelerId: number, amount: number, account = true) {
  const guide = await createGuide({ locale: 'en' });
  if (account) await savePayoutAccount(getDb(), { guideId: guide.id, bankCode: '700', accountNumber: '0001112223', now: new Date() });
  const o = await order(travelerId, guide.id, amount);
  await capture(o);
  await settle(o);
  return { guide, order: o };
}

describe(`weekly payout batch (${testDriver})`, () => {
  it('pays every guide with a payable balance and a bank account once, skips and counts the others, and tells the guide', async () => {
    const traveler = await createTraveler();
    const paid = await guideOwed(traveler.id, 5000);
    const noAccount = await guideOwed(traveler.id, 4000, false);
    const later = new Date(Date.now() + (getConfig().PAYOUT_HOLD_DAYS + 1) * DAY);

    // Within the hold nothing is due yet.
    const early = await runPayoutBatch(getDb(), new Date());
    expect(early.payouts).toBe(0);
    expect(early.nothingDue).toBeGreaterThanOrEqual(1);

    const result = await runPayoutBatch(getDb(), later);
    expect(result.noAccount).toBeGreaterThanOrEqual(1);
    const mine = await getDb().select().from(payouts).where(eq(payouts.guideId, paid.guide.id));
    expect(mine.map((p) => [p.amount, p.status, p.bankCode, p.accountNumber])).toEqual([[4500, 'in_transit', '700', '0001112223']]);
    expect(await getDb().select().from(payouts).where(eq(payouts.guideId, noAccount.guide.id))).toEqual([]);
    expect(await accountBalance(getDb(), { kind: 'guide_payable', ownerId: noAccount.guide.id })).toBe(3600);

    // The notice, in the guide's language, with its mail in the outbox.
    const [notice] = await getDb().select().from(notifications).where(eq(notifications.userId, paid.guide.id));
    expect(notice).toMatchObject({ type: 'payout.started', title: 'Payout sent', link: '/me?tab=earnings' });
    expect(notice!.body).toContain('NT$4,500');
    const mail = (await getDb().execute(sql`select payload from outbox where payload::text like ${`%${paid.guide.email}%`}`)) as unknown as { rows: { payload: unknown }[] };
    expect(JSON.stringify(mail.rows)).toContain('Travel Assistant payout: NT$4,500');

    // A second run pays nobody twice.
    await runPayoutBatch(getDb(), later);
    expect(await getDb().select().from(payouts).where(eq(payouts.guideId, paid.guide.id))).toHaveLength(1);
    const lines = (await guideEarnings(paid.guide.id, later)).lines;
    expect(lines).toEqual([expect.objectContaining({ state: 'in_payout', net: 4500 })]);
  });

  it('two batches at once make one payout per guide (the guide’s payable account is locked first)', async () => {
    const traveler = await createTraveler();
    const rounds = testDriver === 'pg' ? 8 : 1;
    const holdMs = getConfig().PAYOUT_HOLD_DAYS * DAY;
    for (let round = 0; round < rounds; round++) {
      // Each guide has an order payable now and a bigger one settled a moment later, still within the hold: the
      // payable balance covers a second payout, so only the lock (not the balance limit) keeps it to one.
      const guides = [];
      for (let i = 0; i < 4; i++) guides.push(await guideOwed(traveler.id, 1000));
      await new Promise((r) => setTimeout(r, 50));
      const cut = new Date();
      await new Promise((r) => setTimeout(r, 50));
      for (const g of guides) {
        const o = await order(traveler.id, g.guide.id, 3000);
        await capture(o);
        await settle(o);
      }
      const at = new Date(cut.getTime() + holdMs);
      const results = await Promise.allSettled([runPayoutBatch(getDb(), at), runPayoutBatch(getDb(), at)]);
      expect(results.map((r) => (r.status === 'fulfilled' ? r.value.failed : String(r.reason)))).toEqual([0, 0]);
      for (const g of guides) {
        const made = await getDb().select().from(payouts).where(eq(payouts.guideId, g.guide.id));
        expect(made.map((p) => p.amount)).toEqual([900]);
        expect(await accountBalance(getDb(), { kind: 'guide_payable', ownerId: g.guide.id })).toBe(2700);
      }
    }
  });
});
