import { expect, test } from './test';
import { chooseLanguage } from './support';

test.describe('404 page', () => {
  test('an unknown path answers 404 with the translated page', async ({ page, consoleErrors }) => {
    consoleErrors.allowStatus('/no-such-page', 404, 'the 404 page');
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('找不到頁面');
    await expect(page.getByText('您要找的頁面不存在或已被移除。')).toBeVisible();
    // The request id, so a screenshot leads to the log line (issue 25); it stays through hydration.
    await expect(page.getByText(`參考編號：${response?.headers()['x-request-id']}`)).toBeVisible();
    const home = page.getByRole('link', { name: '回到首頁' });
    await expect(home).toHaveAttribute('href', '/');
    // The site chrome is still there.
    await expect(page.getByRole('banner').getByRole('link', { name: '旅遊助手' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('版本 1.3.0');
    await home.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 2, name: '精選導遊' })).toBeVisible();
  });

  test('in English it says Page not found', async ({ page, consoleErrors }, testInfo) => {
    consoleErrors.allowStatus('/no-such-page/deeper', 404, 'the 404 page');
    await page.goto('/');
    await chooseLanguage(page, testInfo, 'zh-TW', 'en');
    const response = await page.goto('/no-such-page/deeper?x=1');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
  });
});
