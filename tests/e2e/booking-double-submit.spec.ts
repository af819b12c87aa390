import { registerTraveler } from './travelers';
import { jsEnabled } from './support';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from './test';

/**
 * Issue 33, the web forms' one-time key (docs/decisions/042), with JS on and off: a traveler books, goes back to the
 * form with the browser's back button (the page is fetched again: logged-in pages are not cached; it offers their
 * slot, marked as theirs, and the same key) and sends it again: they land on the same order's payment page and
 * still have one order (counted through the API before and after).
 */
const PASSWORD = 'double-submit-pass-1';
const GUIDE_PASSWORD = 'demo1234';
// Guides no other spec books: the two projects run at the same time against one database.
const GUIDES = { 'js-on': 'guide23@demo.travel-assistant.tw', 'js-off': 'guide24@demo.travel-assistant.tw' } as const;

const taipeiDay = (offset: number) => {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
  const d = new Date(`${today}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
};

const newTraveler = (request: APIRequestContext, testInfo: TestInfo) => registerTraveler(request, testInfo, { label: 'double', name: '重送旅人', password: PASSWORD });

async function orderCount(request: APIRequestContext, token: string): Promise<number> {
  const answer = await request.get('/api/v1/orders', { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status()).toBe(200);
  return (await answer.json()).data.pagination.total as number;
}

async function fillAndSend(page: Page, day: string) {
  await page.locator(`input[type="radio"][value="${day}|morning"]`).check();
  await page.getByLabel('人數').fill('2');
  await page.getByRole('checkbox', { name: '我同意預約條款' }).check();
  await page.getByRole('button', { name: '確認預約' }).click();
}

test('the booking form sent again after the back button lands on the same order', async ({ page, request, consoleErrors }, testInfo) => {
  test.setTimeout(120_000);
  const guideLogin = await (await request.post('/api/v1/auth/login', { data: { email: GUIDES[testInfo.project.name as keyof typeof GUIDES], password: GUIDE_PASSWORD } })).json();
  const guideId = guideLogin.data.user.id as number;
  const day = taipeiDay(9);
  const opened = await request.post(`/api/v1/guides/${guideId}/availability-slots`, {
    headers: { authorization: `Bearer ${guideLogin.data.token}` },
    data: { slots: [{ date: day, time_slot: 'morning' }] },
  });
  expect(opened.status()).toBe(200);
  const traveler = await newTraveler(request, testInfo);
  expect(await orderCount(request, traveler.token)).toBe(0);

  // With JS the payment page sends itself on to the provider's card page; this test stays on the payment page
  // (where the booking lands), so that onward navigation is stopped.
  if (jsEnabled(testInfo)) {
    await page.route('**/payments/simulator/**', (route) => route.abort('aborted'));
    consoleErrors.allow(/payments\/simulator|ERR_FAILED/, 'the onward trip to the provider is stopped on purpose');
  }

  await page.goto(`/login?${new URLSearchParams({ redirectTo: `/booking/${guideId}` })}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(traveler.email);
  await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/booking/${guideId}`), { timeout: 15_000 });

  await page.locator(`a[data-day="${day}"]`).click();
  await fillAndSend(page, day);
  await expect(page).toHaveURL(/\/orders\/\d+\/pay/, { timeout: 15_000 });
  const orderId = /\/orders\/(\d+)\/pay/.exec(page.url())![1];
  expect(await orderCount(request, traveler.token)).toBe(1);

  // Back to the form, the same choice sent again: the same order's payment page, no second order.
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/booking/${guideId}`), { timeout: 15_000 });
  // Their slot is offered again, marked as theirs.
  await page.locator(`a[data-day="${day}"]`).click();
  await expect(page.getByRole('radio', { name: /您已預約/ })).toHaveValue(`${day}|morning`);
  await fillAndSend(page, day);
  await expect(page).toHaveURL(new RegExp(`/orders/${orderId}/pay`), { timeout: 15_000 });
  expect(await orderCount(request, traveler.token)).toBe(1);
});
