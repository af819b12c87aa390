import fs from 'node:fs';
import path from 'node:path';
import { mailsTo } from './mail';
import { registerTraveler } from './travelers';
import { payWithTestCard, TEST_CARD } from './pay';
import { acceptBooking, expectNoAxeViolations, jsEnabled } from './support';
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page, type TestInfo } from './test';

/**
 * Issue 32 from the traveler's side, with JS on and off: book → the checkout page → the simulator's card page →
 * the booking success page ("authorised, charged when the guide confirms") → the guide confirms in another browser
 * (the capture runs in the e2e server's outbox) → the traveler cancels, the dialog says what comes back → the order's
 * payment timeline shows the charge and the refund, and so does the receipt (also mailed). A declined card, then
 * another try. axe on the checkout page, the card page, the success page, the order page and the receipt; no
 * sideways scrolling at 360 and 1280 px. E2E_TRAVELER_SHOTS=<dir> saves screenshots there (zh-TW and en, light and
 * dark, 360 and 1280 px).
 */
const PASSWORD = 'pay-e2e-pass-1';
const GUIDE_PASSWORD = 'demo1234';
// Guides no other spec books: the two projects run at the same time against one database.
const GUIDES = { 'js-on': 'guide21@demo.travel-assistant.tw', 'js-off': 'guide22@demo.travel-assistant.tw' } as const;
test.setTimeout(240_000);

const taipeiDay = (offset: number) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};
const ntd = (n: number) => `NT$${n.toLocaleString('en-US')}`;

const newTraveler = (request: APIRequestContext, testInfo: TestInfo) => registerTraveler(request, testInfo, { label: 'payer', name: '付款旅人', password: PASSWORD });

async function newContext(browser: Browser, testInfo: TestInfo, baseURL: string, width = 360): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    javaScriptEnabled: jsEnabled(testInfo),
    locale: 'zh-TW',
    timezoneId: 'Asia/Taipei',
    extraHTTPHeaders: { 'Accept-Language': 'zh-TW,zh;q=0.9' },
    viewport: { width, height: 800 },
  });
}

async function logIn(page: Page, email: string, password: string, to: string) {
  await page.goto(`/login?${new URLSearchParams({ redirectTo: to })}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 20_000 });
}

/** Reloads the page until the payment timeline shows `text` (the outbox worker runs the provider's part). */
async function waitForTimeline(page: Page, text: string) {
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('payment-timeline')).toContainText(text, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
}

test('book → pay → guide confirms → cancel → refund on the order and the receipt; a declined card, then another', async ({ browser, baseURL, request, consoleErrors }, testInfo) => {
  const js = jsEnabled(testInfo);
  const guideEmail = GUIDES[testInfo.project.name as keyof typeof GUIDES];
  const guideLogin = await (await request.post('/api/v1/auth/login', { data: { email: guideEmail, password: GUIDE_PASSWORD } })).json();
  const guideId = guideLogin.data.user.id as number;
  // Ten days ahead: more than 72 hours before the tour, a cancel gives back everything (booking terms). A retry
  // books three days further on: the first try's orders still hold its days.
  const first = 10 + testInfo.retry * 3;
  const [dayA, dayB, dayC] = [taipeiDay(first), taipeiDay(first + 1), taipeiDay(first + 2)];
  const opened = await request.post(`/api/v1/guides/${guideId}/availability-slots`, {
    headers: { authorization: `Bearer ${guideLogin.data.token}` },
    data: { slots: [dayA, dayB, dayC].map((date) => ({ date, time_slot: 'afternoon' })) },
  });
  expect(opened.status()).toBe(200);
  const traveler = await newTraveler(request, testInfo);

  // 1. Book through the form: the payment step comes next.
  const travelerContext = await newContext(browser, testInfo, baseURL!);
  const page = await travelerContext.newPage();
  await logIn(page, traveler.email, PASSWORD, `/booking/${guideId}?slot=${dayA}|afternoon&people=2`);
  await expect(page.locator(`input[type="radio"][value="${dayA}|afternoon"]`)).toBeChecked();
  await page.getByRole('checkbox', { name: '我同意預約條款' }).check();
  await page.getByRole('button', { name: '確認預約' }).click();
  await expect(page).toHaveURL(/\/orders\/\d+\/pay|\/payments\/simulator\/pay\//);
  if (!js) {
    // Without JS the checkout page waits for its button, and says how much and until when.
    await expect(page.getByRole('heading', { level: 1, name: '付款以完成預約' })).toBeVisible();
  }

  // 2. The simulator's card page (test mode), the approved card, back to the shop.
  await payWithTestCard(page, { js, card: TEST_CARD.approved });
  const orderA = Number(new URL(page.url()).searchParams.get('order'));
  const api = { authorization: `Bearer ${traveler.token}` };
  const detailA = (await (await request.get(`/api/v1/orders/${orderA}`, { headers: api })).json()).data;
  const amount = ntd(detailA.order.totalPrice);
  await expect(page.getByTestId('payment-outcome')).toHaveText(`已授權 ${amount}，導遊確認後才會請款。`);
  await expectNoAxeViolations(page, testInfo, 'success page');

  await page.goto(`/orders/${orderA}`);
  const paymentCard = page.getByTestId('order-payment');
  await expect(paymentCard.getByTestId('payment-status')).toHaveText('信用卡已授權，導遊確認後才請款');
  await expect(page.getByTestId('payment-timeline')).toContainText(`信用卡授權 ${amount}`);
  await expectNoAxeViolations(page, testInfo, 'order page (authorised)');

  // 3. The guide confirms in another browser; the capture follows through the outbox.
  const guideContext = await newContext(browser, testInfo, baseURL!, 1280);
  const guide = await guideContext.newPage();
  await logIn(guide, guideEmail, GUIDE_PASSWORD, `/orders/${orderA}`);
  await acceptBooking(guide);
  await expect(guide.getByRole('heading', { level: 1 }).getByText('已確認')).toBeVisible();
  await waitForTimeline(page, `請款 ${amount}`);
  await expect(paymentCard.getByTestId('payment-status')).toHaveText('已請款');

  // 4. The traveler cancels: the dialog says the whole amount comes back, and then it does.
  await page.getByRole('button', { name: '取消預約' }).click();
  const dialog = page.getByRole('dialog', { name: '確定要取消這筆預約嗎？' });
  await expect(dialog).toContainText(`依預約條款，你可獲得全額退款：${amount}。`);
  await dialog.getByRole('button', { name: '確定取消預約' }).click();
  await expect(page.getByRole('heading', { level: 1 }).getByText('已取消')).toBeVisible();
  await waitForTimeline(page, `退款 ${amount}`);
  await expect(paymentCard.getByTestId('payment-status')).toHaveText('已全額退款');
  await expectNoAxeViolations(page, testInfo, 'order page (refunded)');

  // 5. The receipt: on its page (printable), and by mail in the traveler's language.
  await page.getByTestId('receipt-link').click();
  await expect(page).toHaveURL(new RegExp(`/orders/${orderA}/receipt$`));
  const receipt = page.getByTestId('receipt');
  await expect(receipt.getByRole('heading', { level: 1 })).toHaveText(`訂單 #${orderA} 收據`);
  await expect(receipt.getByTestId('receipt-paid')).toHaveText(amount);
  await expect(receipt.getByTestId('receipt-refunded')).toContainText(amount);
  await expect(receipt).toContainText('旅遊助手');
  await expect(receipt.getByRole('button', { name: '列印' })).toBeVisible({ visible: js });
  await expectNoAxeViolations(page, testInfo, 'receipt');
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('banner')).toBeHidden();
  await expect(receipt.getByRole('link', { name: '回到訂單' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });
  await expect.poll(() => mailsTo(traveler.email).map((m) => m.subject)).toContain(`訂單 #${orderA} 收據：已付款 ${amount}`);
  // Nobody else sees it: the guide (and any other traveler) gets the 404 page.
  consoleErrors.allowStatus(`/orders/${orderA}/receipt`, 404, 'the guide may not see the traveler’s receipt');
  expect((await guide.goto(`/orders/${orderA}/receipt`))!.status()).toBe(404);

  // 6. A declined card, then another try.
  const bookedB = await request.post('/api/v1/orders', { headers: api, data: { guideId, date: dayB, timeSlot: 'afternoon', numberOfPeople: 1, termsAccepted: true } });
  expect(bookedB.status()).toBe(201);
  const orderB = (await bookedB.json()).data.order.id as number;
  await page.goto(`/orders/${orderB}/pay`);
  await payWithTestCard(page, { js, card: TEST_CARD.declined });
  await expect(page.getByRole('heading', { level: 1, name: '預約尚未付款' })).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: '卡片被拒絕' })).toBeVisible();
  await page.getByRole('link', { name: '再試一次付款' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '這張卡被拒絕了' })).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'checkout page (declined)');
  await page.getByRole('button', { name: '再試一次付款' }).click();
  await payWithTestCard(page, { js, card: TEST_CARD.approved });
  const amountB = ntd((await (await request.get(`/api/v1/orders/${orderB}`, { headers: api })).json()).data.order.totalPrice);
  await expect(page.getByTestId('payment-outcome')).toHaveText(`已授權 ${amountB}，導遊確認後才會請款。`);
  await page.goto(`/orders/${orderB}`);
  await expect(page.getByTestId('payment-timeline')).toContainText(`信用卡被拒（${amountB}）`);
  await expect(page.getByTestId('payment-timeline')).toContainText(`信用卡授權 ${amountB}`);
  // Not charged yet: the dialog says the authorisation is released, nothing charged.
  await page.getByRole('button', { name: '取消預約' }).click();
  await expect(page.getByRole('dialog', { name: '確定要取消這筆預約嗎？' })).toContainText(`你的信用卡目前只有授權，不會扣款，${amountB} 的授權會被取消。`);

  // 7. An order left unpaid: the checkout page (its form held back with JS, so it stays on screen) and the card page.
  const bookedC = await request.post('/api/v1/orders', { headers: api, data: { guideId, date: dayC, timeSlot: 'afternoon', numberOfPeople: 3, termsAccepted: true } });
  const orderC = (await bookedC.json()).data.order.id as number;
  await page.goto(`/orders/${orderC}`);
  await expect(page.getByRole('link', { name: '立即付款' })).toHaveAttribute('href', `/orders/${orderC}/pay`);
  await page.getByRole('link', { name: '立即付款' }).click();
  if (!js) await page.getByTestId('checkout-form').getByRole('button').click();
  await page.waitForURL(/\/payments\/simulator\/pay\//);
  const cardPage = page.url();
  await expectNoAxeViolations(page, testInfo, 'simulator card page');
  await holdCheckout(page);
  await gotoCheckout(page, `/orders/${orderC}/pay`, js);
  await expect(page.getByTestId('checkout-form')).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'checkout page');

  // 8. No sideways scrolling at 360 and 1280 px; screenshots when asked for.
  const views: Array<[string, string]> = [
    ['checkout', `/orders/${orderC}/pay`],
    ['simulator-card', cardPage],
    ['success', `/booking-success?order=${orderB}`],
    ['order-payment', `/orders/${orderA}`],
    ['receipt', `/orders/${orderA}/receipt`],
  ];
  const dir = process.env.E2E_TRAVELER_SHOTS;
  const locales = dir && js ? (['zh-TW', 'en'] as const) : (['zh-TW'] as const);
  const schemes = dir && js ? (['light', 'dark'] as const) : (['light'] as const);
  for (const locale of locales) {
    await travelerContext.addCookies([{ name: 'preferred-language', value: Buffer.from(JSON.stringify(locale)).toString('base64'), url: baseURL! }]);
    for (const scheme of schemes) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 800 });
        for (const [name, url] of views) {
          if (name === 'checkout') await gotoCheckout(page, url, js);
          else await page.goto(url);
          if (name === 'order-payment') await page.getByTestId('order-payment').scrollIntoViewIfNeeded();
          const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
          expect.soft(scrollWidth, `${url} at ${width}px`).toBeLessThanOrEqual(width);
          if (dir) {
            fs.mkdirSync(dir, { recursive: true });
            const file = path.join(dir, `${name}-${locale}-${scheme}-${width}.png`);
            if (name === 'order-payment') await page.getByTestId('order-payment').screenshot({ path: file });
            else await page.screenshot({ path: file, fullPage: true });
          }
        }
      }
    }
  }
  await guideContext.close();
  await travelerContext.close();
});

const PROVIDER_CHECKOUT = '**/payments/simulator/Cashier/AioCheckOut/V5';

/** With JS the checkout page posts itself to the provider: answer that post with "no content", so it stays put. */
async function holdCheckout(page: Page) {
  await page.route(PROVIDER_CHECKOUT, (route) => route.fulfill({ status: 204, body: '' }));
}

/** With JS the held checkout posts itself once hydrated, which can be after "load": wait for that post, or it aborts the next goto. */
async function gotoCheckout(page: Page, url: string, js: boolean) {
  if (js) await Promise.all([page.waitForResponse(PROVIDER_CHECKOUT), page.goto(url)]);
  else await page.goto(url);
}
