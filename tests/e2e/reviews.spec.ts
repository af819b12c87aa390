import { expect, test, type Browser, type BrowserContext, type Page, type TestInfo } from './test';
import { acceptBooking, E2E_ADMIN, expectNoAxeViolations, jsEnabled } from './support';
import { payWithTestCard } from './pay';

/**
 * Reviews both ways, end to end at 360 px with JS on and off (issue 10): a guide opens today's slot → a traveler
 * books → the guide confirms → it is the tour day (the slot is today's) → both mark completion → both review with
 * the star input → the guide's earnings tab shows the order's amount, each side's notification center tells what
 * happened, and an admin finds the reviews on /admin/reviews. axe on the order page with its form and on /admin/reviews.
 */
const PASSWORD = 'demo1234';
const todayInTaipei = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());
const ntd = (n: number) => `NT$${n.toLocaleString('en-US')}`;

// Each project has its own people, used by no other spec: the two projects run at the same time against one
// database, and a spec that switches someone's language would change the language of the notices checked here.
const PEOPLE = {
  'js-on': { guide: 'guide06@demo.travel-assistant.tw', traveler: 'lukas.becker@demo.travel-assistant.tw' },
  'js-off': { guide: 'guide07@demo.travel-assistant.tw', traveler: 'sophie.martin@demo.travel-assistant.tw' },
} as const;

async function newContext(browser: Browser, testInfo: TestInfo, baseURL: string): Promise<BrowserContext> {
  return browser.newContext({
    baseURL,
    javaScriptEnabled: jsEnabled(testInfo),
    locale: 'zh-TW',
    timezoneId: 'Asia/Taipei',
    extraHTTPHeaders: { 'Accept-Language': 'zh-TW,zh;q=0.9' },
    viewport: { width: 360, height: 800 },
  });
}

async function logIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
}

test('book → confirm → both complete → both review → earnings and notifications', async ({ browser, baseURL, request }, testInfo) => {
  test.setTimeout(jsEnabled(testInfo) ? 400_000 : 180_000);
  const who = PEOPLE[testInfo.project.name as keyof typeof PEOPLE];
  const today = todayInTaipei();
  const login = await (await request.post('/api/v1/auth/login', { data: { email: who.guide, password: PASSWORD } })).json();
  const guideId = login.data.user.id as number;
  const guideToken = login.data.token as string;
  const earnings = async () =>
    (await (await request.get(`/api/v1/users/${guideId}/stats`, { headers: { authorization: `Bearer ${guideToken}` } })).json()).data.totalEarnings as number;
  const earnedBefore = await earnings();

  // 1. The guide opens today's evening.
  const guideContext = await newContext(browser, testInfo, baseURL!);
  const guide = await guideContext.newPage();
  await guide.goto(`/login?${new URLSearchParams({ redirectTo: `/guide-availability?date=${today}` })}`);
  await logIn(guide, who.guide);
  await expect(guide).toHaveURL(/\/guide-availability\?date=/, { timeout: 10_000 });
  await guide.getByRole('checkbox', { name: /晚上/ }).check();
  await guide.getByRole('button', { name: '儲存', exact: true }).click();
  await expect(guide.getByRole('status').filter({ hasText: '已儲存並更新' })).toBeVisible();

  // 2. The traveler books it.
  const travelerContext = await newContext(browser, testInfo, baseURL!);
  const traveler = await travelerContext.newPage();
  await traveler.goto(`/login?${new URLSearchParams({ redirectTo: `/booking/${guideId}` })}`);
  await logIn(traveler, who.traveler);
  await expect(traveler).toHaveURL(new RegExp(`/booking/${guideId}`), { timeout: 10_000 });
  await traveler.locator(`input[type="radio"][value="${today}|evening"]`).check();
  await traveler.getByLabel('人數').fill('2');
  await traveler.getByRole('checkbox', { name: '我同意預約條款' }).check();
  await traveler.getByRole('button', { name: '確認預約' }).click();
  await payWithTestCard(traveler, { js: jsEnabled(testInfo) });
  const orderId = new URL(traveler.url()).searchParams.get('order')!;

  // 3. The guide confirms.
  await guide.goto(`/orders/${orderId}`);
  await acceptBooking(guide);
  await expect(guide.getByText('已確認').first()).toBeVisible();

  // 4. The tour day has come (today's slot): both mark completion; no review form before both did.
  await traveler.goto(`/orders/${orderId}`);
  await expect(traveler.getByRole('group', { name: '評分' })).toHaveCount(0);
  await traveler.getByRole('button', { name: '標記行程完成' }).click();
  await expect(traveler.getByText('旅客：已完成')).toBeVisible();
  await expect(traveler.getByText('雙方都標記行程完成後，就可以在這裡留下評價。')).toBeVisible();
  await guide.goto(`/orders/${orderId}`);
  await guide.getByRole('button', { name: '標記行程完成' }).click();
  await expect(guide.getByRole('listitem').filter({ hasText: '雙方完成，訂單完成' })).toBeVisible();

  // 5. The traveler reviews the guide with the keyboard-usable star radios.
  await traveler.goto(`/orders/${orderId}`);
  const stars = traveler.getByRole('group', { name: '評分' });
  await expect(stars).toBeVisible();
  await expectNoAxeViolations(traveler, testInfo);
  await stars.getByRole('radio', { name: '3 顆星' }).focus();
  await traveler.keyboard.press('Space');
  await traveler.keyboard.press('ArrowRight');
  await expect(stars.getByRole('radio', { name: '4 顆星' })).toBeChecked();
  await expect(traveler.locator('.star-option:has(input:focus-visible)')).toHaveCount(1);
  await traveler.getByLabel('評語').fill('夜市美食導覽很精彩');
  await traveler.getByRole('button', { name: '送出評價' }).click();
  await expect(traveler.getByText('夜市美食導覽很精彩')).toBeVisible();
  await expect(traveler.getByRole('group', { name: '評分' })).toHaveCount(0);
  const scrollWidth = await traveler.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(360);

  // 6. The guide reviews the traveler; both reviews show on the order.
  await guide.goto(`/orders/${orderId}`);
  await guide.getByRole('group', { name: '評分' }).getByRole('radio', { name: '5 顆星' }).check();
  await guide.getByLabel('評語').fill('準時又親切的旅客');
  await guide.getByRole('button', { name: '送出評價' }).click();
  await expect(guide.getByText('準時又親切的旅客')).toBeVisible();
  await expect(guide.getByText('夜市美食導覽很精彩')).toBeVisible();

  // 7. Once the completion's settlement has run, the guide earned this order's net (its price less the platform's
  // commission), and the earnings tab's total says so.
  const auth = { headers: { authorization: `Bearer ${guideToken}` } };
  const order = (await (await request.get(`/api/v1/orders/${orderId}`, auth)).json()).data.order;
  const settledLine = async () => {
    const lines = (await (await request.get('/api/v1/earnings', auth)).json()).data.lines as { orderId: number; state: string; price: number; net: number }[];
    return lines.find((l) => l.orderId === Number(orderId) && l.state !== 'held');
  };
  await expect.poll(settledLine, { timeout: 15_000 }).toBeTruthy();
  const line = (await settledLine())!;
  expect(line.price).toBe(order.totalPrice);
  expect(line.net).toBeLessThan(order.totalPrice);
  const earnedAfter = await earnings();
  expect(earnedAfter - earnedBefore).toBe(line.net);
  await guide.goto('/me?tab=earnings');
  await expect(guide.locator('#earnings-title').locator('..').getByText(ntd(earnedAfter)).first()).toBeVisible();

  // 8. Each side's notification center tells what happened.
  await guide.goto('/notifications');
  await expect(guide.getByText(`新的預約 #${orderId}`)).toBeVisible();
  await expect(guide.getByText(new RegExp(`給了您評價 #${orderId}`))).toBeVisible();
  await traveler.goto('/notifications');
  await expect(traveler.getByText(`預約已確認 #${orderId}`)).toBeVisible();
  await expect(traveler.getByText(`行程已完成 #${orderId}`)).toBeVisible();
  await expect(traveler.getByText(new RegExp(`給了您評價 #${orderId}`))).toBeVisible();

  // 9. An admin finds both reviews on /admin/reviews.
  const adminContext = await newContext(browser, testInfo, baseURL!);
  const admin = await adminContext.newPage();
  await admin.goto(`/login?${new URLSearchParams({ redirectTo: `/admin/reviews?keyword=${orderId}` })}`);
  await logIn(admin, E2E_ADMIN.email, E2E_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin\/reviews/, { timeout: 10_000 });
  await expect(admin.getByText('夜市美食導覽很精彩')).toBeVisible();
  await expect(admin.getByText('準時又親切的旅客')).toBeVisible();
  await expectNoAxeViolations(admin, testInfo);

  // 10. Deleting a review asks first (issue 19): a modal with JS, a confirmation step without; keeping it changes
  // nothing, confirming deletes it.
  const guidesReview = admin.locator('li.admin-review').filter({ hasText: '準時又親切的旅客' });
  const askToDelete = async () => {
    await guidesReview.getByRole('button', { name: '刪除', exact: true }).click();
    const dialog = admin.getByRole('dialog', { name: '確定要刪除這則評價嗎？' });
    await expect(dialog).toBeInViewport();
    await expect(dialog).toContainText('將永久刪除');
    return dialog;
  };
  const asked = await askToDelete();
  if (jsEnabled(testInfo)) expect(await asked.evaluate((d) => d.matches(':modal'))).toBe(true);
  await expectNoAxeViolations(admin, testInfo, '/admin/reviews (asking before deleting)');
  await asked.getByRole(jsEnabled(testInfo) ? 'button' : 'link', { name: '保留評價' }).click();
  await expect(admin.getByRole('dialog')).toHaveCount(0);
  await expect(admin.getByText('準時又親切的旅客')).toBeVisible();
  await (await askToDelete()).getByRole('button', { name: '確定刪除評價' }).click();
  await expect(admin.getByText('已刪除評價')).toBeVisible();
  await expect(admin.getByText('準時又親切的旅客')).toHaveCount(0);
  await expect(admin.getByText('夜市美食導覽很精彩')).toBeVisible();

  await adminContext.close();
  await guideContext.close();
  await travelerContext.close();
});
