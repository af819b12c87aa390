import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { simulatorTrades } from '~db/schema';
import { parseConfig } from '~/env.server';
import { createPaymentProvider, paymentProviderName } from '~/services/payments/configured-provider.server';
import { createEcpayProvider } from '~/services/payments/ecpay.server';
import { ECPAY_PATHS } from '~/services/payments/ecpay-protocol.server';
import { ProviderUnavailableError } from '~/services/payments/form-post.server';
import type { PaymentEvent, PaymentProvider } from '~/services/payments/provider.server';
import {
  acceptCheckout,
  deliverServerCallback,
  handleSimulatorApi,
  payWithCard,
  setSimulatorSwitches,
  SIMULATOR_CARDS,
  SIMULATOR_MERCHANT,
  SIMULATOR_PATH,
} from '~/services/payments/simulator.server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The simulator and the ECPay adapter talking over real HTTP (docs/decisions/039): the simulator's server-to-server
 * paths and a merchant's callback endpoint (which verifies with the adapter, as the product's callback route will)
 * are served by a local HTTP server; the adapter is the one the product uses, configured against the simulator.
 */
useTestDatabase();

const readBody = (req: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

let server: http.Server;
let baseUrl: string;
let provider: PaymentProvider;
/** What the merchant's callback endpoint received: verified events, and refusals. */
const received: { events: PaymentEvent[]; refused: string[]; browser: PaymentEvent[] } = { events: [], refused: [], browser: [] };
/** The merchant answers 1|OK only once it has "stored" the event; a failing merchant answers 500 this many times. */
let merchantFailures = 0;

beforeAll(async () => {
  server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url!, 'http://x');
    const headers = new Headers(Object.entries(req.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])) as [string, string][]);
    if (url.pathname.startsWith(SIMULATOR_PATH)) {
      const answer = await handleSimulatorApi(getDb(), url.pathname.slice(SIMULATOR_PATH.length), body, new Date());
      res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8' }).end(answer.body);
      return;
    }
    if (url.pathname === '/merchant/callback' || url.pathname === '/merchant/return') {
      const verdict = provider.verifyCallback(body, headers);
      if (!verdict.ok) {
        received.refused.push(verdict.reason);
        res.writeHead(400).end('0|refused');
        return;
      }
      if (url.pathname === '/merchant/return') {
        received.browser.push(verdict.event);
        res.writeHead(303, { location: '/done' }).end();
        return;
      }
      if (merchantFailures > 0) {
        merchantFailures--;
        res.writeHead(500).end('busy');
        return;
      }
      received.events.push(verdict.event);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(verdict.reply);
      return;
    }
    if (url.pathname.startsWith('/slow/')) return; // never answers
    if (url.pathname.startsWith('/huge/')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(200 * 1024));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider = createPaymentProvider(parseConfig({ PUBLIC_URL: baseUrl, SESSION_SECRET: 'x'.repeat(40) }));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
afterEach(() => {
  setSimulatorSwitches(undefined);
  received.events.length = 0;
  received.refused.length = 0;
  received.browser.length = 0;
  merchantFailures = 0;
});

let tradeCounter = 0;
function checkout(amount: number) {
  const merchantTradeNo = `T${Date.now().toString(36)}${tradeCounter++}`.slice(0, 20);
  const start = provider.startCheckout({
    orderId: 100 + tradeCounter,
    merchantTradeNo,
    amount,
    createdAt: new Date(),
    itemName: '台北老街導覽 — 2026-12-05 上午',
    callbackUrl: `${baseUrl}/merchant/callback`,
    returnUrl: `${baseUrl}/merchant/return`,
  });
  if (start.kind !== 'form') throw new Error('expected a form');
  return { merchantTradeNo, start };
}

async function payAndDeliver(amount: number, card: string) {
  const { merchantTradeNo, start } = checkout(amount);
  expect(start.action).toBe(`${baseUrl}${SIMULATOR_PATH}${ECPAY_PATHS.checkout}`);
  const accepted = await acceptCheckout(getDb(), start.fields, new Date());
  if (!accepted.ok) throw new Error(accepted.message);
  const paid = await payWithCard(getDb(), accepted.trade.tradeNo, card, new Date());
  for (const d of paid.deliveries.filter((x) => x.target === 'server')) await deliverServerCallback(d, { retryDelayMs: 10 });
  return { merchantTradeNo, tradeNo: accepted.trade.tradeNo, paid };
}

describe(`payment simulator ↔ ECPay adapter (${testDriver})`, () => {
  it('the simulator is the default provider; a production deployment on PostgreSQL must name one', () => {
    expect(paymentProviderName({ NODE_ENV: 'development', DATABASE_URL: undefined, PAYMENT_PROVIDER: undefined })).toBe('simulator');
    expect(() => paymentProviderName({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', PAYMENT_PROVIDER: undefined })).toThrow(/PAYMENT_PROVIDER/);
    expect(paymentProviderName({ NODE_ENV: 'production', DATABASE_URL: 'postgres://x/y', PAYMENT_PROVIDER: 'ecpay' })).toBe('ecpay');
    expect(() => parseConfig({ PAYMENT_PROVIDER: 'ecpay', SESSION_SECRET: 'x'.repeat(40) })).toThrow(/ECPAY_MERCHANT_ID/);
    expect(() => parseConfig({ PLATFORM_COMMISSION_PERCENT: '12.5', SESSION_SECRET: 'x'.repeat(40) })).toThrow(/PLATFORM_COMMISSION_PERCENT/);
    expect(parseConfig({ SESSION_SECRET: 'x'.repeat(40) })).toMatchObject({ PLATFORM_COMMISSION_PERCENT: 10, PAYMENT_WINDOW_MINUTES: 30, PAYOUT_HOLD_DAYS: 3, ECPAY_MODE: 'stage' });
    expect(provider.name).toBe('simulator');
  });

  it('checkout → approved card → signed callback verified by the adapter → capture → partial refunds → query', async () => {
    const { merchantTradeNo, tradeNo, paid } = await payAndDeliver(3000, '4311-9522-2222-2222');
    expect(paid.outcome).toBe('approved');
    expect(received.events).toEqual([
      expect.objectContaining({ kind: 'authorised', merchantTradeNo, providerTradeNo: tradeNo, amount: 3000, providerEventId: `${tradeNo}:1` }),
    ]);
    const trade = { merchantTradeNo, providerTradeNo: tradeNo };
    // A refund before capture is refused; capture, then capture again (a retried job) both succeed.
    expect(await provider.refund(trade, 100)).toMatchObject({ ok: false });
    expect(await provider.capture(trade, 3000)).toEqual({ ok: true });
    expect(await provider.capture(trade, 3000)).toEqual({ ok: true });
    expect(await provider.refund(trade, 1500)).toEqual({ ok: true });
    expect(await provider.refund(trade, 1500)).toEqual({ ok: true });
    expect(await provider.refund(trade, 1)).toMatchObject({ ok: false });
    const [row] = await getDb().select().from(simulatorTrades).where(eq(simulatorTrades.tradeNo, tradeNo));
    expect(row).toMatchObject({ status: 'closed', refundedAmount: 3000, cardLast4: '2222' });
    expect(await provider.queryTrade(merchantTradeNo)).toMatchObject({ status: 'paid', amount: 3000, providerTradeNo: tradeNo });
  });

  it('a declined card sends a failed result; an authorisation can be voided; unknown trades query as unpaid', async () => {
    const declined = await payAndDeliver(1200, SIMULATOR_CARDS.declined);
    expect(declined.paid.outcome).toBe('declined');
    expect(received.events).toEqual([expect.objectContaining({ kind: 'failed', merchantTradeNo: declined.merchantTradeNo })]);
    expect(await provider.queryTrade(declined.merchantTradeNo)).toMatchObject({ status: 'failed' });
    // The trade was tried: trying another card on it changes nothing.
    expect((await payWithCard(getDb(), declined.tradeNo, SIMULATOR_CARDS.approved, new Date())).outcome).toBe('not_open');

    const approved = await payAndDeliver(800, SIMULATOR_CARDS.approved);
    const trade = { merchantTradeNo: approved.merchantTradeNo, providerTradeNo: approved.tradeNo };
    expect(await provider.void(trade, 800)).toEqual({ ok: true });
    expect(await provider.capture(trade, 800)).toMatchObject({ ok: false });
    expect(await provider.queryTrade('NOSUCHTRADE1')).toMatchObject({ status: 'unpaid', providerTradeNo: null });
  });

  it('refuses a checkout with a forged CheckMacValue, a changed amount, or a number that is not a test card', async () => {
    const { start } = checkout(500);
    if (start.kind !== 'form') throw new Error('form');
    expect(await acceptCheckout(getDb(), { ...start.fields, TotalAmount: '5' }, new Date())).toEqual({ ok: false, message: 'CheckMacValue error' });
    expect(await acceptCheckout(getDb(), { ...start.fields, CheckMacValue: '0'.repeat(64) }, new Date())).toEqual({ ok: false, message: 'CheckMacValue error' });
    const first = await acceptCheckout(getDb(), start.fields, new Date());
    const again = await acceptCheckout(getDb(), start.fields, new Date());
    expect(first.ok && again.ok && first.trade.tradeNo === again.trade.tradeNo).toBe(true);
    if (!first.ok) return;
    expect((await payWithCard(getDb(), first.trade.tradeNo, '4111111111111111', new Date())).outcome).toBe('not_a_test_card');
  });

  it('a forged callback is refused by the adapter and never reaches the merchant as an event', async () => {
    const { tradeNo, merchantTradeNo } = await payAndDeliver(900, SIMULATOR_CARDS.approved);
    received.events.length = 0;
    const forged = { MerchantID: SIMULATOR_MERCHANT.merchantId, MerchantTradeNo: merchantTradeNo, RtnCode: '1', TradeNo: tradeNo, TradeAmt: '9', CheckMacValue: 'A'.repeat(64) };
    const result = await deliverServerCallback({ target: 'server', url: `${baseUrl}/merchant/callback`, fields: forged, delayMs: 0 }, { attempts: 1 });
    expect(result.accepted).toBe(false);
    expect(received.refused).toEqual(['bad_signature']);
    expect(received.events).toEqual([]);
  });

  it('test switches: a callback twice, the browser back first, a late callback, a merchant that fails first, a refund that fails', async () => {
    setSimulatorSwitches({ duplicateCallback: true, browserReturnFirst: true, callbackDelayMs: 50, failRefunds: true });
    const { merchantTradeNo, start } = checkout(2500);
    if (start.kind !== 'form') throw new Error('form');
    const accepted = await acceptCheckout(getDb(), start.fields, new Date());
    if (!accepted.ok) throw new Error(accepted.message);
    const paid = await payWithCard(getDb(), accepted.trade.tradeNo, SIMULATOR_CARDS.approved, new Date());
    expect(paid.deliveries.map((d) => d.target)).toEqual(['browser', 'server', 'server']);
    expect(paid.deliveries.filter((d) => d.target === 'server').every((d) => d.delayMs === 50)).toBe(true);
    // The browser's return carries the same signed result (the merchant verifies it, but waits for the server's).
    const back = paid.deliveries[0]!;
    await fetch(back.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(back.fields), redirect: 'manual' });
    expect(received.browser).toHaveLength(1);
    // The merchant fails the first delivery: the simulator tries again until it hears 1|OK.
    merchantFailures = 1;
    const outcomes = [];
    for (const d of paid.deliveries.slice(1)) outcomes.push(await deliverServerCallback(d, { retryDelayMs: 10 }));
    expect(outcomes).toEqual([
      { accepted: true, attempts: 2 },
      { accepted: true, attempts: 1 },
    ]);
    // The same event twice, with the same provider event id: stored once by the product (payment_events is unique).
    expect(received.events.map((e) => e.providerEventId)).toEqual([`${accepted.trade.tradeNo}:1`, `${accepted.trade.tradeNo}:1`]);
    const trade = { merchantTradeNo, providerTradeNo: accepted.trade.tradeNo };
    expect(await provider.capture(trade, 2500)).toEqual({ ok: true });
    expect(await provider.refund(trade, 1000)).toMatchObject({ ok: false, message: 'refund failed (test switch)' });
  });

  it('a provider that is down, silent or flooding is an error to retry, within the deadline and the size cap', async () => {
    const down = createEcpayProvider({ name: 'ecpay', ...SIMULATOR_MERCHANT, baseUrl: 'http://127.0.0.1:9' });
    await expect(down.capture({ merchantTradeNo: 'X1', providerTradeNo: '1' }, 100)).rejects.toBeInstanceOf(ProviderUnavailableError);
    const silent = createEcpayProvider({ name: 'ecpay', ...SIMULATOR_MERCHANT, baseUrl: `${baseUrl}/slow`, http: { timeoutMs: 300 } });
    const started = Date.now();
    await expect(silent.queryTrade('X1')).rejects.toThrow(/no answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
    const huge = createEcpayProvider({ name: 'ecpay', ...SIMULATOR_MERCHANT, baseUrl: `${baseUrl}/huge`, http: { maxBytes: 16 * 1024 } });
    await expect(huge.refund({ merchantTradeNo: 'X1', providerTradeNo: '1' }, 1)).rejects.toThrow(/over 16384 bytes/);
  });
});
