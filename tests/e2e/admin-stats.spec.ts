import { E2E_ADMIN, expectNoAxeViolations, jsEnabled, savePicture } from './support';
import { expect, test, type Page, type TestInfo } from './test';

/**
 * /admin/stats (issue 22) in a real browser, JS on and off: an admin opens it from the dashboard, changes the
 * period by a preset link and by two dates (a plain GET form), and reads the charts' tables; no axe violations and
 * no sideways scrolling at 360 px, none at 1280 px either. Screenshots (E2E_SCREENSHOTS=1, JS on): zh-TW and en,
 * light and dark, 360 and 1280 px.
 */
test.use({ viewport: { width: 360, height: 800 } });
test.setTimeout(180_000);

async function pictures(page: Page, testInfo: TestInfo): Promise<void> {
  if (!jsEnabled(testInfo) || process.env.E2E_SCREENSHOTS !== '1') return;
  const origin = new URL(page.url()).origin;
  const cookie = (locale: string) => ({ name: 'preferred-language', value: encodeURIComponent(Buffer.from(JSON.stringify(locale)).toString('base64')), url: origin });
  for (const locale of ['zh-TW', 'en']) {
    await page.context().addCookies([cookie(locale)]);
    await page.reload();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await savePicture(page, `admin-stats-${width}-${scheme}-${locale}.png`, { fullPage: true });
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.context().addCookies([cookie('zh-TW')]);
  await page.setViewportSize({ width: 360, height: 800 });
  await page.reload();
}

test('an admin reads the statistics for a period, changes it, and reads the tables', async ({ page, consoleErrors }, testInfo) => {
  consoleErrors.allowStatus('/admin/stats', 400, 'a period that ends before it starts is answered 400 with the form and its error');
  await page.goto(`/login?redirectTo=${encodeURIComponent('/admin')}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(E2E_ADMIN.email);
  await page.getByLabel('密碼', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);

  await page.getByRole('link', { name: '統計資料', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/stats$/);
  await expect(page.getByRole('heading', { level: 1, name: '統計資料' })).toBeVisible();
  await expect(page.getByRole('link', { name: '最近 30 天' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('stats-period')).toContainText('共 30 天');

  // A preset link.
  await page.getByRole('link', { name: '最近 7 天' }).click();
  await expect(page).toHaveURL(/\/admin\/stats\?range=7d$/);
  await expect(page.getByTestId('stats-period')).toContainText('共 7 天');
  const perDay = page.getByTestId('chart-bookings-per-day');
  await expect(perDay.getByRole('img', { name: '每日預約數' })).toBeVisible();
  await expect(perDay.getByRole('table', { name: '每日預約數' }).getByRole('row')).toHaveCount(8); // the head and 7 days

  // Two dates through the form.
  await page.getByLabel('開始日期').fill('2026-01-01');
  await page.getByLabel('結束日期').fill('2026-01-31');
  await page.getByRole('button', { name: '顯示', exact: true }).click();
  await expect(page).toHaveURL(/from=2026-01-01&to=2026-01-31/);
  await expect(page.getByTestId('stats-period')).toContainText('2026-01-01 至 2026-01-31（共 31 天');
  await expect(perDay.getByRole('table').getByRole('row')).toHaveCount(32);
  await expect(perDay.getByRole('rowheader', { name: '2026-01-31' })).toBeAttached();
  const funnel = page.getByTestId('chart-funnel').getByRole('table');
  await expect(funnel.getByRole('rowheader', { name: '導遊頁面瀏覽' })).toBeVisible();
  await expect(page.getByTestId('chart-orders-by-status').getByRole('rowheader', { name: '已完成' })).toBeVisible();

  // A period that ends before it starts: the error, with the typed dates kept.
  await page.getByLabel('結束日期').fill('2025-12-01');
  await page.getByRole('button', { name: '顯示', exact: true }).click();
  await expect(page.getByText('結束日期不能早於開始日期。')).toBeVisible();
  await expect(page.getByLabel('開始日期')).toHaveValue('2026-01-01');
  await expect(page.getByLabel('結束日期')).toHaveValue('2025-12-01');

  await page.getByRole('link', { name: '今年' }).click();
  await expect(page.getByRole('link', { name: '今年' })).toHaveAttribute('aria-current', 'page');
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `no sideways scrolling at ${width}px`).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(page, testInfo, `admin stats at ${width}px`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, testInfo, 'admin stats, dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await pictures(page, testInfo);
});
