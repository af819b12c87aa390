import { E2E_ADMIN, jsEnabled, waitForHydration } from './support';
import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from './test';
import { registerTraveler } from './travelers';

/**
 * Issue 35, the board at 360 px, JS on and off: a post and a reply empty their form once sent, and a double tap
 * makes one of each; a reply an admin hid stays for its author, marked with the reason, and they get a
 * notification; a guide's name on a reply leads to the guide's page.
 */
const PASSWORD = 'demo1234';
const TRAVELER_PASSWORD = 'board-forms-pass-1';
// Guides no other spec writes board replies as (specs run at the same time on one database).
const GUIDES = { 'js-on': 'guide13@demo.travel-assistant.tw', 'js-off': 'guide25@demo.travel-assistant.tw' } as const;

async function browserAs(browser: Browser, baseURL: string, testInfo: TestInfo, email: string, password: string, to: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'zh-TW', timezoneId: 'Asia/Taipei', viewport: { width: 360, height: 800 }, javaScriptEnabled: jsEnabled(testInfo) });
  const page = await context.newPage();
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`);
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button.auth-submit').click();
  await expect(page).toHaveURL((url) => url.pathname === to);
  if (jsEnabled(testInfo)) await waitForHydration(page);
  return page;
}

async function apiLogin(request: APIRequestContext, email: string, password = PASSWORD) {
  const response = await request.post('/api/v1/auth/login', { data: { email, password } });
  expect(response.status()).toBe(200);
  return (await response.json()).data as { token: string; user: { id: number } };
}

test('a post and a reply empty their form once sent, a double tap makes one; a hidden reply stays for its author with the reason', async ({ browser, baseURL, request }, testInfo) => {
  test.setTimeout(180_000);
  const project = jsEnabled(testInfo) ? 'js-on' : 'js-off';
  // Letters only: digits would read as a phone number, which the board masks.
  const stamp = `${project}-${Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
  const traveler = await registerTraveler(request, testInfo, { label: 'board-forms', name: `看板旅客${project === 'js-on' ? '甲' : '乙'}`, password: TRAVELER_PASSWORD });

  const page = await browserAs(browser, baseURL!, testInfo, traveler.email, TRAVELER_PASSWORD, '/board');
  const postForm = page.locator('#board-post');
  const body = postForm.getByRole('textbox', { name: '內容' });
  await postForm.getByRole('combobox', { name: '城市' }).selectOption('tainan');
  await postForm.getByRole('checkbox', { name: '日文' }).check();
  await body.fill(`${stamp} 三月想找台南的日文導遊`);
  await postForm.getByRole('button', { name: '張貼', exact: true }).dblclick();
  const mine = page.getByTestId('board-post').filter({ hasText: `${stamp} 三月想找台南的日文導遊` });
  await expect(mine).toHaveCount(1);
  await expect(body).toHaveValue('');
  const posts = await (await request.get('/api/v1/board/posts?city=tainan')).json();
  const ours = (posts.data.posts as { id: number; body: string }[]).filter((p) => p.body.startsWith(stamp));
  expect(ours).toHaveLength(1);
  const postId = ours[0]!.id;
  await page.context().close();

  const guideEmail = GUIDES[project];
  const guide = await browserAs(browser, baseURL!, testInfo, guideEmail, PASSWORD, `/board/${postId}`);
  const reply = guide.getByRole('textbox', { name: '你的回覆' });
  await reply.fill(`${stamp} 我可以帶，日文沒問題`);
  await guide.getByRole('button', { name: '回覆', exact: true }).dblclick();
  const replies = guide.getByTestId('board-reply');
  await expect(replies).toHaveCount(1);
  await expect(reply).toHaveValue('');
  await expect((await request.get(`/api/v1/board/posts/${postId}/replies`)).json()).resolves.toMatchObject({ data: { replies: [expect.anything()] } });
  const replyId: number = (await (await request.get(`/api/v1/board/posts/${postId}/replies`)).json()).data.replies[0].id;

  // A visitor follows the guide's name to the guide's page.
  const guideApi = await apiLogin(request, guideEmail);
  const visitor = await browser.newContext({ baseURL, locale: 'zh-TW', viewport: { width: 360, height: 800 }, javaScriptEnabled: jsEnabled(testInfo) });
  const visitorPage = await visitor.newPage();
  await visitorPage.goto(`/board/${postId}`);
  await visitorPage.getByTestId('reply-guide-link').click();
  await expect(visitorPage).toHaveURL(new RegExp(`/guides/${guideApi.user.id}$`));

  // An admin hides it: the public no longer sees it; its author does, marked with the reason, and is told.
  const admin = await apiLogin(request, E2E_ADMIN.email, E2E_ADMIN.password);
  const hidden = await request.patch(`/api/v1/board/replies/${replyId}/hide`, { headers: { authorization: `Bearer ${admin.token}` }, data: { reason: '請勿在留言板招攬' } });
  expect(hidden.status()).toBe(200);
  await visitorPage.goto(`/board/${postId}`);
  await expect(visitorPage.getByTestId('board-reply')).toHaveCount(0);
  await guide.reload();
  await expect(guide.getByTestId('reply-hidden')).toHaveText('管理員已隱藏這則回覆，只有你和管理員看得到。原因：請勿在留言板招攬');
  await expect(guide.getByTestId('board-reply')).toContainText(`${stamp} 我可以帶，日文沒問題`);
  await guide.goto('/notifications');
  await expect(guide.getByText('你的留言板回覆已被隱藏').first()).toBeVisible();
  await guide.context().close();
  await visitor.close();
});
