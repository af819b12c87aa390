/**
 * Booking a tour through the /api/v1 with the typed client (packages/client), from log-in to refund:
 *
 *   log in → search guides → read a guide's slots → book → pay on the payment simulator's card page
 *   → wait for the guide's confirmation → cancel → read the refund
 *
 * `bookATour()` is what a client author would write; tests/integration/http/book-a-tour-example.test.ts runs it
 * against the test server while playing the guide (`confirmAsGuide`). As a command, against a running site with the
 * demo data and the built-in payment simulator (PAYMENT_PROVIDER unset):
 *
 *   npx tsx examples/book-a-tour.ts http://localhost:3000
 *
 * It logs in as the demo traveler (TRAVELER_EMAIL / TRAVELER_PASSWORD to change that) and waits for the guide to
 * confirm: in a browser as that guide, or let the command do it with GUIDE_EMAIL and GUIDE_PASSWORD (demo guides:
 * guideNN@demo.travel-assistant.tw / demo1234).
 */
import { pathToFileURL } from 'node:url';
import { createApiClient, ok, type ApiClient } from '@lvyou/client';

export interface Credentials {
  email: string;
  password: string;
}

export interface BookATourOptions {
  baseUrl: string;
  traveler: Credentials;
  /** The tour day (YYYY-MM-DD, Taiwan); default a week from today. */
  date?: string;
  /** Search words (a city, a language …); default none. */
  keyword?: string;
  /** Book this guide (one of the search's results); default the cheapest with a bookable slot. */
  guideId?: number;
  /** The simulator's test card; default its approved one. */
  card?: string;
  /** How often to ask for the order while waiting, and for how long at most (ms). */
  pollMs?: number;
  waitMs?: number;
  /** Where the steps are told (default: nowhere). */
  log?: (line: string) => void;
  /** Told the new order's id once it is booked. */
  onBooked?: (orderId: number) => void;
}

export interface TourOutcome {
  orderId: number;
  guideId: number;
  date: string;
  timeSlot: 'morning' | 'afternoon' | 'evening';
  /** NT$ charged when the guide confirmed, NT$ given back after the cancellation. */
  captured: number;
  refunded: number;
  orderStatus: string;
  paymentStatus: string;
}

/** The simulator's approved test card (app/services/payments/simulator.server.ts). */
export const APPROVED_TEST_CARD = '4311952222222222';

const taipeiDay = (daysAhead: number) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
  const day = new Date(`${today}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + daysAhead);
  return day.toISOString().slice(0, 10);
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Asks `read` every `pollMs` until `done` says yes, for at most `waitMs`. */
async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, options: { pollMs: number; waitMs: number }): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${options.waitMs} ms`);
    await sleep(options.pollMs);
  }
}

export async function logIn(baseUrl: string, who: Credentials): Promise<{ api: ApiClient; token: string; userId: number }> {
  const anonymous = createApiClient({ baseUrl });
  const session = await ok(anonymous.POST('/api/v1/auth/login', { body: who }));
  return { api: createApiClient({ baseUrl, token: session.token }), token: session.token, userId: session.user.id };
}

export async function bookATour(options: BookATourOptions): Promise<TourOutcome> {
  const log = options.log ?? (() => undefined);
  const waiting = { pollMs: options.pollMs ?? 2_000, waitMs: options.waitMs ?? 10 * 60_000 };
  const date = options.date ?? taipeiDay(7);

  // 1. Log in: the bearer token goes on every call from now on.
  const { api, token } = await logIn(options.baseUrl, options.traveler);
  log(`logged in as ${options.traveler.email}`);

  // 2. Search guides free on that day, cheapest first.
  const found = await ok(api.GET('/api/v1/guides', { params: { query: { date, keyword: options.keyword, sort: 'price_asc', limit: 100 } } }));
  log(`${found.pagination.total} guide${found.pagination.total === 1 ? '' : 's'} free on ${date}`);
  const guides = options.guideId === undefined ? found.guides : found.guides.filter((g) => g.id === options.guideId);

  // 3. Read their slots and take the first that can be booked now.
  let choice: { guide: (typeof guides)[number]; timeSlot: 'morning' | 'afternoon' | 'evening' } | undefined;
  for (const guide of guides) {
    const { slots } = await ok(api.GET('/api/v1/guides/{id}/availability-slots', { params: { path: { id: guide.id }, query: { from: date, to: date } } }));
    const slot = slots.find((s) => s.bookable);
    if (slot) {
      choice = { guide, timeSlot: slot.time_slot };
      break;
    }
  }
  if (!choice) throw new Error(`no guide has a bookable slot on ${date}`);
  log(`booking ${choice.guide.name} (#${choice.guide.id}), ${date} ${choice.timeSlot}, NT$${choice.guide.price}`);

  // 4. Book. The client sends an Idempotency-Key, so a retry after a lost answer is answered with this same order.
  const booked = await ok(
    api.POST('/api/v1/orders', {
      body: { guideId: choice.guide.id, date, timeSlot: choice.timeSlot, numberOfPeople: Math.min(2, choice.guide.maxGroupSize), termsAccepted: true },
    }),
  );
  const orderId = booked.order.id;
  options.onBooked?.(orderId);
  log(`order #${orderId}: ${booked.order.status}, payment ${booked.payment?.status ?? 'none (free tour)'}`);

  // 5. Pay on the provider's page, as a browser does (the checkout is a page for people, not a JSON call).
  if (booked.payment?.checkoutUrl) {
    await payInBrowserSteps(booked.payment.checkoutUrl, token, options.card ?? APPROVED_TEST_CARD);
    const paid = await poll(
      () => ok(api.GET('/api/v1/orders/{id}', { params: { path: { id: orderId } } })),
      (o) => o.payment?.status !== 'unpaid',
      'the payment',
      waiting,
    );
    if (paid.payment?.status !== 'authorised') throw new Error(`payment ${paid.payment?.status}: not authorised`);
    log(`card authorised for NT$${paid.payment.amount}; waiting for the guide to confirm ${new URL(`/orders/${orderId}`, options.baseUrl)}`);
  }

  // 6. The guide confirms (in their own app or browser): ask for the order until it says so.
  const confirmed = await poll(
    () => ok(api.GET('/api/v1/orders/{id}', { params: { path: { id: orderId } } })),
    (o) => o.order.status !== 'pending',
    'the guide’s confirmation',
    waiting,
  );
  if (confirmed.order.status !== 'confirmed') throw new Error(`order #${orderId} is ${confirmed.order.status}, not confirmed`);
  const quote = confirmed.refund;
  log(`confirmed; cancelling now gives back ${quote ? `${quote.share}% (NT$${quote.amount})` : 'nothing'}`);

  // 7. Cancel.
  await ok(api.PUT('/api/v1/orders/{id}', { params: { path: { id: orderId } }, body: { status: 'cancelled' } }));
  log('cancelled');

  // 8. The refund follows through the provider: read it off the order.
  const expected = quote?.amount ?? 0;
  const settled = await poll(
    () => ok(api.GET('/api/v1/orders/{id}', { params: { path: { id: orderId } } })),
    (o) => expected === 0 || (o.payment?.refunded ?? 0) >= expected,
    'the refund',
    waiting,
  );
  const outcome: TourOutcome = {
    orderId,
    guideId: choice.guide.id,
    date,
    timeSlot: choice.timeSlot,
    captured: settled.payment?.captured ?? 0,
    refunded: settled.payment?.refunded ?? 0,
    orderStatus: settled.order.status,
    paymentStatus: settled.payment?.status ?? 'none',
  };
  log(`refund: NT$${outcome.refunded} of NT$${outcome.captured} (payment ${outcome.paymentStatus})`);
  return outcome;
}

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The action (absolute) and hidden fields of the first form in `html` whose opening tag matches `opening`. */
function formIn(html: string, opening: RegExp, pageUrl: string): { action: string; fields: Record<string, string> } {
  const match = opening.exec(html);
  if (!match) throw new Error(`no form ${opening} on ${pageUrl}`);
  const form = html.slice(match.index, html.indexOf('</form>', match.index));
  const action = new URL(decode(/action="([^"]*)"/.exec(match[0])?.[1] ?? ''), pageUrl).toString();
  const fields: Record<string, string> = {};
  for (const input of form.matchAll(/<input\b[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    if (name && /type="hidden"/.test(input[0])) fields[decode(name)] = decode(/value="([^"]*)"/.exec(input[0])?.[1] ?? '');
  }
  return { action, fields };
}

async function postForm(url: string, fields: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', body: new URLSearchParams(fields), redirect: 'manual' });
}

/**
 * What the traveler's browser does with `checkoutUrl`: the checkout page posts a signed form to the provider, the
 * provider's card page takes the card, and its "return to the shop" form carries the signed result back.
 */
async function payInBrowserSteps(checkoutUrl: string, token: string, card: string): Promise<void> {
  const checkout = await fetch(checkoutUrl, { headers: { Authorization: `Bearer ${token}` }, redirect: 'manual' });
  if (checkout.status !== 200) throw new Error(`checkout page: HTTP ${checkout.status}`);
  const provider = formIn(await checkout.text(), /<form[^>]*data-testid="checkout-form"[^>]*>/, checkoutUrl);
  const started = await postForm(provider.action, provider.fields);
  const cardPage = new URL(started.headers.get('location') ?? '', provider.action).toString();
  if (started.status !== 303) throw new Error(`the provider did not take the checkout: HTTP ${started.status}`);
  const answered = await postForm(cardPage, { cardNumber: card });
  if (answered.status !== 200) throw new Error(`card page: HTTP ${answered.status}`);
  const back = formIn(await answered.text(), /<form[^>]*action="[^"]*\/payments\/return\/\d+"[^>]*>/, cardPage);
  const returned = await postForm(back.action, back.fields);
  if (returned.status !== 303) throw new Error(`back at the shop: HTTP ${returned.status}`);
}

/**
 * The guide's side, for the test and for the command: logs in as the guide and confirms the order `orderId` (or the
 * first of their pending orders) once its card is authorised, asking every `pollMs` for at most `waitMs`. Returns
 * that order's id.
 */
export async function confirmAsGuide(
  baseUrl: string,
  guide: Credentials,
  options: { orderId?: Promise<number>; pollMs?: number; waitMs?: number } = {},
): Promise<number> {
  const only = await options.orderId;
  const { api } = await logIn(baseUrl, guide);
  const waiting = { pollMs: options.pollMs ?? 2_000, waitMs: options.waitMs ?? 10 * 60_000 };
  const orderId = await poll(
    async () => {
      const { orders } = await ok(api.GET('/api/v1/orders', { params: { query: { status: 'pending' } } }));
      for (const order of orders.filter((o) => only === undefined || o.id === only)) {
        const detail = await ok(api.GET('/api/v1/orders/{id}', { params: { path: { id: order.id } } }));
        if (detail.actions.includes('confirm') && detail.payment?.status === 'authorised') return order.id;
      }
      return undefined;
    },
    (id) => id !== undefined,
    'an order to confirm',
    waiting,
  );
  await ok(api.PUT('/api/v1/orders/{id}', { params: { path: { id: orderId! } }, body: { status: 'confirmed' } }));
  return orderId!;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const baseUrl = process.argv[2];
  if (!baseUrl) {
    console.error('usage: npx tsx examples/book-a-tour.ts <baseUrl>   (e.g. http://localhost:3000)');
    process.exit(2);
  }
  const traveler = {
    email: process.env.TRAVELER_EMAIL ?? 'pinyen.chen@demo.travel-assistant.tw',
    password: process.env.TRAVELER_PASSWORD ?? 'demo1234',
  };
  const guide = process.env.GUIDE_EMAIL && process.env.GUIDE_PASSWORD ? { email: process.env.GUIDE_EMAIL, password: process.env.GUIDE_PASSWORD } : undefined;
  const log = (line: string) => console.log(`· ${line}`);
  try {
    // Playing the guide too: book that guide (a guide's id is their user id).
    const guideId = guide ? (await logIn(baseUrl, guide)).userId : undefined;
    let booked: (orderId: number) => void = () => undefined;
    const orderId = new Promise<number>((resolve) => (booked = resolve));
    const [outcome] = await Promise.all([
      bookATour({ baseUrl, traveler, keyword: process.env.KEYWORD, guideId, log, onBooked: booked }),
      guide ? confirmAsGuide(baseUrl, guide, { orderId }).then((id) => log(`(as ${guide.email}) confirmed order #${id}`)) : undefined,
    ]);
    console.log(JSON.stringify(outcome, null, 2));
  } catch (error) {
    console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
    process.exit(1);
  }
}
