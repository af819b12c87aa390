import { expect, test, type Browser, type BrowserContext, type Page, type TestInfo } from './test';
import { acceptBooking, expectNoAxeViolations, jsEnabled, savePicture } from './support';
import { payWithTestCard } from './pay';

/**
 * Issue 10 end to end at 360 px, with JS on and off: a guide opens a slot → a visitor picks it, logs in and
 * comes back with the choice kept → books → the guide accepts → on the tour day (the slot is today's, so the
 * clock has reached it) both mark the tour done → the order is completed, and each side's notification
 * center says what happened. axe finds no violations on the new pages.
 */
const PASSWORD = 'demo1234';
const todayInTaipei = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());

// Each project uses its own guide and traveler: the two projects run at the same time against one database.
const PEOPLE = {
  'js-on': { guide: 'guide02@demo.travel-assistant.tw', traveler: 'pinyen.chen@demo.travel-assistant.tw' },
  'js-off': { guide: 'guide03@demo.travel-assistant.tw', traveler: 'kuanlin.lin@demo.travel-assistant.tw' },
} as const;

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

async function logIn(page: Page, email: string) {
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登入', exact: true }).click();
}

test('guide opens a slot → traveler books → guide accepts → both complete', async ({ browser, baseURL, request }, testInfo) => {
  test.setTimeout(jsEnabled(testInfo) ? 400_000 : 120_000);
  const who = PEOPLE[testInfo.project.name as keyof typeof PEOPLE];
  const today = todayInTaipei();
  const login = await request.post('/api/v1/auth/login', { data: { email: who.guide, password: PASSWORD } });
  const guideId = (await login.json()).data.user.id as number;

  // 1. The guide opens today's evening.
  const guideContext = await newContext(browser, testInfo, baseURL!);
  const guide = await guideContext.newPage();
  await guide.goto(`/login?${new URLSearchParams({ redirectTo: `/guide-availability?date=${today}` })}`);
  await logIn(guide, who.guide);
  await expect(guide).toHaveURL(/\/guide-availability\?date=/, { timeout: 10_000 });
  await expect(guide.getByRole('table')).toBeVisible();
  await expect(guide.getByRole('table').locator('caption')).toBeVisible();
  const evening = guide.getByRole('checkbox', { name: /晚上/ });
  await evening.check();
  await guide.getByRole('button', { name: '儲存', exact: true }).click();
  await expect(guide.getByRole('status').filter({ hasText: '已儲存並更新' })).toBeVisible();
  await expect(guide.getByRole('checkbox', { name: /晚上/ })).toBeChecked();
  await expectNoAxeViolations(guide, testInfo);

  // 2. A visitor chooses the slot, is asked to log in, and comes back with the choice kept.
  const travelerContext = await newContext(browser, testInfo, baseURL!);
  const traveler = await travelerContext.newPage();
  await traveler.goto(`/booking/${guideId}`);
  await expectNoAxeViolations(traveler, testInfo);
  const slot = traveler.locator(`input[type="radio"][value="${today}|evening"]`);
  await slot.check();
  await traveler.getByLabel('人數').fill('3');
  await traveler.getByLabel('備註（選填）').fill('想看夜市');
  await traveler.getByRole('checkbox', { name: '我同意預約條款' }).check();
  await expect(traveler.getByTestId('booking-summary').getByText('總金額')).toBeVisible();
  await traveler.getByRole('button', { name: '登入後預約' }).click();
  await expect(traveler).toHaveURL(/\/login\?redirectTo=/);
  await logIn(traveler, who.traveler);
  await expect(traveler).toHaveURL(new RegExp(`/booking/${guideId}\\?`), { timeout: 10_000 });
  await expect(traveler.locator(`input[type="radio"][value="${today}|evening"]`)).toBeChecked();
  await expect(traveler.getByLabel('備註（選填）')).toHaveValue('想看夜市');
  await traveler.getByRole('checkbox', { name: '我同意預約條款' }).check();
  await traveler.getByRole('button', { name: '確認預約' }).click();
  await payWithTestCard(traveler, { js: jsEnabled(testInfo) });
  await expect(traveler.getByRole('heading', { name: '預約已送出！' })).toBeVisible();
  await expectNoAxeViolations(traveler, testInfo);
  const orderId = new URL(traveler.url()).searchParams.get('order')!;

  // 3. The guide sees it in the notification center and accepts it.
  await guide.goto('/notifications');
  await expect(guide.getByText(`新的預約 #${orderId}`)).toBeVisible();
  await expectNoAxeViolations(guide, testInfo);
  await guide.goto('/orders');
  await expectNoAxeViolations(guide, testInfo);
  await guide.getByRole('link', { name: new RegExp(`#${orderId}`) }).click();
  await expect(guide.getByRole('heading', { name: new RegExp(`訂單 #${orderId}`) })).toBeVisible();
  await acceptBooking(guide);
  await expect(guide.getByText('已確認').first()).toBeVisible();

  // 4. It is the tour day: both mark it done.
  await traveler.goto(`/orders/${orderId}`);
  await expectNoAxeViolations(traveler, testInfo);
  // A touch target, not a 19 px inline link (issue 35).
  expect((await traveler.getByTestId('order-chat-link').boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await traveler.getByRole('button', { name: '標記行程完成' }).click();
  await expect(traveler.getByText('旅客：已完成')).toBeVisible();
  await guide.reload();
  await guide.getByRole('button', { name: '標記行程完成' }).click();
  await expect(guide.getByRole('heading', { name: new RegExp(`訂單 #${orderId}`) }).getByText('已完成')).toBeVisible();
  await expect(guide.getByRole('listitem').filter({ hasText: '雙方完成，訂單完成' })).toBeVisible();

  // 5. The traveler's notification center tells the story.
  await traveler.goto('/notifications');
  await expect(traveler.getByText(`預約已確認 #${orderId}`)).toBeVisible();
  await expect(traveler.getByText(`行程已完成 #${orderId}`)).toBeVisible();
  await traveler.getByRole('button', { name: '全部標為已讀' }).click();
  await expect(traveler.getByText('0 則未讀')).toBeVisible();

  if (jsEnabled(testInfo)) {
    // Screenshots of the new pages for people to look at: 360 and 1280 px, zh-TW and en, light and dark.
    const shots: Array<[BrowserContext, Page, string, string]> = [
      [guideContext, guide, 'guide-availability', `/guide-availability?date=${today}`],
      [travelerContext, traveler, 'booking', `/booking/${guideId}`],
      [travelerContext, traveler, 'booking-success', `/booking-success?order=${orderId}`],
      [travelerContext, traveler, 'orders', '/orders'],
      [travelerContext, traveler, 'order', `/orders/${orderId}`],
      [travelerContext, traveler, 'notifications', '/notifications'],
    ];
    for (const locale of ['zh-TW', 'en'] as const) {
      for (const scheme of ['light', 'dark'] as const) {
        for (const width of [360, 1280]) {
          for (const [context, page, name, url] of shots) {
            // Remix cookies hold base64 JSON.
            await context.addCookies([{ name: 'preferred-language', value: Buffer.from(JSON.stringify(locale)).toString('base64'), url: baseURL! }]);
            await page.emulateMedia({ colorScheme: scheme });
            await page.setViewportSize({ width, height: 800 });
            await page.goto(url);
            const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
            expect.soft(scrollWidth, `${url} at ${width}px`).toBeLessThanOrEqual(width);
            await savePicture(page, `booking-${name}-${locale}-${scheme}-${width}.png`, { fullPage: true });
          }
        }
      }
    }
  }
  await guideContext.close();
  await travelerContext.close();
});
