import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, jobRuns, ledgerEntries, payouts, reconciliationRuns } from '~db/schema';
import { csvResponse } from '~/http/csv.server';
import type { LedgerOverview } from '~/schemas/admin-finance';
import { dailyReconciliation, PERIODIC_JOBS, runJobIfDue } from '~/services/jobs/jobs.server';
import { usePaymentProvider } from '~/services/payments/configured-provider.server';
import {
  adminMarkPayoutPaid,
  exportPayoutsInTransit,
  ledgerOverview,
  listPaymentsForAdmin,
  listPayoutsForAdmin,
} from '~/services/payments/finance-admin.server';
import { applyPaymentTransition, openPayment } from '~/services/payments/payments.server';
import type { PaymentProvider } from '~/services/payments/provider.server';
import { latestReconciliation, reconcile, runReconciliationNow } from '~/services/payments/reconciliation.server';
import { acceptCheckout, payWithCard, SIMULATOR_CARDS } from '~/services/payments/simulator.server';
import { createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import { capturePayment, inTx, paidPayment, payOut, providerAt, refundPayment, settle, simulatorServer } from '../support/money';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The admin's finance area (issue 32) against the real database and the real payment simulator (on a port of its
 * own, spoken to by the ECPay adapter): balances after a sequence of money movements made by the product's own
 * functions, the lists, the bank-transfer CSV and its formula escaping, mark-paid (twice; on PostgreSQL from two
 * connections at once), and reconciliation (a mismatch we create, none on consistent data, an unreachable provider,
 * the daily job with no transaction open while the provider answers).
 */
useTestDatabase();

let simulator: Awaited<ReturnType<typeof simulatorServer>>;
let provider: PaymentProvider;
/** On PostgreSQL: transactions left open by anyone while the simulator answered a query. */
let openTransactionsSeen: number[] = [];
let watchTransactions = false;

beforeAll(async () => {
  simulator = await simulatorServer({
    onQuery: async () => {
      if (!watchTransactions || testDriver !== 'pg') return;
      const found = (await getDb().execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
      )) as unknown as { rows: { n: number }[] };
      openTransactionsSeen.push(found.rows[0]!.n);
    },
  });
  provider = providerAt(simulator.baseUrl);
});
afterAll(async () => {
  usePaymentProvider(undefined);
  await simulator.close();
});

let day = 0;
const order = (travelerId: number, guideId: number, totalPrice: number) =>
  // Cancelled orders hold no slot, so any number may share a guide and a day (the ledger does not read the order's status).
  createOrder({ travelerId, guideId, totalPrice, status: 'cancelled', date: `2030-01-${String(1 + (day++ % 28)).padStart(2, '0')}` });

const LINES = ['heldForTravelers', 'owedToGuides', 'platformCommission', 'refunds', 'payoutsInTransit', 'paidOut', 'providerClearing', 'providerAuthorised'] as const;
const delta = (after: LedgerOverview, before: LedgerOverview) => Object.fromEntries(LINES.map((k) => [k, after[k] - before[k]]));

describe(`admin finance (${testDriver})`, () => {
  it('balances in words after authorise, capture, settle, refund, payout and paid; the ledger sums to zero', async () => {
    const admin = await createUser({ type: 'admin' });
    const traveler = await createTraveler();
    const guide = await createGuide();
    const before = await ledgerOverview(admin);

    const a = await order(traveler.id, guide.id, 3000);
    const b = await order(traveler.id, guide.id, 1000);
    let pa = await paidPayment(provider, a);
    await paidPayment(provider, b); // stays authorised
    const afterAuth = await ledgerOverview(admin);
    expect(delta(afterAuth, before)).toMatchObject({ heldForTravelers: 4000, providerAuthorised: 4000, providerClearing: 0 });

    pa = await capturePayment(provider, pa);
    await settle(a); // 10 %: NT$300 commission, NT$2,700 to the guide
    const afterSettle = await ledgerOverview(admin);
    expect(delta(afterSettle, before)).toMatchObject({ heldForTravelers: 1000, owedToGuides: 2700, platformCommission: 300, providerClearing: 3000, providerAuthorised: 1000 });

    await refundPayment(provider, pa, 1000); // after settlement: 900 from the guide, 100 from the commission
    const payout = await payOut(guide.id);
    expect(payout.amount).toBe(1800);
    const afterPayout = await ledgerOverview(admin);
    expect(delta(afterPayout, before)).toEqual({
      heldForTravelers: 1000,
      owedToGuides: 0,
      platformCommission: 200,
      refunds: 1000,
      payoutsInTransit: 1800,
      paidOut: 0,
      providerClearing: 3000,
      providerAuthorised: 1000,
    });

    await adminMarkPayoutPaid(admin, payout.payoutId);
    const after = await ledgerOverview(admin);
    expect(delta(after, before)).toMatchObject({ payoutsInTransit: 0, paidOut: 1800 });
    expect(after.total).toBe(0);
    expect(after.balanced).toBe(true);
    // In words: what the provider holds for us = held + owed + commission + in transit + paid out − authorised … the identity of double entry.
    expect(after.providerClearing + after.providerAuthorised).toBe(after.heldForTravelers + after.owedToGuides + after.platformCommission + after.refunds + after.payoutsInTransit + after.paidOut);
  });

  it('lists payments (status and Taiwan-day filters, parties, trade numbers) and payouts (account masked); admins only', async () => {
    const admin = await createUser({ type: 'admin' });
    const traveler = await createTraveler({ name: '林旅客' });
    const guide = await createGuide({ name: '陳導遊' });
    const o = await order(traveler.id, guide.id, 2500);
    const p = await capturePayment(provider, await paidPayment(provider, o));
    await settle(o);
    const payout = await payOut(guide.id, { bankCode: '700', accountNumber: '98765432101' });

    const captured = await listPaymentsForAdmin(admin, { status: 'captured', page: 1 });
    const row = captured.payments.find((r) => r.id === p.id);
    expect(row).toMatchObject({
      orderId: o.id,
      traveler: { id: traveler.id, name: '林旅客' },
      guide: { id: guide.id, name: '陳導遊' },
      amount: 2500,
      captured: 2500,
      refunded: 0,
      status: 'captured',
      provider: 'simulator',
      merchantTradeNo: p.merchantTradeNo,
    });
    expect(row!.providerTradeNo).toMatch(/\S/);
    expect(row!.authorisedAt && row!.capturedAt).toBeTruthy();
    expect(captured.payments.every((r) => r.status === 'captured')).toBe(true);
    expect((await listPaymentsForAdmin(admin, { status: 'refunded', page: 1 })).payments.some((r) => r.id === p.id)).toBe(false);
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    expect((await listPaymentsForAdmin(admin, { from: today, to: today, page: 1 })).payments.some((r) => r.id === p.id)).toBe(true);
    expect((await listPaymentsForAdmin(admin, { from: '2020-01-01', to: '2020-01-02', page: 1 })).pagination.total).toBe(0);

    const listed = (await listPayoutsForAdmin(admin, { page: 1 })).payouts.find((r) => r.id === payout.payoutId);
    expect(listed).toMatchObject({ guide: { id: guide.id, name: '陳導遊' }, amount: 2250, bankCode: '700', accountNumberMasked: '•••••••2101', status: 'in_transit', paidAt: null, orders: 1 });
    expect(JSON.stringify(await listPayoutsForAdmin(admin, { page: 1 }))).not.toContain('98765432101');

    for (const who of [traveler, guide]) {
      await expect(ledgerOverview(who)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(listPaymentsForAdmin(who, { page: 1 })).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(adminMarkPayoutPaid(who, payout.payoutId)).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(exportPayoutsInTransit(who)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    }
    await expect(adminMarkPayoutPaid(admin, 2_000_000_000)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('the bank-transfer CSV: payouts in transit only, full account numbers, a formula in a name escaped; asking is audited', async () => {
    const admin = await createUser({ type: 'admin' });
    const traveler = await createTraveler();
    const evil = await createGuide({ name: '=HYPERLINK("http://evil.example/","pay me")' });
    const paidGuide = await createGuide({ name: '已付導遊' });
    for (const g of [evil, paidGuide]) {
      const o = await order(traveler.id, g.id, 1000);
      await capturePayment(provider, await paidPayment(provider, o));
      await settle(o);
    }
    const inTransit = await payOut(evil.id, { bankCode: '013', accountNumber: '123456789012' });
    const done = await payOut(paidGuide.id, { bankCode: '822', accountNumber: '555566667777' });
    await adminMarkPayoutPaid(admin, done.payoutId);

    const response = await csvResponse(new Request('http://localhost/api/v1/admin/payouts/export.csv?lng=en'), await exportPayoutsInTransit(admin));
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="payouts-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await response.text();
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Bank code,Account number,Guide,Amount (TWD),Payout number');
    const mine = lines.find((l) => l.endsWith(`,${inTransit.payoutId}`));
    expect(mine).toBe(`013,123456789012,"'=HYPERLINK(""http://evil.example/"",""pay me"")",900,${inTransit.payoutId}`);
    expect(text).not.toContain('555566667777');
    expect(lines.some((l) => l.startsWith('=') || l.includes(',=') || l.includes(',"='))).toBe(false);
    const audits = await getDb().select().from(auditLogs).where(and(eq(auditLogs.actorId, admin.id), eq(auditLogs.action, 'export.payouts')));
    expect(audits).toHaveLength(1);
  });

  it('marking a payout paid twice writes one ledger entry and one audit row', async () => {
    const admin = await createUser({ type: 'admin' });
    const traveler = await createTraveler();
    const guide = await createGuide();
    const o = await order(traveler.id, guide.id, 1200);
    await capturePayment(provider, await paidPayment(provider, o));
    await settle(o);
    const { payoutId } = await payOut(guide.id);
    const first = await adminMarkPayoutPaid(admin, payoutId);
    const second = await adminMarkPayoutPaid(admin, payoutId);
    expect(first).toMatchObject({ changed: true, payout: { status: 'paid' } });
    expect(second).toMatchObject({ changed: false, payout: { status: 'paid', paidAt: first.payout.paidAt } });
    expect(await getDb().select().from(ledgerEntries).where(and(eq(ledgerEntries.payoutId, payoutId), eq(ledgerEntries.kind, 'payout_paid')))).toHaveLength(1);
    expect(await getDb().select().from(auditLogs).where(and(eq(auditLogs.action, 'payout.paid'), eq(auditLogs.targetId, String(payoutId))))).toHaveLength(1);
  });

  it.runIf(testDriver === 'pg')('PostgreSQL: two admins mark one payout paid at once: one payout_paid entry, one audit row, one "changed"', async () => {
    const [admin1, admin2] = [await createUser({ type: 'admin' }), await createUser({ type: 'admin' })];
    const traveler = await createTraveler();
    for (let round = 0; round < 8; round++) {
      const guide = await createGuide();
      const o = await order(traveler.id, guide.id, 1500);
      await capturePayment(provider, await paidPayment(provider, o));
      await settle(o);
      const { payoutId } = await payOut(guide.id);
      const results = await Promise.all([adminMarkPayoutPaid(admin1, payoutId), adminMarkPayoutPaid(admin2, payoutId)]);
      expect(results.filter((r) => r.changed)).toHaveLength(1);
      expect(await getDb().select().from(ledgerEntries).where(and(eq(ledgerEntries.payoutId, payoutId), eq(ledgerEntries.kind, 'payout_paid')))).toHaveLength(1);
      expect(await getDb().select().from(auditLogs).where(and(eq(auditLogs.action, 'payout.paid'), eq(auditLogs.targetId, String(payoutId))))).toHaveLength(1);
      const [row] = await getDb().select().from(payouts).where(eq(payouts.id, payoutId));
      expect(row!.status).toBe('paid');
    }
    expect((await ledgerOverview(admin1)).balanced).toBe(true);
  });

  it('reconciliation: none on consistent data; a payment we call captured that the provider never took, and a stray payment, are listed', async () => {
    const admin = await createUser({ type: 'admin' });
    const traveler = await createTraveler();
    const guide = await createGuide();
    const now = () => new Date();
    const since = new Date(Date.now() - 60_000);

    // Consistent: captured and partly refunded, authorised, and one declined-then-paid order.
    const ok1 = await order(traveler.id, guide.id, 2000);
    await refundPayment(provider, await capturePayment(provider, await paidPayment(provider, ok1)), 500);
    await paidPayment(provider, await order(traveler.id, guide.id, 800));
    const clean = await reconcile(getDb(), provider, { since, now: now() });
    expect(clean.unreachable).toBe(0);
    expect(clean.checked).toBeGreaterThanOrEqual(2);
    expect(clean.mismatches).toEqual([]);

    // We mark a payment authorised and captured that the provider never saw (its trade is unpaid there).
    const ghostOrder = await order(traveler.id, guide.id, 1700);
    const ghost = await openPayment(getDb(), { orderId: ghostOrder.id, amount: 1700, provider: 'simulator' });
    await inTx((tx) => applyPaymentTransition(tx, ghost.id, { kind: 'authorise' }, { now: now() }));
    await inTx((tx) => applyPaymentTransition(tx, ghost.id, { kind: 'capture' }, { now: now() }));
    // The provider took a card for a payment we let expire (its callback never reached us): a stray payment.
    const strayOrder = await order(traveler.id, guide.id, 600);
    const stray = await openPayment(getDb(), { orderId: strayOrder.id, amount: 600, provider: 'simulator' });
    const start = provider.startCheckout({ orderId: strayOrder.id, merchantTradeNo: stray.merchantTradeNo, amount: 600, createdAt: stray.createdAt, itemName: '夜市導覽', callbackUrl: 'http://127.0.0.1:9/cb', returnUrl: 'http://127.0.0.1:9/r' });
    const accepted = await acceptCheckout(getDb(), (start as { fields: Record<string, string> }).fields, now());
    if (!accepted.ok) throw new Error(accepted.message);
    await payWithCard(getDb(), accepted.trade.tradeNo, SIMULATOR_CARDS.approved, now());
    await inTx((tx) => applyPaymentTransition(tx, stray.id, { kind: 'expire' }, { now: now() }));

    const found = await reconcile(getDb(), provider, { since, now: now() });
    expect(found.mismatches.map((m) => [m.kind, m.paymentId]).sort()).toEqual(
      [
        ['provider_not_paid', ghost.id],
        ['stray_payment', stray.id],
      ].sort(),
    );
    expect(found.mismatches.find((m) => m.kind === 'provider_not_paid')).toMatchObject({
      orderId: ghostOrder.id,
      ours: { status: 'captured', amount: 1700, captured: 1700, refunded: 0 },
      provider: { status: 'unpaid' },
      ledger: { authorisedOpen: 0, captured: 1700, refunded: 0 },
    });

    // Stored by "run now" (audited) and read back as the latest run.
    const run = await runReconciliationNow(admin, getDb(), provider);
    expect(run).toMatchObject({ actorId: admin.id, unreachable: 0 });
    expect(run.mismatches).toHaveLength(2);
    expect(await latestReconciliation(admin)).toEqual(run);
    expect(await getDb().select().from(auditLogs).where(and(eq(auditLogs.action, 'reconciliation.run'), eq(auditLogs.actorId, admin.id)))).toHaveLength(1);
    await expect(runReconciliationNow(traveler, getDb(), provider)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a provider that cannot be reached is reported as unreachable, not as mismatches', async () => {
    const nowhere = providerAt('http://127.0.0.1:9');
    const result = await reconcile(getDb(), nowhere, { since: new Date(Date.now() - 3_600_000), now: new Date() });
    expect(result.checked).toBe(0);
    expect(result.unreachable).toBeGreaterThan(0);
    expect(result.mismatches).toEqual([]);
  });

  it('the daily job runs once a day, stores its run, and holds no transaction open while the provider answers', async () => {
    expect(PERIODIC_JOBS).toContain(dailyReconciliation);
    expect(dailyReconciliation.everyMs).toBe(24 * 60 * 60 * 1000);
    usePaymentProvider(provider);
    await getDb().delete(jobRuns).where(eq(jobRuns.name, dailyReconciliation.name));
    const runsBefore = (await getDb().select().from(reconciliationRuns)).length;
    openTransactionsSeen = [];
    watchTransactions = true;
    const outcome = await runJobIfDue(dailyReconciliation);
    watchTransactions = false;
    expect(outcome.ran).toBe(true);
    if (outcome.ran) expect(outcome.result.checked).toBeGreaterThan(0);
    expect(outcome.ran && outcome.result.mismatches).toBe(2); // the two made above, still within the two days
    const runs = await getDb().select().from(reconciliationRuns);
    expect(runs).toHaveLength(runsBefore + 1);
    expect(runs.at(-1)!.actorId).toBeNull();
    if (testDriver === 'pg') {
      expect(openTransactionsSeen.length).toBeGreaterThan(0);
      expect(openTransactionsSeen.every((n) => n === 0)).toBe(true);
    }
    // Claimed for a day: a second instance's tick finds it not due.
    expect(await runJobIfDue(dailyReconciliation)).toEqual({ ran: false });
  });
});
