import { registerTraveler } from './travelers';
import { E2E_ADMIN, expectNoAxeViolations, jsEnabled, savePicture } from './support';
import { expect, test, type APIRequestContext, type Page, type TestInfo } from './test';
import { payOrderOverHttp } from './pay';

/**
 * Issue 22 in a real browser, JS on and off, at 360 px: an admin finds a traveler by a Chinese name written the
 * other way (台 for 臺), blocks them after confirming, and the traveler's open session is logged out; the
 * dashboard, user list, a user's page, the order list and the audit log have no axe violations and no sideways
 * scrolling at 360 px. Screenshots at 360 and 1280 px (light and dark, zh-TW and en) go to tests/e2e/screenshots/.
 */
const PASSWORD = 'admin-e2e-pass-1';
test.use({ viewport: { width: 360, height: 800 } });
test.setTimeout(180_000);

async function login(page: Page, email: string, password: string, to: string): Promise<void> {
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
}

const apiTraveler = (request: APIRequestContext, testInfo: TestInfo, name: string) => registerTraveler(request, testInfo, { label: 'blocked', name, password: PASSWORD });

async function shots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const size = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 800 });
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(scrollWidth, `${name} at 360px has no horizontal overflow`).toBeLessThanOrEqual(360);
  if (jsEnabled(testInfo)) {
    for (const [width, scheme] of [[360, 'light'], [1280, 'light'], [360, 'dark'], [1280, 'dark']] as const) {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ colorScheme: scheme });
      await savePicture(page, `admin-${name}-${width}-${scheme}.png`, { fullPage: true });
    }
    await page.emulateMedia({ colorScheme: 'light' });
    const origin = new URL(page.url()).origin;
    const cookie = (locale: string) => ({ name: 'preferred-language', value: encodeURIComponent(Buffer.from(JSON.stringify(locale)).toString('base64')), url: origin });
    await page.context().addCookies([cookie('en')]);
    await page.reload();
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await savePicture(page, `admin-${name}-${width}-light-en.png`, { fullPage: true });
    }
    await page.context().addCookies([cookie('zh-TW')]);
    await page.reload();
  }
  if (size) await page.setViewportSize(size);
}

test('an admin finds a traveler by a Chinese name, blocks them, and their open session ends', async ({ page, browser, request }, testInfo) => {
  const suffix = `${testInfo.project.name === 'js-off' ? '乙' : '甲'}${Date.now() % 10000}`;
  const traveler = await apiTraveler(request, testInfo, `臺南旅人${suffix}`);

  // The traveler is logged in in their own browser.
  const travelerContext = await browser.newContext({ viewport: { width: 360, height: 800 }, javaScriptEnabled: jsEnabled(testInfo) });
  const travelerPage = await travelerContext.newPage();
  await login(travelerPage, traveler.email, PASSWORD, '/me');
  await expect(travelerPage).toHaveURL(/\/me$/);

  await login(page, E2E_ADMIN.email, E2E_ADMIN.password, '/admin');
  await expect(page).toHaveURL(/\/admin$/);
  await expectNoAxeViolations(page, testInfo, 'admin dashboard');
  await shots(page, testInfo, 'dashboard');

  await page.getByRole('link', { name: '使用者管理' }).first().click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await page.getByLabel('姓名或電子郵件').fill(`台南旅人${suffix}`);
  await page.getByRole('button', { name: '篩選' }).click();
  await expect(page.getByTestId('user-total')).toHaveText(/共 1 個帳號/);
  await expectNoAxeViolations(page, testInfo, 'user list');
  await shots(page, testInfo, 'users');

  await page.getByRole('link', { name: traveler.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: traveler.name })).toBeVisible();
  await expect(page.getByTestId('user-state')).toContainText('啟用');
  await expectNoAxeViolations(page, testInfo, 'user page');
  await shots(page, testInfo, 'user');

  await page.getByRole('button', { name: '停權', exact: true }).click();
  const dialog = page.getByTestId('confirm-user-action');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(traveler.name);
  await expectNoAxeViolations(page, testInfo, 'block confirmation');
  await dialog.getByRole('button', { name: '停權', exact: true }).click();
  await expect(page.getByTestId('user-state')).toContainText('已停權');
  await expect(page.getByTestId('user-sessions')).toHaveText('0');
  await expect(page.getByTestId('audit-log')).toContainText('停權帳號');

  // The traveler's next request finds the session gone: back to the login page.
  await travelerPage.goto('/me');
  await expect(travelerPage).toHaveURL(/\/login/);
  await travelerContext.close();

  await page.goto('/admin/orders');
  await expect(page.getByRole('heading', { level: 1, name: '訂單管理' })).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'order list');
  await shots(page, testInfo, 'orders');

  await page.goto('/admin/logs');
  await expect(page.getByTestId('audit-log')).toContainText('停權帳號');
  await expectNoAxeViolations(page, testInfo, 'audit log');
  await shots(page, testInfo, 'logs');
});

test('an admin opens an order, cancels it with a reason after confirming, and refunds it', async ({ page, request }, testInfo) => {
  // A booking made through the API by a fresh traveler with a demo guide no other spec books (one per project).
  const traveler = await apiTraveler(request, testInfo, `訂單旅人${Date.now() % 10000}`);
  const guideEmail = testInfo.project.name === 'js-off' ? 'guide17@demo.travel-assistant.tw' : 'guide16@demo.travel-assistant.tw';
  const guide = await (await request.post('/api/v1/auth/login', { data: { email: guideEmail, password: 'demo1234' } })).json();
  const travelerSession = await (await request.post('/api/v1/auth/login', { data: { email: traveler.email, password: PASSWORD } })).json();
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
  const day = new Date(`${today}T00:00:00Z`);
  day.setUTCDate(day.getUTCDate() + 12 + (Date.now() % 30));
  const date = day.toISOString().slice(0, 10);
  const opened = await request.post(`/api/v1/guides/${guide.data.user.id}/availability-slots`, {
    headers: { authorization: `Bearer ${guide.data.token}` },
    data: { slots: [{ date, time_slot: 'morning' }] },
  });
  expect(opened.status()).toBe(200);
  const booked = await request.post('/api/v1/orders', {
    headers: { authorization: `Bearer ${travelerSession.data.token}` },
    data: { guideId: guide.data.user.id, date, timeSlot: 'morning', numberOfPeople: 1, termsAccepted: true },
  });
  expect(booked.status()).toBe(201);
  const orderId = (await booked.json()).data.order.id as number;
  await payOrderOverHttp(request, { orderId, token: travelerSession.data.token });

  await login(page, E2E_ADMIN.email, E2E_ADMIN.password, `/admin/orders/${orderId}`);
  await expect(page.getByRole('heading', { level: 1, name: `訂單 #${orderId}` })).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'order page');
  await shots(page, testInfo, 'order');

  await page.getByLabel('原因（記錄於操作紀錄）').fill('旅客行程改變');
  await page.getByRole('button', { name: '取消訂單' }).click();
  const dialog = page.getByTestId('confirm-order-action');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: '取消訂單' }).click();
  await expect(page.getByTestId('order-status')).toContainText('已取消');

  // A refund moves money: it asks for its own reason (the form after the cancel starts empty without JS).
  await page.getByLabel('原因（記錄於操作紀錄）').fill('旅客要求退款');
  await page.getByRole('button', { name: '標記為已退款' }).click();
  await page.getByTestId('confirm-order-action').getByRole('button', { name: '標記為已退款' }).click();
  await expect(page.getByTestId('order-status')).toContainText('已退款');
  await expect(page.getByTestId('order-timeline')).toContainText('已退款');
});
