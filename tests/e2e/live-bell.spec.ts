import { expect, test } from './test';
import { jsEnabled } from './support';
import { payWithTestCard } from './pay';

/**
 * The header bell is live (issue 10, "Everyone is told"): a guide sits on a page; in another browser a traveler
 * books one of the guide's slots; the guide's bell shows the new unread notification without a reload or a
 * navigation (the socket's `new_notification` revalidates the root loader). JS on only: without JS nothing is live.
 */
const PASSWORD = 'demo1234';
// Accounts no other spec uses: specs run at the same time against one database.
const GUIDE = 'guide12@demo.travel-assistant.tw';
const TRAVELER = 'olivia.bennett@demo.travel-assistant.tw';

test('the guide’s bell shows 1 when a traveler books, without a reload', async ({ browser, baseURL, request }, testInfo) => {
  test.skip(!jsEnabled(testInfo), 'live updates need JavaScript');
  test.setTimeout(120_000);
  // Start from zero unread, so the badge's "1" is this booking.
  const login = await request.post('/api/v1/auth/login', { data: { email: GUIDE, password: PASSWORD } });
  const { token, user } = (await login.json()).data as { token: string; user: { id: number } };
  const readAll = await request.put('/api/v1/notifications/read-all', { headers: { authorization: `Bearer ${token}` }, data: { userId: user.id } });
  expect(readAll.status()).toBe(200);

  const contextOptions = { baseURL: baseURL!, locale: 'zh-TW', timezoneId: 'Asia/Taipei', viewport: { width: 360, height: 800 } };
  const guideContext = await browser.newContext(contextOptions);
  const guide = await guideContext.newPage();
  await guide.goto('/login?redirectTo=%2Fguides');
  await guide.locator('input[name="email"]').fill(GUIDE);
  await guide.locator('input[name="password"]').fill(PASSWORD);
  await guide.locator('button.auth-submit').click();
  await expect(guide).toHaveURL(/\/guides/);
  const badge = guide.getByTestId('unread-badge');
  await expect(badge).toHaveCount(0);
  // Wait until the page is hydrated and its socket is in the guide's room before the other party acts.
  await expect(guide.locator('html.js')).toHaveCount(1);
  await guide.waitForFunction(() => document.readyState === 'complete');
  await guide.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const guideUrl = guide.url();
  await guide.waitForTimeout(1500);

  const travelerContext = await browser.newContext(contextOptions);
  const traveler = await travelerContext.newPage();
  await traveler.goto(`/login?${new URLSearchParams({ redirectTo: `/booking/${user.id}` })}`);
  await traveler.locator('input[name="email"]').fill(TRAVELER);
  await traveler.locator('input[name="password"]').fill(PASSWORD);
  await traveler.locator('button.auth-submit').click();
  await expect(traveler).toHaveURL(new RegExp(`/booking/${user.id}`));
  await traveler.locator('input[type="radio"][name="slot"]').first().check();
  await traveler.locator('input[name="numberOfPeople"]').fill('2');
  await traveler.locator('input[name="termsAccepted"]').check();
  await traveler.locator('form#booking button[type="submit"]').click();
  // The guide hears of a booking once it is paid (issue 32).
  await payWithTestCard(traveler, { js: true });

  // The guide did nothing: the badge appears on the same document.
  await expect(badge).toHaveText('1', { timeout: 15_000 });
  expect(guide.url()).toBe(guideUrl);
  expect(await guide.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await expect(guide.locator('a.bell-link[href="/notifications"]')).toHaveAttribute('aria-label', /1/);

  await guideContext.close();
  await travelerContext.close();
});
