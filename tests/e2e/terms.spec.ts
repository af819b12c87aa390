import { expect, test, type Page } from './test';
import { expectNoAxeViolations, jsEnabled, savePicture } from './support';
import { TERMS_DISAGREE, TERMS_ENGLISH, TERMS_PENDING } from './terms-users';

/**
 * The terms check on load (SPEC §2 Terms modal, §4; issue 24). With JS a modal: Agree only after scrolling to
 * the bottom with the box ticked; without JS the agreement page, and back to where the person was.
 */
const PASSWORD = 'demo1234';

async function login(page: Page, email: string, redirectTo: string) {
  await page.goto(`/login?${new URLSearchParams({ redirectTo })}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登入', exact: true }).click();
}

test('a user who has not agreed must agree before going on', async ({ page }, testInfo) => {
  const email = TERMS_PENDING[jsEnabled(testInfo) ? 0 : 1];
  await login(page, email, '/orders');
  if (!jsEnabled(testInfo)) {
    // Sent to the agreement page, with the same text, box and buttons.
    await expect(page).toHaveURL(/\/terms\/agree\?redirectTo=%2Forders&lng=zh-TW$/);
    await expect(page.getByRole('heading', { level: 1, name: '請同意服務條款' })).toBeVisible();
    await expect(page.getByRole('button', { name: '不同意' })).toBeVisible();
    await expectNoAxeViolations(page, testInfo);
    await savePicture(page, 'terms-page-js-off-zh-TW-light-360.png');
    await page.getByLabel('我已閱讀並同意以上條款').check();
    await page.getByRole('button', { name: '同意', exact: true }).click();
    await expect(page).toHaveURL(/\/orders$/);
    await page.goto('/me');
    await expect(page).toHaveURL(/\/me$/);
    return;
  }
  await expect(page).toHaveURL(/\/orders$/);
  const modal = page.getByRole('dialog');
  await expect(modal).toBeVisible();
  const agree = modal.getByRole('button', { name: '同意', exact: true });
  await expect(modal.getByTestId('terms-hint')).toHaveText('請滾動到底部');
  await expect(agree).toBeDisabled();
  await modal.getByLabel('我已閱讀並同意以上條款').check();
  // Ticked but not read to the bottom.
  await expect(agree).toBeDisabled();
  await expectNoAxeViolations(page, testInfo);
  for (const [scheme, width] of [['light', 360], ['light', 1280], ['dark', 360], ['dark', 1280]] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 800 });
    await savePicture(page, `terms-modal-zh-TW-${scheme}-${width}.png`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await modal.locator('.terms-scroll').evaluate((box) => {
    box.scrollTop = box.scrollHeight;
    box.dispatchEvent(new Event('scroll'));
  });
  await expect(modal.getByTestId('terms-hint')).toHaveText('已閱讀完畢');
  await expect(agree).toBeEnabled();
  await agree.click();
  await expect(modal).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('termsAgreed') ?? 'null'));
  expect(stored).toMatchObject({ version: expect.any(String), agreedAt: expect.any(String) });
});

test('a visitor gets a banner that does not block the page, dismissed for good; a corrupt local record is deleted', async ({ browser, baseURL }, testInfo) => {
  test.skip(!jsEnabled(testInfo), 'the visitor notice is kept in local storage by JS');
  const context = await browser.newContext({ locale: 'en', extraHTTPHeaders: { 'Accept-Language': 'en' } });
  await context.addCookies([{ name: 'e2e-first-visit', value: '1', url: baseURL! }]);
  const page = await context.newPage();
  try {
    // A shared guide page, opened for the first time: readable at once, no modal over it.
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto('/guides?lng=en');
    const banner = page.getByTestId('terms-visitor-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('By using Travel Assistant you agree to the Terms of Service.');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(banner.getByRole('link', { name: 'Read the terms' })).toHaveAttribute('href', '/terms');
    await expectNoAxeViolations(page, testInfo);
    await savePicture(page, 'terms-visitor-banner-en-360.png');
    await banner.getByRole('button', { name: 'Got it' }).click();
    await expect(banner).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByTestId('terms-visitor-banner')).toHaveCount(0);

    // The corrupt record is written on a page of the site without React (a JSON answer).
    await page.goto('/api/ping');
    await page.evaluate(() => localStorage.setItem('termsAgreed', '{not json'));
    await page.goto('/guides');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('termsAgreed'))).toBeNull();
    await expect(page.getByRole('dialog')).toHaveCount(0);
  } finally {
    await context.close();
  }
});

test('an English reader is not asked again after a zh-TW version; in Chinese they are, in Chinese', async ({ browser }, testInfo) => {
  const email = TERMS_ENGLISH[jsEnabled(testInfo) ? 0 : 1];
  // The browser's own language, English. Not the config's forced Accept-Language header: it would also override
  // the one the modal's request names (the page's language), which a real browser sends as asked.
  const context = await browser.newContext({ locale: 'en', extraHTTPHeaders: {}, javaScriptEnabled: jsEnabled(testInfo) });
  const page = await context.newPage();
  try {
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`/login?${new URLSearchParams({ redirectTo: '/orders' })}`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await expect(page).toHaveURL(/\/orders$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (jsEnabled(testInfo)) await page.waitForLoadState('networkidle');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(/\/orders$/);
    await savePicture(page, `terms-english-after-zh-publish-${testInfo.project.name}-360.png`);

    // The same person reading in Chinese is asked to agree to zh-TW 1.1.0, shown in Chinese with Chinese buttons.
    await page.goto('/orders?lng=zh-TW');
    if (!jsEnabled(testInfo)) {
      await expect(page).toHaveURL(/\/terms\/agree\?redirectTo=%2Forders%3Flng%3Dzh-TW&lng=zh-TW$/);
      await expect(page.getByRole('heading', { level: 2, name: '服務條款', exact: true })).toBeVisible();
      await expect(page.getByRole('region', { name: '服務條款', exact: true })).toHaveAttribute('lang', 'zh-TW');
      await savePicture(page, 'terms-page-zh-TW-after-zh-publish-js-off-360.png');
      await expect(page.getByTestId('terms-untranslated')).toHaveCount(0);
      return;
    }
    const modal = page.getByRole('dialog');
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('heading', { name: '服務條款', exact: true })).toBeVisible();
    await expect(modal.getByRole('region', { name: '服務條款', exact: true })).toHaveAttribute('lang', 'zh-TW');
    await expect(modal.getByRole('button', { name: '同意', exact: true })).toBeVisible();
    await expect(modal.getByTestId('terms-untranslated')).toHaveCount(0);
    await savePicture(page, 'terms-modal-zh-TW-after-zh-publish-360.png');
  } finally {
    await context.close();
  }
});

test('disagreeing says what it means and offers the ways on; then a banner, booking refused, until agreeing', async ({ page }, testInfo) => {
  const email = TERMS_DISAGREE[jsEnabled(testInfo) ? 0 : 1];
  await page.setViewportSize({ width: 360, height: 800 });
  await login(page, email, '/guides');
  if (jsEnabled(testInfo)) {
    const modal = page.getByRole('dialog');
    await expect(modal).toBeVisible();
    await modal.getByRole('button', { name: '不同意' }).click();
  } else {
    await expect(page).toHaveURL(/\/terms\/agree\?redirectTo=%2Fguides&lng=zh-TW$/);
    await page.getByRole('button', { name: '不同意' }).click();
  }
  await expect(page).toHaveURL(/\/terms\/disagree\?redirectTo=%2Fguides$/);
  await expect(page.getByRole('heading', { level: 1, name: '您尚未同意服務條款' })).toBeVisible();
  await expect(page.getByText('在同意之前，您無法預約導遊或傳送訊息。')).toBeVisible();
  await expect(page.getByRole('link', { name: '閱讀完整條款' })).toHaveAttribute('href', '/terms');
  await expect(page.getByRole('main').getByRole('button', { name: '登出' })).toBeVisible();
  await expect(page.getByRole('link', { name: '聯絡客服' })).toHaveAttribute('href', /^mailto:/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectNoAxeViolations(page, testInfo);
  await savePicture(page, `terms-disagree-${testInfo.project.name}-360.png`);

  // Browsing goes on: no modal, no move to the agreement page, a banner with the way to agree.
  await page.getByRole('link', { name: '繼續瀏覽' }).click();
  await expect(page).toHaveURL(/\/guides$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const banner = page.getByTestId('terms-declined-banner');
  await expect(banner).toContainText('您尚未同意服務條款：同意之前無法預約或傳送訊息。');
  if (jsEnabled(testInfo)) await page.waitForLoadState('networkidle');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await savePicture(page, `terms-declined-banner-${testInfo.project.name}-360.png`);

  // Agreeing from the banner ends it.
  await banner.getByRole('link', { name: '閱讀並同意' }).click();
  await expect(page).toHaveURL(/\/terms\/agree\?redirectTo=%2Fguides$/);
  const text = page.locator('.terms-scroll');
  await text.evaluate((box) => {
    box.scrollTop = box.scrollHeight;
    box.dispatchEvent(new Event('scroll'));
  });
  await page.getByLabel('我已閱讀並同意以上條款').check();
  await page.getByRole('button', { name: '同意', exact: true }).click();
  await expect(page).toHaveURL(/\/guides$/);
  await expect(page.getByTestId('terms-declined-banner')).toHaveCount(0);
});
