import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, ledgerEntries } from '~db/schema';
import { applyPaymentTransition, openPayment } from '~/services/payments/payments.server';
import { usePaymentProvider } from '~/services/payments/configured-provider.server';
import type { PaymentProvider } from '~/services/payments/provider.server';
import { createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { capturePayment, inTx, paidPayment, payOut, providerAt, refundPayment, settle } from '../../support/money';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * The admin's finance area over real HTTP (issue 32): the four pages (admins only, words in the reader's language),
 * mark-paid as a plain form POST (no JS: a redirect back with a message; twice is one ledger entry), the bank CSV, the
 * /api/v1/admin finance contracts, and reconciliation run from the page and the API against the simulator this
 * server hosts itself (its /payments/simulator paths), asked by the app's own configured provider.
 */
useTestDatabase();
const server = useTestServer();

let provider: PaymentProvider;
beforeAll(() => {
  // The app's provider (shared through globalThis) talks to the simulator this test server hosts.
  provider = providerAt(server.baseUrl);
  usePaymentProvider(provider);
});
afterAll(() => usePaymentProvider(undefined));

let day = 0;
const order = (travelerId: number, guideId: number, totalPrice: number) =>
  createOrder({ travelerId, guideId, totalPrice, status: 'cancelled', date: `2031-02-${String(1 + (day++ % 28)).padStart(2, '0')}` });

const form = (path: string, cookie: string, values: Record<string, string>, language = 'zh-TW') =>
  server.request(path, {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': language },
    body: new URLSearchParams(values).toString(),
  });

let worlds = 0;
async function world() {
  // A bank account of this world's own (its digits are what the CSV and the masked lists are checked for).
  const accountNumber = `2026000${String(++worlds).padStart(3, '0')}4567`;
  const admin = await createUser({ type: 'admin' });
  const traveler = await createTraveler({ name: '王小明' });
  const guide = await createGuide({ name: '=HYPERLINK("http://evil.example/","x")' });
  const o = await order(traveler.id, guide.id, 3000);
  const payment = await refundPayment(provider, await capturePayment(provider, await paidPayment(provider, o)), 1000);
  await settle(o);
  const payout = await payOut(guide.id, { bankCode: '812', accountNumber });
  return { admin, traveler, guide, order: o, payment, payout, accountNumber, ...(await loginAs(admin)) };
}

describe(`admin finance over HTTP (${testDriver})`, () => {
  it('admins only: the pages refuse others, the API answers 401/403', async () => {
    const traveler = await createTraveler();
    const guide = await createGuide();
    for (const path of ['/admin/finance', '/admin/finance/payments', '/admin/finance/payouts', '/admin/finance/reconciliation']) {
      const visitor = await server.request(path);
      expect(visitor.status, path).toBe(302);
      expect(visitor.headers.get('location')).toMatch(/^\/login/);
      for (const who of [traveler, guide]) expect((await server.request(path, { cookie: (await loginAs(who)).cookie })).status, path).toBe(403);
    }
    const { token } = await loginAs(guide);
    for (const path of ['/api/v1/admin/ledger', '/api/v1/admin/payments', '/api/v1/admin/payouts', '/api/v1/admin/payouts/export.csv', '/api/v1/admin/reconciliation']) {
      expect((await server.request(path)).status, path).toBe(401);
      expect((await server.request(path, { token })).status, path).toBe(403);
    }
    expect((await server.request('/api/v1/admin/payouts/1/paid', { method: 'POST', token })).status).toBe(403);
    expect((await server.request('/api/v1/admin/reconciliation', { method: 'POST', token })).status).toBe(403);
  });

  it('the pages: balances in words, the payment with its trade numbers, the payout masked; the admin page links to them', async () => {
    const w = await world();
    const home = await server.request('/admin', { cookie: w.cookie });
    expect(home.text).toContain('href="/admin/finance"');
    expect(home.text).toContain('金流與帳務');

    const overview = await server.request('/admin/finance', { cookie: w.cookie, headers: { 'accept-language': 'en' } });
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('The ledger balances: all accounts together sum to NT$0.');
    expect(overview.text).toContain('Owed to guides');
    expect(overview.text).toContain('Payouts in transit');
    const zh = await server.request('/admin/finance', { cookie: w.cookie });
    expect(zh.text).toContain('帳本平衡');

    const payments = await server.request('/admin/finance/payments?status=partly_refunded', { cookie: w.cookie, headers: { 'accept-language': 'en' } });
    expect(payments.status).toBe(200);
    expect(payments.text).toContain(`href="/admin/orders/${w.order.id}"`);
    expect(payments.text).toContain(w.payment.merchantTradeNo);
    expect(payments.text).toContain(w.payment.providerTradeNo!);
    expect(payments.text).toContain('Partly refunded');
    expect(payments.text).toContain('王小明');
    expect(payments.text).toContain('NT$1,000');
    const none = await server.request('/admin/finance/payments?status=expired', { cookie: w.cookie, headers: { 'accept-language': 'en' } });
    expect(none.text).not.toContain(w.payment.merchantTradeNo);

    const payouts = await server.request('/admin/finance/payouts', { cookie: w.cookie, headers: { 'accept-language': 'ja' } });
    expect(payouts.status).toBe(200);
    expect(payouts.text).toContain('••••••••••4567');
    expect(payouts.text).not.toContain(w.accountNumber);
    expect(payouts.text).toContain('送金中');
    expect(payouts.text).toContain('/api/v1/admin/payouts/export.csv?lng=ja');
  });

  it('mark as paid with a plain form POST (no JS): redirected back with a message, twice is one ledger entry; a bad form is 400', async () => {
    const w = await world();
    const first = await form('/admin/finance/payouts?status=in_transit', w.cookie, { intent: 'paid', payoutId: String(w.payout.payoutId) });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/admin/finance/payouts?status=in_transit');
    const toast = first.headers.get('set-cookie') ?? '';
    expect(toast).toMatch(/toast=/);
    const again = await form('/admin/finance/payouts', w.cookie, { intent: 'paid', payoutId: String(w.payout.payoutId) });
    expect(again.status).toBe(302);
    const page = await server.request(`/admin/finance/payouts?status=paid`, { cookie: w.cookie, headers: { 'accept-language': 'en' } });
    expect(page.text).toContain(`data-testid="admin-payout-${w.payout.payoutId}"`);
    expect(await getDb().select().from(ledgerEntries).where(and(eq(ledgerEntries.payoutId, w.payout.payoutId), eq(ledgerEntries.kind, 'payout_paid')))).toHaveLength(1);
    expect(await getDb().select().from(auditLogs).where(and(eq(auditLogs.action, 'payout.paid'), eq(auditLogs.actorId, w.admin.id)))).toHaveLength(1);

    expect((await form('/admin/finance/payouts', w.cookie, { intent: 'paid', payoutId: 'abc' })).status).toBe(400);
    expect((await form('/admin/finance/payouts', w.cookie, { intent: 'not-an-intent' })).status).toBe(400);
    const missing = await form('/admin/finance/payouts', w.cookie, { intent: 'paid', payoutId: '2000000000' }, 'en');
    expect(missing.status).toBe(404);
  });

  it('the API: ledger, payments, payouts, mark paid (changed, then not), the bank CSV with formula escaping', async () => {
    const w = await world();
    const ledger = await server.request('/api/v1/admin/ledger', { token: w.token });
    expect(ledger.status).toBe(200);
    expect(ledger.json.data).toMatchObject({ balanced: true, total: 0 });
    expect(ledger.json.data.payoutsInTransit).toBeGreaterThanOrEqual(w.payout.amount);

    const payments = await server.request(`/api/v1/admin/payments?status=partly_refunded`, { token: w.token });
    expect(payments.status).toBe(200);
    expect(payments.json.data.payments.find((p: { id: number }) => p.id === w.payment.id)).toMatchObject({ amount: 3000, captured: 3000, refunded: 1000, status: 'partly_refunded' });
    expect(payments.json.data.pagination).toMatchObject({ page: 1, limit: 20 });
    expect((await server.request('/api/v1/admin/payments?status=nonsense', { token: w.token })).status).toBe(400);

    const list = await server.request('/api/v1/admin/payouts?status=in_transit', { token: w.token });
    expect(list.json.data.payouts.find((p: { id: number }) => p.id === w.payout.payoutId)).toMatchObject({ amount: 1800, accountNumberMasked: '••••••••••4567', status: 'in_transit', orders: 1 });
    expect(list.text).not.toContain(w.accountNumber);

    const csv = await server.request('/api/v1/admin/payouts/export.csv?lng=en', { token: w.token });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.text).toContain(`812,${w.accountNumber},"'=HYPERLINK(""http://evil.example/"",""x"")",1800,${w.payout.payoutId}\r\n`);

    const paid = await server.request(`/api/v1/admin/payouts/${w.payout.payoutId}/paid`, { method: 'POST', token: w.token });
    expect(paid.status).toBe(200);
    expect(paid.json.data).toMatchObject({ changed: true, payout: { id: w.payout.payoutId, status: 'paid' } });
    const twice = await server.request(`/api/v1/admin/payouts/${w.payout.payoutId}/paid`, { method: 'POST', token: w.token });
    expect(twice.json.data).toMatchObject({ changed: false, payout: { status: 'paid', paidAt: paid.json.data.payout.paidAt } });
    expect((await server.request('/api/v1/admin/payouts/2000000000/paid', { method: 'POST', token: w.token })).status).toBe(404);
    const after = await server.request('/api/v1/admin/payouts/export.csv?lng=en', { token: w.token });
    expect(after.text).not.toContain(w.accountNumber);
  });

  it('reconciliation from the API and the page: none, then a mismatch we made; run now is audited', async () => {
    const w = await world();
    const before = await server.request('/api/v1/admin/reconciliation', { token: w.token });
    expect(before.status).toBe(200);
    const clean = await server.request('/api/v1/admin/reconciliation', { method: 'POST', token: w.token });
    expect(clean.status).toBe(200);
    expect(clean.json.data.run).toMatchObject({ unreachable: 0, mismatches: [], actorId: w.admin.id });
    expect(clean.json.data.run.checked).toBeGreaterThan(0);

    // We say a payment was captured; the provider never saw its trade.
    const ghostOrder = await order(w.traveler.id, w.guide.id, 1700);
    const ghost = await openPayment(getDb(), { orderId: ghostOrder.id, amount: 1700, provider: 'simulator' });
    await inTx((tx) => applyPaymentTransition(tx, ghost.id, { kind: 'authorise' }, { now: new Date() }));
    await inTx((tx) => applyPaymentTransition(tx, ghost.id, { kind: 'capture' }, { now: new Date() }));

    const run = await form('/admin/finance/reconciliation', w.cookie, { intent: 'run' });
    expect(run.status).toBe(302);
    expect(run.headers.get('location')).toBe('/admin/finance/reconciliation');
    const page = await server.request('/admin/finance/reconciliation', { cookie: w.cookie, headers: { 'accept-language': 'en' } });
    expect(page.text).toContain('We recorded money taken; the provider says it was not paid');
    expect(page.text).toContain(ghost.merchantTradeNo);
    const latest = await server.request('/api/v1/admin/reconciliation', { token: w.token });
    expect(latest.json.data.run.mismatches).toEqual([expect.objectContaining({ kind: 'provider_not_paid', paymentId: ghost.id, orderId: ghostOrder.id })]);
    expect(await getDb().select().from(auditLogs).where(and(eq(auditLogs.action, 'reconciliation.run'), eq(auditLogs.actorId, w.admin.id)))).toHaveLength(2);
    expect((await form('/admin/finance/reconciliation', w.cookie, { intent: 'nope' })).status).toBe(400);
  });
});
