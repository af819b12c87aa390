/**
 * Paying a booking in the browser specs (issue 32): a paid tour's booking lands on /orders/:id/pay, which sends the
 * browser to the payment simulator's card page (with JS by itself, without JS through its "continue to payment"
 * button). The simulator runs inside the e2e server, so these helpers drive its real pages: nothing is faked.
 */
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './test';

/** The simulator's test cards (app/services/payments/simulator.server.ts): the first is approved, the second declined. */
export const TEST_CARD = { approved: '4311952222222222', declined: '4000000000000002' } as const;

/** The simulator's "return to the shop" button, in any of the three languages. */
const RETURN_TO_SHOP = /返回商店|Return to the shop|ショップに戻る/;
const CONTINUE_TO_PAYMENT = /前往付款|Continue to payment|支払いへ進む/;

/**
 * From the checkout page (/orders/:id/pay) or the card page: pays with a test card and takes the signed result back
 * to the shop. An approved card lands on /booking-success?order=ID; a declined one too (the page says so). With JS
 * the checkout page submits itself; without JS its button is pressed.
 */
export async function payWithTestCard(page: Page, options: { js: boolean; card?: string }): Promise<void> {
  const card = options.card ?? TEST_CARD.approved;
  await expect(page).toHaveURL(/\/orders\/\d+\/pay|\/payments\/simulator\/pay\//, { timeout: 15_000 });
  if (/\/orders\/\d+\/pay/.test(page.url())) {
    // With JS the page submits itself; without JS its button does it.
    if (!options.js) await page.getByTestId('checkout-form').getByRole('button', { name: CONTINUE_TO_PAYMENT }).click();
    await page.waitForURL(/\/payments\/simulator\/pay\//, { timeout: 15_000 });
  }
  await expect(page).toHaveURL(/\/payments\/simulator\/pay\//);
  await page.locator('#cardNumber').fill(card);
  await page.locator('#cardNumber').press('Enter');
  await page.getByRole('button', { name: RETURN_TO_SHOP }).click();
  await expect(page).toHaveURL(/\/booking-success\?order=\d+/, { timeout: 15_000 });
}

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The action and hidden fields of the first `<form …>` in `html` whose opening tag matches `marker`. */
function formIn(html: string, marker: RegExp): { action: string; fields: Record<string, string> } {
  const start = html.search(marker);
  if (start < 0) throw new Error(`pay: no form matching ${marker} in the page`);
  const open = html.lastIndexOf('<form', start);
  const end = html.indexOf('</form>', start);
  const form = html.slice(open, end);
  const action = decode(/action="([^"]*)"/.exec(form)?.[1] ?? '');
  const fields: Record<string, string> = {};
  for (const input of form.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    const value = /value="([^"]*)"/.exec(input[0])?.[1];
    if (name && /type="hidden"/.test(input[0])) fields[decode(name)] = decode(value ?? '');
  }
  return { action, fields };
}

/**
 * Pays an order booked through the API, over plain HTTP through the same pages a browser without JS uses: the
 * checkout page's form (the traveler's bearer token), the simulator's card page, and the signed browser return.
 * Resolves once the order's payment reads `authorised` (or `failed` for the declined card).
 */
export async function payOrderOverHttp(request: APIRequestContext, input: { orderId: number; token: string; card?: string }): Promise<void> {
  const auth = { authorization: `Bearer ${input.token}` };
  const checkout = await request.get(`/orders/${input.orderId}/pay`, { headers: auth, maxRedirects: 0 });
  expect(checkout.status(), `checkout page of order ${input.orderId}`).toBe(200);
  const provider = formIn(await checkout.text(), /data-testid="checkout-form"/);
  const started = await request.post(provider.action, { form: provider.fields, maxRedirects: 0 });
  expect(started.status(), 'the simulator takes the checkout').toBe(303);
  const cardPage = new URL(started.headers().location!, provider.action).pathname;
  const paid = await request.post(cardPage, { form: { cardNumber: input.card ?? TEST_CARD.approved } });
  expect(paid.status(), 'the simulator answers the card').toBe(200);
  const back = formIn(await paid.text(), /action="[^"]*\/payments\/return\//);
  const returned = await request.post(back.action, { form: back.fields, maxRedirects: 0 });
  expect(returned.status(), 'the browser return').toBe(303);
  const want = (input.card ?? TEST_CARD.approved) === TEST_CARD.declined ? 'failed' : 'authorised';
  await expect
    .poll(async () => (await (await request.get(`/api/v1/orders/${input.orderId}`, { headers: auth })).json()).data?.payment?.status, { timeout: 15_000 })
    .toBe(want);
}
