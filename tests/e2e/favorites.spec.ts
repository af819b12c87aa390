import { expect, test, type Page, type Response, type TestInfo } from './test';
import { expectNoAxeViolations, jsEnabled, loadAllImages, savePicture } from './support';

/**
 * Favorites, the home page's hearts and the two role homes (issue 9 part B), with JS on and off at 360 px:
 * a visitor is sent to log in, a heart on the home page's featured cards saves a guide, /favorites lists it
 * and removes it. axe finds no violations on /, /favorites, /traveler and /guide. One demo traveler per
 * project (js-on / js-off run side by side), so their favorites never meet.
 */
const PASSWORD = 'demo1234';
const travelerFor = (testInfo: TestInfo) =>
  jsEnabled(testInfo) ? 'pinyen.chen@demo.travel-assistant.tw' : 'kuanlin.lin@demo.travel-assistant.tw';
const guideFor = (testInfo: TestInfo) =>
  jsEnabled(testInfo) ? 'guide03@demo.travel-assistant.tw' : 'guide04@demo.travel-assistant.tw';

async function logIn(page: Page, email: string, then: RegExp) {
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  // /login-success moves on by itself (a timer with JS, a meta refresh without).
  await expect(page).toHaveURL(then, { timeout: 15_000 });
}

/** The next POST to /favorites (with JS, the fetcher's `/favorites.data`). */
function favoritesPost(page: Page) {
  return page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.startsWith('/favorites'));
}

/** With JS the heart and the remove button ask for an answer in place: 200, not a redirect back with a toast. */
async function expectJsonReply(response: Response) {
  expect(response.request().postData()).toContain('respond=json');
  expect(response.status()).toBe(200);
}

test.describe('favorites', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('log in from /favorites, save a featured guide with the heart, see it on /favorites, remove it', async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    await page.goto('/favorites');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Ffavorites$/);
    await logIn(page, travelerFor(testInfo), /\/favorites$/);
    await expect(page.getByRole('heading', { level: 1, name: '我的收藏' })).toBeVisible();
    await expectNoAxeViolations(page, testInfo, '/favorites');

    // Start clean: remove anything saved by an earlier run of this project.
    const removeButtons = page.getByRole('button', { name: /^從收藏移除 / });
    while ((await removeButtons.count()) > 0) {
      // Answered before the list is read again: a list read first would still show the guide, and removing it
      // a second time answers 404.
      const removed = favoritesPost(page);
      await removeButtons.first().click();
      await removed;
      if (!jsEnabled(testInfo)) await page.waitForLoadState('load');
      await page.goto('/favorites');
    }
    await expect(page.getByTestId('favorites-empty')).toBeVisible();

    await page.goto('/');
    await expectNoAxeViolations(page, testInfo, '/');
    const firstCard = page.getByTestId('featured-guides').getByRole('article').first();
    const name = (await firstCard.getByRole('heading').innerText()).trim();
    const featured = page.getByTestId('featured-guides');
    const heart = featured.getByRole('button', { name: `將 ${name} 加入收藏` });
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    const heartPosted = favoritesPost(page);
    await heart.click();
    const saved = featured.getByRole('button', { name: `將 ${name} 從收藏移除` });
    await expect(saved).toHaveAttribute('aria-pressed', 'true');
    if (jsEnabled(testInfo)) {
      // In place: the fetcher asked for JSON (respond=json) and got an answer, not a redirect back with a toast.
      await expectJsonReply(await heartPosted);
      await expect(page).toHaveURL(/\/$/);
    } else {
      await expect(page.getByRole('status')).toHaveText('已加入收藏');
    }
    await savePicture(page, `favorites-heart-${testInfo.project.name}-360.png`, { fullPage: false });

    await page.goto('/favorites');
    const item = page.getByTestId('favorite-item').filter({ hasText: name });
    await expect(item).toHaveCount(1);
    await expect(page.getByText('收藏了 1 位導遊')).toBeVisible();
    await loadAllImages(page);
    await expectNoAxeViolations(page, testInfo, '/favorites with a guide');
    await savePicture(page, `favorites-list-${testInfo.project.name}-360.png`, { fullPage: true });

    const removePosted = favoritesPost(page);
    await item.getByRole('button', { name: `從收藏移除 ${name}` }).click();
    if (jsEnabled(testInfo)) {
      await expect(item).toHaveCount(0);
      await expectJsonReply(await removePosted);
    } else {
      await expect(page.getByRole('status')).toHaveText('已從收藏移除');
    }
    await page.goto('/favorites');
    await expect(page.getByTestId('favorites-empty')).toBeVisible();

    // The traveler's home: spending, recent bookings, recommendations.
    await page.goto('/traveler');
    await expect(page.getByRole('heading', { level: 2, name: '推薦導遊' })).toBeVisible();
    await expect(page.getByTestId('stat-spent')).toHaveText(/NT\$/);
    await expect(page.getByTestId('recommendations').getByRole('article').first()).toBeVisible();
    await expectNoAxeViolations(page, testInfo, '/traveler');
  });

  test('a visitor who taps a heart logs in and comes back', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await page.goto('/');
    const firstCard = page.getByTestId('featured-guides').getByRole('article').first();
    const name = (await firstCard.getByRole('heading').innerText()).trim();
    await page.getByTestId('featured-guides').getByRole('button', { name: `將 ${name} 加入收藏` }).click();
    await expect(page).toHaveURL(/\/login\?redirectTo=%2F$/);
    // Without the fetcher a redirect to /login is a plain navigation; with it Remix follows the redirect too.
    expect(testInfo.project.name).toMatch(/js-(on|off)/);
  });

  test('the guide center passes axe and links to service-time management', async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    await page.goto('/login');
    await logIn(page, guideFor(testInfo), /\/guide$/);
    await expect(page.getByRole('heading', { level: 1, name: '導遊中心' })).toBeVisible();
    await expect(page.getByRole('link', { name: '服務時間管理' })).toHaveAttribute('href', '/guide-availability');
    await expectNoAxeViolations(page, testInfo, '/guide');
  });
});
