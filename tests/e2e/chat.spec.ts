import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from './test';
import { expectNoAxeViolations, jsEnabled, savePicture } from './support';
import { payOrderOverHttp } from './pay';

/**
 * Chat (issue 23), both sides in two browser contexts. JS off at 360 px: a traveler asks from a guide's page, the
 * guide answers with a phone number, which both see masked; the traveler books, the guide confirms, and the number
 * shows. JS on: the guide's page gets the traveler's message with no reload, the header count rises and falls,
 * and the traveler sees the read receipt. axe on /chat and a conversation; screenshots at 360 and 1280 px.
 */
const PASSWORD = 'demo1234';
// Accounts no other spec uses (prepare-data.ts makes the travelers): specs run at the same time on one database.
const ACCOUNTS = {
  'js-on': { traveler: 'e2e-chat-traveler-js-on@example.com', guide: 'guide26@demo.travel-assistant.tw' },
  'js-off': { traveler: 'e2e-chat-traveler-js-off@example.com', guide: 'guide27@demo.travel-assistant.tw' },
} as const;
const PHONE = '0912 345 678';
const MASK = '•••';

function accounts(testInfo: TestInfo) {
  return ACCOUNTS[jsEnabled(testInfo) ? 'js-on' : 'js-off'];
}

async function apiLogin(request: APIRequestContext, email: string) {
  const response = await request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
  expect(response.status()).toBe(200);
  return (await response.json()).data as { token: string; user: { id: number } };
}

async function browserAs(browser: Browser, baseURL: string, testInfo: TestInfo, email: string, width = 360, locale = 'zh-TW'): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    locale,
    timezoneId: 'Asia/Taipei',
    viewport: { width, height: 800 },
    javaScriptEnabled: jsEnabled(testInfo),
  });
  const page = await context.newPage();
  await page.goto('/login?redirectTo=%2Fchat');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('button.auth-submit').click();
  await expect(page).toHaveURL(/\/chat$/);
  if (jsEnabled(testInfo)) {
    await expect(page.locator('html.js')).toHaveCount(1);
    await page.waitForFunction(() => document.readyState === 'complete');
  }
  return page;
}

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: /訊息|Message/ }).fill(text);
  await page.getByRole('button', { name: /^(傳送|Send)$/ }).click();
}

const bubbles = (page: Page) => page.getByTestId('chat-message').locator('.chat-bubble');

test('a traveler asks, the guide answers; contacts are masked until the booking is confirmed', async ({ browser, baseURL, request }, testInfo) => {
  test.setTimeout(180_000);
  const { traveler: travelerEmail, guide: guideEmail } = accounts(testInfo);
  const guideApi = await apiLogin(request, guideEmail);
  const travelerApi = await apiLogin(request, travelerEmail);

  const traveler = await browserAs(browser, baseURL!, testInfo, travelerEmail);
  await traveler.goto(`/guides/${guideApi.user.id}`);
  await traveler.getByTestId('ask-link').click();
  await expect(traveler).toHaveURL(/\/chat\/new\?guideId=/);
  await traveler.getByRole('textbox').fill('可以半天嗎？適合推嬰兒車嗎？');
  await traveler.getByRole('button', { name: '送出問題' }).click();
  await expect(traveler).toHaveURL(/\/chat\/\d+/);
  const chatPath = new URL(traveler.url()).pathname;
  await expect(bubbles(traveler)).toHaveText(['可以半天嗎？適合推嬰兒車嗎？']);
  await expect(traveler.getByTestId('masked-notice')).toBeVisible();

  const guide = await browserAs(browser, baseURL!, testInfo, guideEmail);
  await expect(guide.getByTestId('messages-badge')).toHaveText('1');
  await expect(guide.getByTestId('chat-list')).toContainText('可以半天嗎？');
  await expectNoAxeViolations(guide, testInfo, '/chat');
  await guide.getByTestId('chat-list').getByRole('link').first().click();
  await expect(guide).toHaveURL(new RegExp(`${chatPath}$`));
  await expect(guide.getByTestId('messages-badge')).toHaveCount(0);
  await send(guide, `可以！有問題打給我 ${PHONE}`);
  await expect(bubbles(guide).last()).toHaveText(`可以！有問題打給我 ${MASK}`);
  await expectNoAxeViolations(guide, testInfo, 'a conversation');

  if (!jsEnabled(testInfo)) await traveler.reload();
  await expect(bubbles(traveler).last()).toHaveText(`可以！有問題打給我 ${MASK}`);
  // The traveler opened it: the guide sees "read" (live with JS, after a reload without).
  if (!jsEnabled(testInfo)) await traveler.reload();
  if (!jsEnabled(testInfo)) await guide.reload();
  await expect(guide.getByTestId('message-status').last()).toHaveText('已讀');

  // Book and confirm (the booking pages have their own specs): then the number shows, both ways.
  const slots = await (await request.get(`/api/v1/guides/${guideApi.user.id}/availability-slots`)).json();
  const slot = (slots.data.slots as { date: string; time_slot: string; bookable: boolean }[]).find((s) => s.bookable)!;
  const booked = await request.post('/api/v1/orders', {
    headers: { authorization: `Bearer ${travelerApi.token}` },
    data: { guideId: guideApi.user.id, date: slot.date, timeSlot: slot.time_slot, numberOfPeople: 2, termsAccepted: true },
  });
  expect(booked.status()).toBe(201);
  const orderId = (await booked.json()).data.order.id as number;
  await payOrderOverHttp(request, { orderId, token: travelerApi.token });
  const confirmed = await request.put(`/api/v1/orders/${orderId}`, { headers: { authorization: `Bearer ${guideApi.token}` }, data: { status: 'confirmed' } });
  expect(confirmed.status()).toBe(200);
  await traveler.reload();
  await expect(bubbles(traveler).last()).toHaveText(`可以！有問題打給我 ${PHONE}`);
  await expect(traveler.getByTestId('masked-notice')).toHaveCount(0);

  await traveler.context().close();
  await guide.context().close();
});

test('with JS, both sides see each other’s messages with no reload; the header count follows', async ({ browser, baseURL, request }, testInfo) => {
  test.skip(!jsEnabled(testInfo), 'live updates need JavaScript');
  test.setTimeout(120_000);
  const { traveler: travelerEmail, guide: guideEmail } = ACCOUNTS['js-on'];
  const guideApi = await apiLogin(request, guideEmail);
  const travelerApi = await apiLogin(request, travelerEmail);
  // The conversation of this pair (the first test may have made it).
  const started = await request.post('/api/v1/chats', {
    headers: { authorization: `Bearer ${travelerApi.token}` },
    data: { guideId: guideApi.user.id, message: '哈囉，在嗎？', clientId: `hello-${Date.now()}` },
  });
  expect([200, 201]).toContain(started.status());
  const chatId = (await started.json()).data.chat.id as number;

  const guide = await browserAs(browser, baseURL!, testInfo, guideEmail, 1280);
  await guide.goto('/guides');
  await guide.waitForTimeout(1500);
  const traveler = await browserAs(browser, baseURL!, testInfo, travelerEmail, 1280);
  await traveler.goto(`/chat/${chatId}`);
  await expect(traveler.locator('html.js')).toHaveCount(1);
  await traveler.waitForTimeout(1500);

  const before = Number((await guide.getByTestId('messages-badge').textContent()) ?? '0');
  await send(traveler, '我們四個人，兩個小孩');
  // Optimistic: shown at once; then stored.
  await expect(bubbles(traveler).last()).toHaveText('我們四個人，兩個小孩');
  await expect(traveler.getByTestId('message-status').last()).toHaveText(/已送出|傳送中/);
  await expect(guide.getByTestId('messages-badge')).toHaveText(String(before + 1), { timeout: 15_000 });

  await guide.goto(`/chat/${chatId}`);
  await expect(guide.getByTestId('messages-badge')).toHaveCount(0);
  await expect(traveler.getByTestId('message-status').last()).toHaveText('已讀', { timeout: 15_000 });
  await guide.waitForTimeout(1000);
  await send(guide, '沒問題，歡迎！');
  await expect(bubbles(traveler).last()).toHaveText('沒問題，歡迎！', { timeout: 15_000 });
  await expect(bubbles(guide)).toHaveCount(await bubbles(traveler).count());
  // Each message once.
  const texts = await bubbles(traveler).allTextContents();
  expect(new Set(texts.map((t, i) => `${i}:${t}`)).size).toBe(texts.length);
  expect(texts.filter((t) => t === '沒問題，歡迎！')).toHaveLength(1);

  await traveler.context().close();
  await guide.context().close();
});

test('screenshots of /chat and a conversation (360 and 1280 px, zh-TW and en, light and dark)', async ({ browser, baseURL, request }, testInfo) => {
  test.skip(!jsEnabled(testInfo), 'pictures once');
  test.setTimeout(180_000);
  const { traveler: travelerEmail, guide: guideEmail } = ACCOUNTS['js-on'];
  const guideApi = await apiLogin(request, guideEmail);
  const travelerApi = await apiLogin(request, travelerEmail);
  const started = await request.post('/api/v1/chats', {
    headers: { authorization: `Bearer ${travelerApi.token}` },
    data: { guideId: guideApi.user.id, message: 'Email me at mei@example.com or LINE: meilin88 — is NT$2,500 for 4 people OK on 2026-12-24?', clientId: `shot-${Date.now()}` },
  });
  const chatId = (await started.json()).data.chat.id as number;
  for (const locale of ['zh-TW', 'en'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      for (const width of [360, 1280]) {
        const page = await browserAs(browser, baseURL!, testInfo, travelerEmail, width, locale);
        await page.emulateMedia({ colorScheme: scheme });
        await savePicture(page, `chat-list-${locale}-${scheme}-${width}.png`, { fullPage: true });
        await page.goto(`/chat/${chatId}`);
        await expect(page.getByTestId('chat-messages')).toBeVisible();
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        await savePicture(page, `chat-conversation-${locale}-${scheme}-${width}.png`, { fullPage: true });
        await page.context().close();
      }
    }
  }
});

test('the message board: a traveler posts (JS on and off), contacts masked; axe; 360 px', async ({ browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const { traveler: travelerEmail } = accounts(testInfo);
  const page = await browserAs(browser, baseURL!, testInfo, travelerEmail, 360);
  await page.goto('/board');
  await expectNoAxeViolations(page, testInfo, '/board');
  const text = `${testInfo.project.name}：12 月想找台北的日文導遊，LINE: meilin88`;
  await page.getByLabel('城市').last().selectOption('taipei');
  await page.getByRole('group', { name: '希望的語言' }).getByLabel('日文').check();
  await page.getByLabel('內容').fill(text);
  await page.getByRole('button', { name: '張貼' }).click();
  // It lands on the board at the new post (issue 35: its own anchor, so a repeated submit lands there too).
  await expect(page).toHaveURL(/\/board(#post-\d+)?$/);
  await expect(page.getByTestId('board-post').first()).toContainText(`12 月想找台北的日文導遊，${MASK}`);
  await expect(page.getByText('meilin88')).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page, testInfo, '/board with a post');
  await savePicture(page, `board-zh-TW-light-360-${testInfo.project.name}.png`, { fullPage: true });
  await page.context().close();
});
