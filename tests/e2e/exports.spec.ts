import fs from 'node:fs';
import { parse } from 'csv-parse/sync';
import { E2E_ADMIN, expectNoAxeViolations } from './support';
import { expect, test } from './test';

/**
 * Issue 22, exports: on /admin/orders an admin filters by status and clicks "匯出 CSV"; the browser downloads a CSV
 * with a BOM, Chinese headers and only the filtered orders. A plain link, so JS off is the case that matters.
 */
test('an admin downloads the filtered orders as CSV from /admin/orders', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'js-off', 'a plain download link: the JS-off run covers it');
  await page.goto('/login?redirectTo=%2Fadmin%2Forders');
  await page.getByLabel('電子郵件', { exact: true }).fill(E2E_ADMIN.email);
  await page.getByLabel('密碼', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/orders$/);

  await page.getByLabel('狀態', { exact: true }).selectOption('cancelled');
  await page.getByRole('button', { name: '篩選', exact: true }).click();
  await expect(page).toHaveURL(/status=cancelled/);
  const link = page.getByTestId('export-csv');
  await expect(link).toHaveText('匯出 CSV');
  await expect(link).toHaveAttribute('href', /^\/api\/v1\/orders\/export\.csv\?status=cancelled&lng=zh-TW$/);
  await expectNoAxeViolations(page, testInfo, 'order list with the export link');

  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = fs.readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...rows] = parse(bytes, { bom: true }) as string[][];
  expect(header!.slice(0, 2)).toEqual(['訂單編號', '狀態']);
  // The status as the page says it (issue 35), not the code.
  for (const row of rows) expect(row[1]).toBe('已取消');
});
