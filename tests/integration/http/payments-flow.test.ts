import net from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { ledgerEntries, ledgerPostings, notifications, orders, outbox, paymentEvents, payments, simulatorTrades } from '~db/schema';
import { getConfig } from '~/env.server';
import { addDays, todayInTaipei } from '~/lib/dates';
import { slotHoursText } from '~/lib/time-slots';
import { slotStartsAt } from '~/lib/time-slots';
import { setClock } from '~/services/platform/clock.server';
import { counterFamilies } from '~/services/platform/counters.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { signed } from '~/services/payments/check-mac-value.server';
import { createPaymentProvider, usePaymentProvider } from '~/services/payments/configured-provider.server';
import { orderMoney } from '~/services/payments/ledger.server';
import { expireUnpaidOrders } from '~/services/payments/order-payments.server';
import { setSimulatorSwitches, SIMULATOR_MERCHANT } from '~/services/payments/simulator.server';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { usePaymentsOn, usePaymentWorker, waitForPayment } from '../../support/payments';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Paying for a booking over real HTTP (issue 32), as a browser without JavaScript does it: the booking form, the
 * checkout page's provider form posted to the simulator, the card page, the signed result carried back to
 * /payments/return/:id, while the simulator's server callback reaches /payments/callback on its own. A real outbox
 * worker runs the payment lane (capture, void, refund, settle) against this server's simulator.
 */
useTestDatabase();
const server = useTestServer();
usePaymentsOn(server);
usePaymentWorker();

beforeEach(() => resetRateLimits());
afterEach(() => {
  setClock(undefined);
  setSimulatorSwitches(undefined);
  usePaymentProvider(undefined);
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const post = (path: string, values: Record<string, string>, cookie?: string) =>
  server.request(path, { method: 'POST', cookie, origin: server.baseUrl, headers: FORM, body: new URLSearchParams(values).toString() });

const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
/** The action and hidden fields of the first form of a page whose opening tag matches `opening`. */
function formOf(page: string, opening: RegExp): { action: string; fields: Record<string, string> } {
  const match = opening.exec(page);
  if (!match) throw new Error(`no form ${opening} on the page`);
  const html = page.slice(match.index, page.indexOf('</form>', match.index));
  const action = decode(/action="([^"]*)"/.exec(match[0])?.[1] ?? '');
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) fields[decode(m[1]!)] = decode(m[2]!);
  return { action, fields };
}
const pathOf = (url: string) => {
  const u = new URL(url, server.baseUrl);
  expect(u.origin).toBe(server.baseUrl);
  return u.pathname + u.search;
};

const CARDS = { approved: '4311 9522 2222 2222', declined: '4000000000000002' };

let seq = 0;
async function setup(options: { days?: number; slot?: 'morning' | 'afternoon' | 'evening' } = {}) {
  const guide = await createGuide({ price: 3000, locale: 'en', name: `Guide ${++seq}` });
  const day = addDays(todayInTaipei(), options.days ?? 6);
  await createAvailability(guide.id, { from: day, days: 1, price: 3000 });
  const traveler = await createTraveler({ name: `Traveler ${seq}` });
  const [t, g] = [await loginAs(traveler), await loginAs(guide)];
  return { guide, traveler, day, slot: options.slot ?? 'morning', t, g };
}
type Setup = Awaited<ReturnType<typeof setup>>;

/** The booking form, JS off: 302 to the payment step. Returns the order's id. */
async function bookByForm(s: Setup): Promise<number> {
  const booked = await post(`/booking/${s.guide.id}`, { slot: `${s.day}|${s.slot}`, numberOfPeople: '2', termsAccepted: 'on' }, s.t.cookie);
  expect(booked.status).toBe(302);
  const location = booked.headers.get('location')!;
  expect(location).toMatch(/^\/orders\/\d+\/pay$/);
  return Number(location.split('/')[2]);
}

/** /orders/:id/pay → the provider's form → the simulator's card page. Returns the card page's path and the form's fields. */
async function openCardPage(s: Setup, orderId: number) {
  const checkout = await server.request(`/orders/${orderId}/pay`, { cookie: s.t.cookie });
  expect(checkout.status).toBe(200);
  expect(checkout.headers.get('content-type')).toMatch(/^text\/html/);
  const form = formOf(checkout.text, /<form[^>]*data-testid="checkout-form"[^>]*>|<form[^>]*action="[^"]*AioCheckOut[^"]*"[^>]*>/);
  expect(new URL(form.action).pathname).toBe('/payments/simulator/Cashier/AioCheckOut/V5');
  expect(form.fields).toMatchObject({ TotalAmount: '3000', ReturnURL: `${server.baseUrl}/payments/callback` });
  const accepted = await post(pathOf(form.action), form.fields);
  expect(accepted.status).toBe(303);
  const cardPath = accepted.headers.get('location')!;
  expect(cardPath).toMatch(/^\/payments\/simulator\/pay\/[0-9]{16,20}$/);
  const card = await server.request(cardPath, { headers: { 'accept-language': 'en' } });
  expect(card.status).toBe(200);
  expect(card.text).toContain('Test mode');
  // What the traveler buys, the same in every language: the guide, the day and the slot's hours.
  expect(card.text).toContain(`${s.guide.name} ${s.day} ${slotHoursText(s.slot)}`);
  return { cardPath, merchantTradeNo: form.fields.MerchantTradeNo!, tradeNo: cardPath.split('/').at(-1)! };
}

/** The card page's form, then the "return to the shop" form it shows. Returns the return form. */
async function submitCard(cardPath: string, card: keyof typeof CARDS) {
  const answered = await post(cardPath, { cardNumber: CARDS[card] });
  expect(answered.status).toBe(200);
  const back = formOf(answered.text, /<form method="post" action="[^"]*\/payments\/return\/\d+"[^>]*>/);
  expect(back.fields).toMatchObject({ RtnCode: card === 'approved' ? '1' : expect.not.stringMatching(/^1$/), CheckMacValue: expect.any(String) });
  return back;
}

/** The browser posts the signed result back: 303 to the booking's outcome page. */
async function returnToShop(s: Setup, orderId: number, back: { action: string; fields: Record<string, string> }) {
  expect(pathOf(back.action)).toBe(`/payments/return/${orderId}`);
  const returned = await post(`/payments/return/${orderId}`, back.fields, s.t.cookie);
  expect(returned.status).toBe(303);
  expect(returned.headers.get('location')).toBe(`/booking-success?order=${orderId}`);
  return returned;
}

/** The whole browser walk with one card. */
async function payInBrowser(s: Setup, orderId: number, card: keyof typeof CARDS = 'approved') {
  const { cardPath, merchantTradeNo } = await openCardPage(s, orderId);
  const back = await submitCard(cardPath, card);
  await returnToShop(s, orderId, back);
  return { merchantTradeNo, back };
}

const eventsOf = async (paymentId: number) => getDb().select().from(paymentEvents).where(eq(paymentEvents.paymentId, paymentId));
const entriesOf = async (orderId: number) =>
  (await getDb().select({ kind: ledgerEntries.kind }).from(ledgerEntries).where(eq(ledgerEntries.orderId, orderId)).orderBy(ledgerEntries.id)).map((e) => e.kind);
const guideNotices = async (guideId: number) => (await getDb().select().from(notifications).where(eq(notifications.userId, guideId))).map((n) => n.type);
const tradeOf = async (merchantTradeNo: string) => (await getDb().select().from(simulatorTrades).where(eq(simulatorTrades.merchantTradeNo, merchantTradeNo)))[0]!;
function eventCount(outcome: string): number {
  const family = counterFamilies().find((f) => f.name === 'payment_events_total')!;
  return family.samples.filter(([labels]) => labels.outcome === outcome).reduce((sum, [, value]) => sum + value, 0);
}
async function waitUntil<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const put = (token: string, id: number, json: unknown) => server.request(`/api/v1/orders/${id}`, { method: 'PUT', token, json });

describe(`paying for a booking over HTTP (${testDriver})`, () => {
  it('pays: booking form → checkout → simulator → card → back to the shop; authorised, the guide told, the API shows the payment', async () => {
    const s = await setup();
    const orderId = await bookByForm(s);
    expect(await guideNotices(s.guide.id)).toEqual([]);
    const { merchantTradeNo } = await payInBrowser(s, orderId);

    const payment = await waitForPayment(orderId, 'authorised');
    expect(payment).toMatchObject({ amount: 3000, capturedAmount: 0, merchantTradeNo });
    // The browser's return and the server's callback carry the same event: stored once.
    await waitUntil('the server callback', () => eventsOf(payment.id), (rows) => rows.length === 1);
    expect((await eventsOf(payment.id)).map((e) => e.outcome)).toEqual(['applied']);
    expect(await guideNotices(s.guide.id)).toEqual(['order.booked']);
    expect(await entriesOf(orderId)).toEqual(['authorise']);

    const outcome = await server.request(`/booking-success?order=${orderId}`, { cookie: s.t.cookie, headers: { 'accept-language': 'en' } });
    expect(outcome.status).toBe(200);
    expect(outcome.text).toContain('data-testid="payment-outcome"');
    // Paid: the checkout page sends the traveler on to the outcome.
    const again = await server.request(`/orders/${orderId}/pay`, { cookie: s.t.cookie });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe(`/booking-success?order=${orderId}`);

    const api = await server.request(`/api/v1/orders/${orderId}`, { token: s.t.token });
    expect(api.status).toBe(200);
    expect(api.json.data.payment).toMatchObject({ status: 'authorised', amount: 3000, captured: 0, refunded: 0, provider: 'simulator', checkoutUrl: null, payBy: null });
    expect((await server.request('/api/v1/orders', { token: s.g.token })).json.data.orders.map((o: { id: number }) => o.id)).toContain(orderId);
  });

  it('a declined card, then another attempt with a new trade number, approved', async () => {
    const s = await setup();
    const orderId = await bookByForm(s);
    const first = await payInBrowser(s, orderId, 'declined');
    await waitForPayment(orderId, 'failed');
    const outcome = await server.request(`/booking-success?order=${orderId}`, { cookie: s.t.cookie });
    expect(outcome.text).toContain(`href="/orders/${orderId}/pay"`);
    expect(await guideNotices(s.guide.id)).toEqual([]);

    const declined = await server.request(`/orders/${orderId}/pay`, { cookie: s.t.cookie });
    expect(declined.status).toBe(200);
    expect(declined.text).toContain('role="alert"');
    const retried = await post(`/orders/${orderId}/pay`, {}, s.t.cookie);
    expect(retried.status).toBe(303);
    expect(retried.headers.get('location')).toBe(`/orders/${orderId}/pay`);

    const second = await payInBrowser(s, orderId, 'approved');
    expect(second.merchantTradeNo).not.toBe(first.merchantTradeNo);
    await waitForPayment(orderId, 'authorised');
    const rows = await getDb().select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.id);
    expect(rows.map((p) => [p.merchantTradeNo, p.status])).toEqual([
      [first.merchantTradeNo, 'failed'],
      [second.merchantTradeNo, 'authorised'],
    ]);
    expect(await guideNotices(s.guide.id)).toEqual(['order.booked']);
    expect(await entriesOf(orderId)).toEqual(['authorise']);
  });

  it('abandoned: the window passes, the order expires and the slot can be booked again', async () => {
    const s = await setup();
    const orderId = await bookByForm(s);
    await openCardPage(s, orderId); // on the card page, and gone
    const later = new Date(Date.now() + (getConfig().PAYMENT_WINDOW_MINUTES + 1) * 60_000);
    const { expired } = await getDb().transaction((tx) => expireUnpaidOrders(tx as never, later));
    expect(expired).toBeGreaterThanOrEqual(1);
    const [order] = await getDb().select().from(orders).where(eq(orders.id, orderId));
    expect(order!.status).toBe('cancelled');
    await waitForPayment(orderId, 'expired');
    expect(await guideNotices(s.guide.id)).toEqual([]);
    expect(await entriesOf(orderId)).toEqual([]);
    const closed = await server.request(`/orders/${orderId}/pay`, { cookie: s.t.cookie });
    expect(closed.status).toBe(200);
    expect(closed.text).not.toContain('data-testid="checkout-form"');

    const other = await loginAs(await createTraveler());
    const again = await server.request('/api/v1/orders', { token: other.token, json: { guideId: s.guide.id, date: s.day, timeSlot: s.slot, numberOfPeople: 1, termsAccepted: true } });
    expect(again.status).toBe(201);
    expect(again.json.data.payment).toMatchObject({ status: 'unpaid' });
  });

  it('the server callback twice: applied once, the repeat a duplicate', async () => {
    setSimulatorSwitches({ duplicateCallback: true, callbackDelayMs: 300 });
    const s = await setup();
    const orderId = await bookByForm(s);
    const duplicatesBefore = eventCount('duplicate');
    const { cardPath } = await openCardPage(s, orderId);
    await submitCard(cardPath, 'approved'); // the browser does not come back: only the two server callbacks
    const payment = await waitForPayment(orderId, 'authorised');
    await waitUntil('the second callback', () => eventCount('duplicate') - duplicatesBefore, (n) => n >= 1);
    expect(eventCount('duplicate') - duplicatesBefore).toBe(1);
    expect((await eventsOf(payment.id)).map((e) => e.outcome)).toEqual(['applied']);
    expect(await guideNotices(s.guide.id)).toEqual(['order.booked']);
    expect(await entriesOf(orderId)).toEqual(['authorise']);
  });

  it('the browser back before the server callback: the return applies it, the late callback is a duplicate', async () => {
    setSimulatorSwitches({ browserReturnFirst: true, callbackDelayMs: 1500 });
    const s = await setup();
    const orderId = await bookByForm(s);
    const duplicatesBefore = eventCount('duplicate');
    const { cardPath } = await openCardPage(s, orderId);
    const back = await submitCard(cardPath, 'approved');
    await returnToShop(s, orderId, back);
    // Applied by the browser's return, before the server callback was sent.
    const [payment] = await getDb().select().from(payments).where(eq(payments.orderId, orderId));
    expect(payment!.status).toBe('authorised');
    expect(eventCount('duplicate') - duplicatesBefore).toBe(0);
    await waitUntil('the late callback', () => eventCount('duplicate') - duplicatesBefore, (n) => n >= 1);
    expect((await eventsOf(payment!.id)).map((e) => e.outcome)).toEqual(['applied']);
    expect(await guideNotices(s.guide.id)).toEqual(['order.booked']);
    expect(await entriesOf(orderId)).toEqual(['authorise']);
  });

  it('a forged CheckMacValue is 400 and changes nothing; a genuine callback for an unknown trade is 404', async () => {
    const s = await setup();
    const paidOrder = await bookByForm(s);
    const { cardPath } = await openCardPage(s, paidOrder);
    const genuine = (await submitCard(cardPath, 'approved')).fields;
    await waitForPayment(paidOrder, 'authorised');

    // Another order of the same traveler, still unpaid: the genuine result's fields with its trade number, unsigned.
    const other = await setup();
    const unpaidOrder = await bookByForm(other);
    const [unpaid] = await getDb().select().from(payments).where(eq(payments.orderId, unpaidOrder));
    const forged = await post('/payments/callback', { ...genuine, MerchantTradeNo: unpaid!.merchantTradeNo });
    expect(forged.status).toBe(400);
    expect(forged.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(forged.text).toMatch(/^0\|/);
    // A forged amount on the real trade: refused too.
    expect((await post('/payments/callback', { ...genuine, TradeAmt: '1' })).status).toBe(400);
    const [after] = await getDb().select().from(payments).where(eq(payments.id, unpaid!.id));
    expect(after).toMatchObject({ status: 'unpaid', providerTradeNo: null });
    expect(await eventsOf(unpaid!.id)).toEqual([]);
    // The forged browser return goes to the outcome page and changes nothing either.
    expect((await post(`/payments/return/${unpaidOrder}`, { ...genuine, MerchantTradeNo: unpaid!.merchantTradeNo }, other.t.cookie)).status).toBe(303);
    expect((await getDb().select().from(payments).where(eq(payments.id, unpaid!.id)))[0]!.status).toBe('unpaid');
    expect(await guideNotices(other.guide.id)).toEqual([]);

    // Signed with the simulator's keys, for a trade we never opened: 404, so a provider would send it again.
    const { CheckMacValue: _mac, ...fields } = genuine;
    const unknown = await post('/payments/callback', signed({ ...fields, MerchantTradeNo: 'LYNOSUCHTRADE0001' }, SIMULATOR_MERCHANT.keys));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toBe('0|unknown trade');
  });

  it('PUT confirm of an unpaid order is 409 PAYMENT_REQUIRED; paid, it is confirmed and captured', async () => {
    const s = await setup();
    const booked = await server.request('/api/v1/orders', { token: s.t.token, json: { guideId: s.guide.id, date: s.day, timeSlot: s.slot, numberOfPeople: 2, termsAccepted: true } });
    expect(booked.status).toBe(201);
    expect(booked.json.data.payment).toMatchObject({ status: 'unpaid', amount: 3000 });
    const orderId = booked.json.data.order.id as number;
    const refused = await put(s.g.token, orderId, { status: 'confirmed' });
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ success: false, code: 'PAYMENT_REQUIRED' });
    expect((await getDb().select().from(orders).where(eq(orders.id, orderId)))[0]!.status).toBe('pending');
    expect(await getDb().select().from(outbox).where(eq(outbox.dedupeKey, `order:${orderId}:confirm`))).toEqual([]);

    const { merchantTradeNo } = await payInBrowser(s, orderId);
    await waitForPayment(orderId, 'authorised');
    expect((await put(s.g.token, orderId, { status: 'confirmed' })).status).toBe(200);
    await waitForPayment(orderId, 'captured');
    expect(await entriesOf(orderId)).toEqual(['authorise', 'capture']);
    expect((await tradeOf(merchantTradeNo)).status).toBe('closed');
  });

  it('the provider down during the capture: retried until it answers, then captured once', async () => {
    const s = await setup();
    const orderId = await bookByForm(s);
    const { merchantTradeNo } = await payInBrowser(s, orderId);
    await waitForPayment(orderId, 'authorised');

    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    usePaymentProvider(createPaymentProvider(getConfig(), { simulatorBaseUrl: `http://127.0.0.1:${closed}/payments/simulator` }));
    expect((await put(s.g.token, orderId, { status: 'confirmed' })).status).toBe(200);
    const key = `order:${orderId}:confirm`;
    const [failing] = await waitUntil(
      'two failed attempts',
      () => getDb().select().from(outbox).where(eq(outbox.dedupeKey, key)),
      (rows) => (rows[0]?.attempts ?? 0) >= 2,
    );
    expect(failing).toMatchObject({ kind: 'payment', status: 'pending', sentAt: null });
    expect(failing!.lastError).toBeTruthy();
    expect((await getDb().select().from(payments).where(eq(payments.orderId, orderId)))[0]!.status).toBe('authorised');
    expect((await tradeOf(merchantTradeNo)).status).toBe('authorised');

    usePaymentProvider(undefined); // the provider is back
    await waitForPayment(orderId, 'captured');
    await waitUntil('the job done', () => getDb().select().from(outbox).where(eq(outbox.dedupeKey, key)), (rows) => rows[0]?.status === 'sent');
    expect(await entriesOf(orderId)).toEqual(['authorise', 'capture']);
    expect((await tradeOf(merchantTradeNo)).status).toBe('closed');
    expect((await orderMoney(getDb(), orderId)).captured).toBe(3000);
  });

  for (const [hoursBefore, share] of [
    [80, 100],
    [30, 50],
    [10, 0],
  ] as const) {
    it(`cancelled by the traveler ${hoursBefore} h before the tour, after the capture: ${share} % back, the rest settled`, async () => {
      // A morning tour: 10 h before 09:00 is still the evening before (from the tour day on, nobody can cancel).
      const s = await setup({ days: 6, slot: 'morning' });
      const orderId = await bookByForm(s);
      const { merchantTradeNo } = await payInBrowser(s, orderId);
      await waitForPayment(orderId, 'authorised');
      expect((await put(s.g.token, orderId, { status: 'confirmed' })).status).toBe(200);
      await waitForPayment(orderId, 'captured');

      setClock(new Date(slotStartsAt(s.day, 'morning').getTime() - hoursBefore * 3_600_000));
      const detail = await server.request(`/api/v1/orders/${orderId}`, { token: s.t.token });
      expect(detail.json.data.refund).toMatchObject({ share, amount: (3000 * share) / 100 });
      const cancelled = await put(s.t.token, orderId, { status: 'cancelled' });
      expect(cancelled.status).toBe(200);
      expect(cancelled.json.data.order.status).toBe('cancelled');

      const refunded = (3000 * share) / 100;
      const key = `order:${orderId}:cancel`;
      await waitUntil('the cancel job done', () => getDb().select().from(outbox).where(eq(outbox.dedupeKey, key)), (rows) => rows[0]?.status === 'sent');
      const [payment] = await getDb().select().from(payments).where(eq(payments.orderId, orderId));
      expect(payment).toMatchObject({
        status: share === 100 ? 'refunded' : share === 50 ? 'partly_refunded' : 'captured',
        capturedAmount: 3000,
        refundedAmount: refunded,
      });
      const money = await orderMoney(getDb(), orderId);
      expect(money).toMatchObject({ captured: 3000, refunded, held: 0 });
      expect(money.settledNet + money.settledCommission).toBe(3000 - refunded);
      expect(money.settledCommission).toBe(Math.floor(((3000 - refunded) * 10) / 100));
      expect(await entriesOf(orderId)).toEqual(['authorise', 'capture', ...(refunded > 0 ? ['refund'] : []), ...(refunded < 3000 ? ['settle'] : [])]);
      expect((await tradeOf(merchantTradeNo)).refundedAmount).toBe(refunded);
      const api = await server.request(`/api/v1/orders/${orderId}`, { token: s.t.token });
      expect(api.json.data.payment).toMatchObject({ captured: 3000, refunded });
    });
  }
});

// The ledger of everything above sums to zero (each file has its own database; this runs last).
describe(`the ledger after the payments above (${testDriver})`, () => {
  it('sums to zero', async () => {
    const [total] = await getDb().select({ sum: sql<string>`coalesce(sum(${ledgerPostings.amount}), 0)::bigint`, n: sql<number>`count(*)::int` }).from(ledgerPostings);
    expect(total!.n).toBeGreaterThan(0);
    expect(Number(total!.sum)).toBe(0);
  });
});
