import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getDb, type Database } from '~db/client';
import { parseConfig } from '~/env.server';
import { createPaymentProvider } from '~/services/payments/configured-provider.server';
import { startPayout, recordSettlement } from '~/services/payments/ledger.server';
import { savePayoutAccount } from '~/services/payments/payout-accounts.server';
import { applyPaymentTransition, openPayment, recordProviderEvent, type PaymentRow } from '~/services/payments/payments.server';
import type { PaymentProvider } from '~/services/payments/provider.server';
import { acceptCheckout, handleSimulatorApi, payWithCard, SIMULATOR_CARDS, SIMULATOR_PATH } from '~/services/payments/simulator.server';

/*
 * Money state for tests of the admin's finance area (issue 32), made only through the product's own functions on
 * real orders: a payment opened as the booking opens it, a checkout the simulator accepts, the simulator's test card,
 * the simulator's signed callback verified by the ECPay adapter and recorded by recordProviderEvent; capture and
 * refund asked of the simulator first (as the outbox worker does), then applied; settlement and payouts by the ledger.
 */

export const inTx = <T>(fn: (tx: Database) => Promise<T>) => getDb().transaction((tx) => fn(tx as unknown as Database));

/** The provider configured against a simulator served at `baseUrl` (the app's own path, or `simulatorServer`). */
export function providerAt(baseUrl: string): PaymentProvider {
  return createPaymentProvider(parseConfig({ PUBLIC_URL: baseUrl, SESSION_SECRET: 'x'.repeat(40) }));
}

/**
 * The simulator's server-to-server paths on a port of their own (as `npm run payments:simulator` serves them).
 * `onQuery` runs before each answer (a test may look at the database meanwhile, or hold the answer back).
 */
export async function simulatorServer(options: { onQuery?: () => Promise<void> } = {}) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url!, 'http://x');
      if (!url.pathname.startsWith(SIMULATOR_PATH)) return void res.writeHead(404).end();
      await options.onQuery?.();
      const answer = await handleSimulatorApi(getDb(), url.pathname.slice(SIMULATOR_PATH.length), Buffer.concat(chunks).toString('utf8'), new Date());
      res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { baseUrl, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Opens a payment for the order and pays it with the simulator's approved test card: the payment is authorised. */
export async function paidPayment(provider: PaymentProvider, order: { id: number; totalPrice: number }, now = new Date()): Promise<PaymentRow> {
  const payment = await openPayment(getDb(), { orderId: order.id, amount: order.totalPrice, provider: 'simulator' });
  const start = provider.startCheckout({
    orderId: order.id,
    merchantTradeNo: payment.merchantTradeNo,
    amount: payment.amount,
    createdAt: payment.createdAt,
    itemName: '台北老街導覽',
    callbackUrl: 'http://127.0.0.1:9/payments/callback',
    returnUrl: 'http://127.0.0.1:9/booking-success',
  });
  if (start.kind !== 'form') throw new Error('expected a checkout form');
  const accepted = await acceptCheckout(getDb(), start.fields, now);
  if (!accepted.ok) throw new Error(accepted.message);
  const paid = await payWithCard(getDb(), accepted.trade.tradeNo, SIMULATOR_CARDS.approved, now);
  const delivery = paid.deliveries.find((d) => d.target === 'server');
  if (!delivery) throw new Error('no server callback');
  const verdict = provider.verifyCallback(new URLSearchParams(delivery.fields).toString(), new Headers({ 'content-type': 'application/x-www-form-urlencoded' }));
  if (!verdict.ok) throw new Error(verdict.reason);
  const recorded = await recordProviderEvent(getDb(), 'simulator', verdict.event, now);
  if (recorded.outcome !== 'applied') throw new Error(`callback ${recorded.outcome}`);
  return recorded.payment;
}

const tradeOf = (p: PaymentRow) => ({ merchantTradeNo: p.merchantTradeNo, providerTradeNo: p.providerTradeNo! });

/** Captures at the simulator, then records it. */
export async function capturePayment(provider: PaymentProvider, payment: PaymentRow, now = new Date()): Promise<PaymentRow> {
  const answer = await provider.capture(tradeOf(payment), payment.amount);
  if (!answer.ok) throw new Error(answer.message);
  const updated = await inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'capture' }, { now }));
  if (!updated) throw new Error('capture refused');
  return updated;
}

/** Refunds at the simulator, then records it. */
export async function refundPayment(provider: PaymentProvider, payment: PaymentRow, amount: number, now = new Date()): Promise<PaymentRow> {
  const answer = await provider.refund(tradeOf(payment), amount);
  if (!answer.ok) throw new Error(answer.message);
  const updated = await inTx((tx) => applyPaymentTransition(tx, payment.id, { kind: 'refund', amount }, { now }));
  if (!updated) throw new Error('refund refused');
  return updated;
}

/** The order's held money to the guide's payable and the commission (as completion does). */
export function settle(order: { id: number; guideId: number; commissionPercent: number }) {
  return inTx((tx) => recordSettlement(tx, { orderId: order.id, guideId: order.guideId, commissionPercent: order.commissionPercent, idempotencyKey: `order:${order.id}:settle` }));
}

/** A payout of everything the guide has earned (the hold ignored), to the bank account given. */
export async function payOut(guideId: number, bank = { bankCode: '812', accountNumber: '00012345678' }) {
  await savePayoutAccount(getDb(), { guideId, ...bank, now: new Date() });
  const payout = await inTx((tx) => startPayout(tx, { guideId, settledBefore: new Date(Date.now() + 86_400_000) }));
  if (!payout) throw new Error('nothing to pay out');
  return payout;
}
