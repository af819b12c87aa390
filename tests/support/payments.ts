import { afterAll, beforeAll } from 'vitest';
import { getDatabaseHandle, getDb, type Database } from '~db/client';
import { getConfig, type AppConfig } from '~/env.server';
import type { PaymentStatus } from '~/lib/payments';
import { startOutboxWorker, type OutboxWorker } from '~/services/jobs/outbox-worker.server';
import { acceptProviderCallback } from '~/services/payments/callbacks.server';
import { checkoutFor, latestPayment } from '~/services/payments/order-payments.server';
import { runPaymentJob } from '~/services/payments/payment-jobs.server';
import { acceptCheckout, payWithCard, SIMULATOR_CARDS } from '~/services/payments/simulator.server';
import type { TestServer } from './http-server';

/**
 * Payments in tests (issue 32), always through the real code: the checkout our page would show, the built-in
 * simulator's own functions (the provider's side) and our callback handler with the simulator's signed result.
 */

const CONFIG_KEY = Symbol.for('lvyou.config');
type WithConfig = typeof globalThis & { [CONFIG_KEY]?: AppConfig };

/**
 * Points the process's public address at the test server (for the whole file), so the checkout's callback and return
 * URLs, and the simulator's own address for capture, void and refund, are the test server's.
 */
export function usePaymentsOn(server: TestServer): void {
  let before: AppConfig | undefined;
  beforeAll(() => {
    before = getConfig();
    (globalThis as WithConfig)[CONFIG_KEY] = { ...before, PUBLIC_URL: server.baseUrl };
  });
  afterAll(() => {
    (globalThis as WithConfig)[CONFIG_KEY] = before;
  });
}

export type TestCard = keyof typeof SIMULATOR_CARDS;

/**
 * The traveler pays their order with a simulator test card, without HTTP: the checkout form our page would post,
 * accepted by the simulator, the card tried, and the simulator's signed server callback handed to our callback
 * handler (what POST /payments/callback does with it). Returns the handler's answer.
 */
export async function payOrder(
  traveler: { id: number },
  orderId: number,
  card: TestCard = 'approved',
  db: Database = getDb(),
): Promise<{ status: number; body: string }> {
  const { checkout } = await checkoutFor(traveler, orderId, new Date(), db);
  if (checkout.state !== 'pay' || checkout.start.kind !== 'form') throw new Error(`order ${orderId} cannot be paid now (${checkout.state})`);
  const accepted = await acceptCheckout(db, checkout.start.fields, new Date());
  if (!accepted.ok) throw new Error(`the simulator refused the checkout: ${accepted.message}`);
  const paid = await payWithCard(db, accepted.trade.tradeNo, SIMULATOR_CARDS[card], new Date());
  const callback = paid.deliveries.find((d) => d.target === 'server');
  if (!callback) throw new Error(`no callback for order ${orderId} (${paid.outcome})`);
  return acceptProviderCallback(new URLSearchParams(callback.fields).toString(), new Headers({ 'content-type': 'application/x-www-form-urlencoded' }), db);
}

/**
 * A real outbox worker for the payment lane only (the provider's capture, void, refund and settlement after an order
 * transition), for the whole file, fast: what the server's own worker does, without the mail and push lanes.
 * Use with usePaymentsOn(server), so the provider calls reach that server's simulator.
 */
export function usePaymentWorker(options: { retryDelayMs?: number } = {}): void {
  let worker: OutboxWorker | undefined;
  beforeAll(async () => {
    const handle = getDatabaseHandle();
    worker = await startOutboxWorker(handle, {
      senders: { payment: (payload) => runPaymentJob(payload, handle.db) },
      retryDelayMs: () => options.retryDelayMs ?? 200,
      pollMs: 100,
    });
  });
  afterAll(async () => {
    await worker?.stop();
  });
}

/** Waits (up to `timeoutMs`) until an order's newest payment is in `status`; returns it. */
export async function waitForPayment(orderId: number, status: PaymentStatus, timeoutMs = 10_000, db: Database = getDb()) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const payment = await latestPayment(orderId, db);
    if (payment?.status === status) return payment;
    if (Date.now() > deadline) throw new Error(`order ${orderId}: payment still ${payment?.status ?? 'missing'} after ${timeoutMs} ms (waiting for ${status})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
