import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, ledgerEntries, outbox, payments, refundAttempts, simulatorTrades } from '~db/schema';
import { counterFamilies } from '~/services/platform/counters.server';
import { usePaymentProvider } from '~/services/payments/configured-provider.server';
import type { PaymentJob } from '~/services/payments/order-payments.server';
import { runPaymentJob } from '~/services/payments/payment-jobs.server';
import type { PaymentProvider } from '~/services/payments/provider.server';
import { handleSimulatorApi, SIMULATOR_PATH } from '~/services/payments/simulator.server';
import { createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { capturePayment, paidPayment, providerAt } from '../../support/money';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * A refund whose answer is lost (issue 32; docs/decisions/040 "A refund in doubt"): the provider refunded, the
 * connection broke before its answer reached us. Sending it again would pay the traveler twice, so it is held for
 * an admin, who settles it from the reconciliation page (a plain form) or the API, and the settlement that waited
 * for it follows. A refund that never reached the provider (no connection) is sent again by itself, once.
 * The provider is the real simulator behind a small server that loses answers the way a network does.
 */
useTestDatabase();
const server = useTestServer();

/** How the next refund call to the provider goes. */
let mode: 'answer' | 'lose-answer' | 'lose-request' = 'answer';
let refundCalls = 0;
let lossy: http.Server;
let lossyProvider: PaymentProvider;
let simulatorProvider: PaymentProvider;

beforeAll(async () => {
  // The simulator's own handler (what the provider does with the call), then its answer delivered, or the connection
  // dropped after it (lose-answer) or before it (lose-request: the provider never did anything).
  lossy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url!, 'http://x');
      const body = Buffer.concat(chunks).toString('utf8');
      const isRefund = new URLSearchParams(body).get('Action') === 'R';
      if (isRefund) refundCalls++;
      if (isRefund && mode === 'lose-request') return void req.socket.destroy();
      const answer = await handleSimulatorApi(getDb(), url.pathname.slice(SIMULATOR_PATH.length), body, new Date());
      if (isRefund && mode === 'lose-answer') return void req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => lossy.listen(0, '127.0.0.1', resolve));
  lossyProvider = providerAt(`http://127.0.0.1:${(lossy.address() as AddressInfo).port}`);
  simulatorProvider = providerAt(server.baseUrl);
});
afterAll(async () => {
  usePaymentProvider(undefined);
  await new Promise<void>((resolve) => lossy.close(() => resolve()));
});

let day = 0;
/** A captured NT$3,000 order cancelled by its traveler: a refund of NT$1,500 by the terms, then the settlement. */
async function cancelledCapturedOrder() {
  const traveler = await createTraveler();
  const guide = await createGuide();
  const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, totalPrice: 3000, status: 'cancelled', date: `2032-03-${String(1 + (day++ % 28)).padStart(2, '0')}` });
  const payment = await capturePayment(simulatorProvider, await paidPayment(simulatorProvider, order));
  const key = `order:${order.id}:cancel:refund`;
  const job: PaymentJob = { orderId: order.id, paymentId: payment.id, steps: [{ kind: 'refund', amount: 1500, key }, { kind: 'settle' }] };
  return { order, payment, key, job };
}

const attemptOf = async (key: string) => (await getDb().select().from(refundAttempts).where(eq(refundAttempts.idempotencyKey, key)))[0];
const providerRefunded = async (merchantTradeNo: string) =>
  (await getDb().select({ refunded: simulatorTrades.refundedAmount }).from(simulatorTrades).where(eq(simulatorTrades.merchantTradeNo, merchantTradeNo)))[0]!.refunded;
const ourPayment = async (id: number) => (await getDb().select().from(payments).where(eq(payments.id, id)))[0]!;
const entries = (orderId: number, kind: 'refund' | 'settle') =>
  getDb().select().from(ledgerEntries).where(and(eq(ledgerEntries.orderId, orderId), eq(ledgerEntries.kind, kind)));
const inDoubtCount = () => counterFamilies().find((c) => c.name === 'payment_refunds_in_doubt_total')!.samples.reduce((sum, [, value]) => sum + value, 0);

/** The payment jobs queued for an order and not run yet, run as the worker would. */
async function runQueuedJobs(orderId: number) {
  const queued = await getDb().select().from(outbox).where(and(eq(outbox.kind, 'payment'), eq(outbox.status, 'pending')));
  for (const row of queued.filter((r) => (r.payload as PaymentJob).orderId === orderId)) {
    await runPaymentJob(row.payload, getDb());
    await getDb().update(outbox).set({ status: 'sent' }).where(eq(outbox.id, row.id));
  }
}

const form = (cookie: string, values: Record<string, string>, language = 'zh-TW') =>
  server.request('/admin/finance/reconciliation', {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': language },
    body: new URLSearchParams(values).toString(),
  });

describe(`a refund in doubt (${testDriver})`, () => {
  it('an answer lost after the provider refunded is held, never sent again; the admin records it from the page and the settlement follows', async () => {
    const { order, payment, key, job } = await cancelledCapturedOrder();
    usePaymentProvider(lossyProvider);
    mode = 'lose-answer';
    const callsBefore = refundCalls;
    const doubtsBefore = inDoubtCount();

    await runPaymentJob(job, getDb());
    expect(refundCalls - callsBefore).toBe(1);
    expect(await providerRefunded(payment.merchantTradeNo)).toBe(1500); // the traveler has their money back
    expect((await ourPayment(payment.id)).refundedAmount).toBe(0); // and we do not know it
    expect((await attemptOf(key))?.state).toBe('in_doubt');
    expect(inDoubtCount() - doubtsBefore).toBe(1);
    expect(await entries(order.id, 'settle')).toHaveLength(0); // the settlement waits for the refund

    // The job again (a lease ran out, a worker restarted): the provider is not asked a second time.
    mode = 'answer';
    await runPaymentJob(job, getDb());
    expect(refundCalls - callsBefore).toBe(1);
    expect(await providerRefunded(payment.merchantTradeNo)).toBe(1500);

    // The admin sees it on the reconciliation page, in their language, with the trade to look up.
    const admin = await createUser({ type: 'admin' });
    const { cookie, token } = await loginAs(admin);
    const page = await server.request('/admin/finance/reconciliation', { cookie, headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Refunds in doubt');
    expect(page.text).toContain(payment.merchantTradeNo);
    const listed = await server.request('/api/v1/admin/refunds-in-doubt', { token });
    expect(listed.status).toBe(200);
    expect(listed.json.data.refunds).toContainEqual(expect.objectContaining({ key, orderId: order.id, paymentId: payment.id, amount: 1500 }));

    // "The provider refunded it": a plain form post (no JS), back to the page with a message.
    const settled = await form(cookie, { intent: 'resolve-refund', key, outcome: 'refunded' });
    expect(settled.status).toBe(302);
    expect(settled.headers.get('location')).toBe('/admin/finance/reconciliation');
    expect((await ourPayment(payment.id)).refundedAmount).toBe(1500);
    expect(await entries(order.id, 'refund')).toHaveLength(1);
    expect((await attemptOf(key))?.state).toBe('done');
    expect(await getDb().select().from(auditLogs).where(and(eq(auditLogs.action, 'payment.refund_resolved'), eq(auditLogs.targetId, String(order.id))))).toHaveLength(1);

    await runQueuedJobs(order.id);
    expect(await entries(order.id, 'settle')).toHaveLength(1);
    expect(refundCalls - callsBefore).toBe(1);

    // Settled once: the same form again finds nothing in doubt.
    const again = await form(cookie, { intent: 'resolve-refund', key, outcome: 'refunded' });
    expect(again.status).toBe(404);
    expect(again.text).toContain('這筆退款已處理，不再是結果不明的狀態。');
    expect((await ourPayment(payment.id)).refundedAmount).toBe(1500);
  });

  it('a request lost before the provider did anything: the admin says so, it is sent again once, and the settlement follows', async () => {
    const { order, payment, key, job } = await cancelledCapturedOrder();
    usePaymentProvider(lossyProvider);
    mode = 'lose-request';
    const callsBefore = refundCalls;
    await runPaymentJob(job, getDb());
    expect((await attemptOf(key))?.state).toBe('in_doubt');
    expect(await providerRefunded(payment.merchantTradeNo)).toBe(0);

    const admin = await createUser({ type: 'admin' });
    const { token } = await loginAs(admin);
    const traveler = await loginAs(await createTraveler());
    const refused = await server.request('/api/v1/admin/refunds-in-doubt', { method: 'POST', token: traveler.token, json: { key, outcome: 'not_refunded' } });
    expect(refused.status).toBe(403);
    const bad = await server.request('/api/v1/admin/refunds-in-doubt', { method: 'POST', token, json: { key, outcome: 'maybe' } });
    expect(bad.status).toBe(400);
    expect((await attemptOf(key))?.state).toBe('in_doubt');

    mode = 'answer';
    const resent = await server.request('/api/v1/admin/refunds-in-doubt', { method: 'POST', token, json: { key, outcome: 'not_refunded' } });
    expect(resent.status).toBe(200);
    await runQueuedJobs(order.id);
    expect(await providerRefunded(payment.merchantTradeNo)).toBe(1500);
    expect((await ourPayment(payment.id)).refundedAmount).toBe(1500);
    expect((await attemptOf(key))?.state).toBe('done');
    expect(await entries(order.id, 'settle')).toHaveLength(1);
    expect(refundCalls - callsBefore).toBe(2); // the lost one and the one sent again
    expect((await server.request('/api/v1/admin/refunds-in-doubt', { token })).json.data.refunds.map((r: { key: string }) => r.key)).not.toContain(key);
  });

  it('a provider that cannot be reached at all is tried again by itself, and refunds once', async () => {
    const { payment, key, job } = await cancelledCapturedOrder();
    // Nothing listens on this port: no byte of the request left.
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    usePaymentProvider(providerAt(`http://127.0.0.1:${port}`));
    await expect(runPaymentJob(job, getDb())).rejects.toThrow(/unavailable/);
    expect((await attemptOf(key))?.state).toBe('not_sent');

    usePaymentProvider(simulatorProvider);
    await runPaymentJob(job, getDb());
    expect(await providerRefunded(payment.merchantTradeNo)).toBe(1500);
    expect((await ourPayment(payment.id)).refundedAmount).toBe(1500);
    expect((await attemptOf(key))?.state).toBe('done');
  });

  it('a process that died during the call leaves it in doubt: the next run does not call the provider', async () => {
    const { payment, key, job } = await cancelledCapturedOrder();
    // What a worker killed between "calling" and the provider's answer leaves behind.
    await getDb().insert(refundAttempts).values({ idempotencyKey: key, paymentId: payment.id, orderId: job.orderId, amount: 1500, state: 'calling' });
    usePaymentProvider(lossyProvider);
    mode = 'answer';
    const callsBefore = refundCalls;
    await runPaymentJob(job, getDb());
    expect(refundCalls).toBe(callsBefore);
    expect((await attemptOf(key))?.state).toBe('in_doubt');
    expect((await ourPayment(payment.id)).refundedAmount).toBe(0);
  });
});
