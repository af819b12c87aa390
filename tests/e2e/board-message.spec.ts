import { expect, test, type APIRequestContext } from './test';
import { E2E_ADMIN, expectNoAxeViolations, jsEnabled } from './support';

/**
 * A guide writes to a board post's author (issue 23: "guides reply publicly or start a conversation with the
 * poster"), at 360 px: a blank message is refused in words with the form kept; a message with a phone number opens
 * the conversation, masked; sending again from the post reuses it. A plain form: JS off is the case that matters.
 */
const PASSWORD = 'demo1234';
// Accounts no other spec uses (prepare-data.ts makes the travelers).
const ACCOUNTS = {
  'js-on': { traveler: 'e2e-board-traveler-js-on@example.com', guide: 'guide34@demo.travel-assistant.tw' },
  'js-off': { traveler: 'e2e-board-traveler-js-off@example.com', guide: 'guide35@demo.travel-assistant.tw' },
} as const;
const MASK = '•••';

async function apiLogin(request: APIRequestContext, email: string) {
  const response = await request.post('/api/v1/auth/login', { data: { email, password: PASSWORD } });
  expect(response.status()).toBe(200);
  return (await response.json()).data as { token: string; user: { id: number } };
}

test('a guide messages a board poster from the post: blank refused, the number masked, the conversation reused', async ({ browser, baseURL, request, consoleErrors }, testInfo) => {
  test.setTimeout(240_000);
  const { traveler: travelerEmail, guide: guideEmail } = ACCOUNTS[jsEnabled(testInfo) ? 'js-on' : 'js-off'];
  const traveler = await apiLogin(request, travelerEmail);
  const posted = await request.post('/api/v1/board/posts', {
    headers: { authorization: `Bearer ${traveler.token}` },
    data: { city: 'hualien', languages: ['zh'], body: `${testInfo.project.name}：四月想去太魯閣，找半天的導遊` },
  });
  expect(posted.status()).toBe(201);
  const postId: number = (await posted.json()).data.post.id;

  const context = await browser.newContext({ baseURL, locale: 'zh-TW', timezoneId: 'Asia/Taipei', viewport: { width: 360, height: 800 }, javaScriptEnabled: jsEnabled(testInfo) });
  const guide = await context.newPage();
  await guide.goto(`/login?redirectTo=${encodeURIComponent(`/board/${postId}`)}`);
  await guide.locator('input[name="email"]').fill(guideEmail);
  await guide.locator('input[name="password"]').fill(PASSWORD);
  await guide.locator('button.auth-submit').click();
  await expect(guide).toHaveURL(new RegExp(`/board/${postId}$`));

  const box = guide.getByRole('textbox', { name: '你的訊息' });
  consoleErrors.allowStatus(`/board/${postId}`, 400, 'a blank message is refused on purpose');
  await box.fill('   ');
  await guide.getByRole('button', { name: '私訊旅客' }).click();
  await expect(guide.getByText('請輸入訊息')).toBeVisible();

  await box.fill('你好，我是花蓮的導遊，可以帶半天。電話 0912 345 678');
  await guide.getByRole('button', { name: '私訊旅客' }).click();
  await expect(guide).toHaveURL(/\/chat\/\d+$/);
  const chatUrl = guide.url();
  const message = guide.getByTestId('chat-message').last();
  await expect(message).toContainText(`你好，我是花蓮的導遊，可以帶半天。電話 ${MASK}`);
  await expect(message).not.toContainText('345');
  expect(await guide.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

  // Back on the post: a link to the conversation, and a second message goes to the same one.
  await guide.goto(`/board/${postId}`);
  await expect(guide.getByRole('link', { name: '開啟與這位旅客的對話' })).toBeVisible();
  await expectNoAxeViolations(guide, testInfo, `/board/${postId} (guide)`);
  await box.fill('補充：車程約一小時。');
  await guide.getByRole('button', { name: '私訊旅客' }).click();
  await expect(guide).toHaveURL(chatUrl);
  await expect(guide.getByTestId('chat-message').last()).toContainText('補充：車程約一小時。');

  // The traveler finds it in their list.
  const list = await request.get('/api/v1/chats', { headers: { authorization: `Bearer ${traveler.token}` } });
  expect((await list.json()).data.chats.filter((c: { id: number }) => chatUrl.endsWith(`/chat/${c.id}`))).toHaveLength(1);
  await context.close();
});

test('an admin hides a board post with a labelled, full-size reason field (360 px)', async ({ browser, baseURL, request }, testInfo) => {
  const traveler = await apiLogin(request, ACCOUNTS[jsEnabled(testInfo) ? 'js-on' : 'js-off'].traveler);
  // A short suffix: 8 or more digits would read as a phone number and be masked.
  const body = `${testInfo.project.name}：想找台南美食導遊（${Date.now() % 100000}）`;
  const posted = await request.post('/api/v1/board/posts', {
    headers: { authorization: `Bearer ${traveler.token}` },
    data: { city: 'tainan', languages: ['zh'], body },
  });
  expect(posted.status()).toBe(201);

  const context = await browser.newContext({ baseURL, locale: 'zh-TW', timezoneId: 'Asia/Taipei', viewport: { width: 360, height: 800 }, javaScriptEnabled: jsEnabled(testInfo) });
  const admin = await context.newPage();
  await admin.goto(`/login?redirectTo=${encodeURIComponent('/board')}`);
  await admin.locator('input[name="email"]').fill(E2E_ADMIN.email);
  await admin.locator('input[name="password"]').fill(E2E_ADMIN.password);
  await admin.locator('button.auth-submit').click();
  await expect(admin).toHaveURL(/\/board$/);

  // Issue 35: the reason box was an unlabelled 20 px native input.
  const post = admin.getByRole('listitem').filter({ hasText: body });
  const reason = post.getByRole('textbox', { name: '隱藏原因' });
  await expect(reason).toBeVisible();
  expect((await reason.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await expectNoAxeViolations(admin, testInfo, '/board (admin)');
  await reason.fill('廣告');
  await post.getByRole('button', { name: '隱藏', exact: true }).click();
  await expect(admin.getByRole('listitem').filter({ hasText: body }).getByText('已隱藏：廣告')).toBeVisible();
  await context.close();
});
