import { E2E_ADMIN, expectNoAxeViolations, jsEnabled, savePicture } from './support';
import { expect, test, type Page } from './test';

/**
 * Issue 35, /admin/terms at 360 px, JS on and off: the console's tables and way back, no sideways scroll; a new
 * version starts from the chosen kind's and language's current text, is previewed as users see it, and is only
 * published after a confirmation that says what it does. The terms of service are only previewed here (publishing
 * them would ask every e2e user again); a booking terms version is published (same words, a higher version).
 */
async function login(page: Page, to: string) {
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(E2E_ADMIN.email);
  await page.getByLabel('密碼', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
}

const noSidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test('an admin starts from the current text, previews it as users see it and confirms before publishing', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await login(page, '/admin/terms');
  await expect(page).toHaveURL(/\/admin\/terms$/);
  await expect(page.getByRole('heading', { level: 1, name: '條款版本' })).toBeVisible();
  await expect(page.getByRole('link', { name: '← 返回管理後台' })).toHaveAttribute('href', '/admin');
  await expect(page.locator('table.admin-table')).toHaveCount(2);
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page, testInfo);
  await savePicture(page, `admin-terms-${testInfo.project.name}-360.png`, { fullPage: true });

  // The terms of service in English: the English text to start from; the preview says who will agree again.
  const chooser = page.getByRole('form', { name: '要修改的條款' });
  await chooser.getByLabel('種類').selectOption('terms');
  await chooser.getByLabel('語言').selectOption('en');
  await chooser.getByRole('button', { name: '載入目前內容' }).click();
  await expect(page).toHaveURL(/\/admin\/terms\?kind=terms&locale=en$/);
  await expect(page.getByLabel('標題')).toHaveValue('Terms of Service');
  await expect(page.getByLabel('內容（Markdown）')).toHaveValue(/## 1\./);
  await page.getByLabel('版本').fill('9.0.0');
  await page.getByRole('button', { name: '預覽' }).click();
  const confirm = page.getByTestId('terms-confirm');
  await expect(confirm).toContainText('發布後，使用English的每位使用者都需要再次同意服務條款，同意前無法預約或傳送訊息。');
  await expect(page.getByRole('region', { name: '使用者將看到的樣子' }).getByRole('heading', { level: 3, name: 'Terms of Service' })).toBeVisible();
  await savePicture(page, `admin-terms-confirm-${testInfo.project.name}-360.png`, { fullPage: true });
  // Not published: the table still has English 1.0.0 as the current version.
  await page.goto('/admin/terms?kind=terms&locale=en');
  await expect(page.getByRole('row', { name: /服務條款/ }).first()).toContainText('1.0.0 · Terms of Service');

  // The booking terms (one language per project): published after the confirmation, same words, higher version.
  const locale = jsEnabled(testInfo) ? 'ja' : 'en';
  const version = `1.${1000 + (Math.floor(Date.now() / 1000) % 8000)}.0`;
  await page.goto(`/admin/terms?kind=booking&locale=${locale}`);
  const title = await page.getByLabel('標題').inputValue();
  expect(title).not.toBe('');
  await page.getByLabel('版本').fill(version);
  await page.getByRole('button', { name: '預覽' }).click();
  await expect(confirm).toContainText('發布後，公開頁面立即顯示新版本；使用者不需再次同意。');
  expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(360);
  await confirm.getByRole('button', { name: '確認發布' }).click();
  await expect(page.getByRole('status').filter({ hasText: `已發布 預約條款 ${version}` })).toBeVisible();
  await expect(page.getByTestId('terms-version').filter({ hasText: version })).toHaveCount(1);
});
