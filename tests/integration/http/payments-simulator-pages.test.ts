import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '~/env.server';
import { createPaymentProvider } from '~/services/payments/configured-provider.server';
import type { PaymentEvent, PaymentProvider } from '~/services/payments/provider.server';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * The simulator's card page and paths over real HTTP, as a browser without JavaScript uses them (docs/decisions/039):
 * the checkout form posted to the simulator's AioCheckOut path, the card page in three languages saying "test
 * mode", a card refused, approved, the signed result carried back by the browser and sent to the shop's server, then
 * capture and query through the simulator's server-to-server paths. The shop's side is a small local server here
 * (its callback route is the wiring step's), verifying with the same ECPay adapter.
 */
useTestDatabase();
const server = useTestServer();

let shop: http.Server;
let shopUrl = '';
let provider: PaymentProvider;
const serverEvents: PaymentEvent[] = [];

beforeAll(async () => {
  shop = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const verdict = provider.verifyCallback(Buffer.concat(chunks).toString('utf8'), new Headers({ 'content-type': req.headers['content-type'] ?? '' }));
      if (!verdict.ok) return void res.writeHead(400).end('0|refused');
      serverEvents.push(verdict.event);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(verdict.reply);
    });
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  provider = createPaymentProvider(parseConfig({ PUBLIC_URL: server.baseUrl, SESSION_SECRET: 'x'.repeat(40) }));
});
afterAll(() => new Promise<void>((resolve) => shop.close(() => resolve())));

const form = (path: string, values: Record<string, string>, language = 'zh-TW') =>
  server.request(path, {
    method: 'POST',
    origin: server.baseUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': language },
    body: new URLSearchParams(values).toString(),
  });

const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
/** The hidden fields of the form that goes back to the shop (the page's header has forms of its own). */
function hiddenFields(page: string): Record<string, string> {
  const start = page.indexOf(`action="${shopUrl}/return"`);
  const html = start < 0 ? '' : page.slice(start, page.indexOf('</form>', start));
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) fields[decode(m[1]!)] = decode(m[2]!);
  return fields;
}

let counter = 0;
function checkoutForm(amount: number) {
  const start = provider.startCheckout({
    orderId: 7,
    merchantTradeNo: `PG${Date.now().toString(36)}${counter++}`.slice(0, 20),
    amount,
    createdAt: new Date(),
    itemName: '九份老街 半日導覽',
    callbackUrl: `${shopUrl}/callback`,
    returnUrl: `${shopUrl}/return`,
  });
  if (start.kind !== 'form') throw new Error('form expected');
  return start;
}

describe(`payment simulator pages (${testDriver})`, () => {
  it('checkout → card page (test mode, three languages) → a wrong card, then the test card → the signed result back to the shop → capture and query', async () => {
    const start = checkoutForm(3000);
    expect(new URL(start.action).pathname).toBe('/payments/simulator/Cashier/AioCheckOut/V5');
    const posted = await form(new URL(start.action).pathname, start.fields);
    expect(posted.status).toBe(303);
    const cardPath = posted.headers.get('location')!;
    expect(cardPath).toMatch(/^\/payments\/simulator\/pay\/[0-9]{16}$/);

    const zh = await server.request(cardPath, { headers: { 'accept-language': 'zh-TW' } });
    expect(zh.status).toBe(200);
    expect(zh.text).toContain('測試模式：不會有真實款項移動');
    expect(zh.text).toContain('NT$3,000');
    expect(zh.text).toContain('九份老街 半日導覽');
    expect((await server.request(cardPath, { headers: { 'accept-language': 'en' } })).text).toContain('Test mode: no real money moves.');
    expect((await server.request(cardPath, { headers: { 'accept-language': 'ja' } })).text).toContain('テストモード');

    const wrong = await form(cardPath, { cardNumber: '4111 1111 1111 1111' });
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('模擬器只接受兩張測試卡');

    const paid = await form(cardPath, { cardNumber: '4311-9522-2222-2222' });
    expect(paid.status).toBe(200);
    expect(paid.text).toContain('付款成功：已授權 NT$3,000');
    expect(paid.text).toContain(`action="${shopUrl}/return"`);
    // The browser's way back carries the signed result: the shop's adapter verifies it.
    const back = provider.verifyCallback(new URLSearchParams(hiddenFields(paid.text)).toString(), new Headers({ 'content-type': 'application/x-www-form-urlencoded' }));
    expect(back).toMatchObject({ ok: true, event: { kind: 'authorised', amount: 3000, merchantTradeNo: start.fields.MerchantTradeNo } });

    // The server callback arrives by itself (in the background of the card page's answer).
    for (let i = 0; i < 100 && !serverEvents.some((e) => e.merchantTradeNo === start.fields.MerchantTradeNo); i++) await new Promise((r) => setTimeout(r, 50));
    const event = serverEvents.find((e) => e.merchantTradeNo === start.fields.MerchantTradeNo)!;
    expect(event).toMatchObject({ kind: 'authorised', amount: 3000 });

    // Trying again shows the trade as done; capture and query go through the simulator's own paths on this server.
    expect((await form(cardPath, { cardNumber: '4311-9522-2222-2222' })).text).toContain('這筆付款已經處理過了');
    const trade = { merchantTradeNo: event.merchantTradeNo, providerTradeNo: event.providerTradeNo };
    expect(await provider.capture(trade, 3000)).toEqual({ ok: true });
    expect(await provider.queryTrade(event.merchantTradeNo)).toMatchObject({ status: 'paid', amount: 3000 });
  });

  it('a declined card is said so; a forged checkout is refused; unknown trades are 404', async () => {
    const start = checkoutForm(1200);
    const cardPath = (await form('/payments/simulator/Cashier/AioCheckOut/V5', start.fields)).headers.get('location')!;
    const declined = await form(cardPath, { cardNumber: '4000000000000002' }, 'en');
    expect(declined.text).toContain('The card was declined. No money was taken.');
    expect(hiddenFields(declined.text).RtnCode).not.toBe('1');

    const forged = await form('/payments/simulator/Cashier/AioCheckOut/V5', { ...checkoutForm(500).fields, TotalAmount: '5' });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('CheckMacValue error');
    expect((await server.request('/payments/simulator/pay/0000000000000000')).status).toBe(404);
    expect((await server.request('/payments/simulator/pay/abc')).status).toBe(404);
  });
});
