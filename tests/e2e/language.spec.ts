import { expect, test } from './test';
import { chooseLanguage, jsEnabled, TEXT } from './support';

test.describe('language selector', () => {
  test('English sticks across reload and navigation and returns to the same page', async ({ page }, testInfo) => {
    await page.goto('/guides?page=2');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
    await expect(page.getByText('第 2 頁，共 4 頁')).toBeVisible();

    await chooseLanguage(page, testInfo, 'zh-TW', 'en');
    // Still on page 2 of the list, now in English.
    await expect(page).toHaveURL(/\/guides\?page=2$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Guides');
    // Other specs register guides on the same server, and new guides are listed at once: 36 or more.
    await expect(page.getByText(/^Page 2 of [4-9]$/)).toBeVisible();
    await expect(page.getByRole('main')).toContainText(/(3[6-9]|[4-9]\d) guides found/);
    await expect(page).toHaveTitle('Guides | Travel Assistant');
    if (jsEnabled(testInfo)) {
      await expect.poll(() => page.evaluate(() => localStorage.getItem('preferred-language'))).toBe('en');
    }

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Guides');

    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { level: 2, name: 'Featured guides' })).toBeVisible();
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Log in', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Sign up', exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: '登入', exact: true })).toHaveCount(0);
    await expect(page.getByRole('contentinfo')).toContainText('Version 1.3.0');
    await expect(page.getByRole('main')).toContainText(/NT\$\d{1,3}(,\d{3})* per slot, for a group of up to \d+/);
    // Following a link (client-side with JS, a full load without) keeps English.
    await header.getByRole('link', { name: 'Find a guide' }).click();
    await expect(page).toHaveURL(/\/guides$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Guides');
    await expect(page.getByText('Page 1 of 4')).toBeVisible();
    // The selector shows the current choice.
    await expect(page.getByRole('banner').getByRole('combobox', { name: 'Language' })).toHaveValue('en');
  });

  test('日本語 works the same way and can be switched back to 繁體中文', async ({ page }, testInfo) => {
    await page.goto('/terms');
    await chooseLanguage(page, testInfo, 'zh-TW', 'ja');
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'ログイン', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(TEXT.ja.termsTitle);
    if (jsEnabled(testInfo)) {
      await expect.poll(() => page.evaluate(() => localStorage.getItem('preferred-language'))).toBe('ja');
    }
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 2, name: 'おすすめのガイド' })).toBeVisible();
    await expect(page).toHaveTitle('旅行アシスタント');

    await chooseLanguage(page, testInfo, 'ja', 'zh-TW');
    await expect(page.getByRole('heading', { level: 2, name: '精選導遊' })).toBeVisible();
    if (jsEnabled(testInfo)) {
      await expect.poll(() => page.evaluate(() => localStorage.getItem('preferred-language'))).toBe('zh-TW');
    }
  });

  test.describe('without a cookie', () => {
    test.use({ locale: 'ja-JP', extraHTTPHeaders: { 'Accept-Language': 'ja-JP,ja;q=0.9' } });
    test('the Accept-Language header picks the language', async ({ page }) => {
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
      await expect(page.getByRole('heading', { level: 2, name: 'おすすめのガイド' })).toBeVisible();
    });
  });
});
