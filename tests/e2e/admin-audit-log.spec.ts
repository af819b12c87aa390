import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { E2E_ADMIN, expectNoAxeViolations, jsEnabled } from './support';
import { expect, test, type Page, type TestInfo } from './test';

/**
 * Issue 35, the admin's tools: the audit log is read by a person, not a developer. At 360 px, JS on and off, an
 * admin changes a banner (through the API), finds the entry by typing their own e-mail address in the actor
 * filter, and reads the action in words ("修改橫幅", not `banner.update`) and what changed as "標題：old → new"
 * lines (no raw JSON); the page has no sideways scrolling, each entry is a card of reasonable height, and axe finds
 * nothing. AUDIT_SHOTS_DIR=/some/dir keeps a 360 px picture of the log (the note's before/after).
 */
test.use({ viewport: { width: 360, height: 800 } });
test.setTimeout(120_000);

async function login(page: Page, to: string): Promise<void> {
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(E2E_ADMIN.email);
  await page.getByLabel('密碼', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
}

async function picture(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const dir = process.env.AUDIT_SHOTS_DIR;
  if (!dir || !jsEnabled(testInfo)) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

test('an admin reads the audit log in words at 360 px and finds their own change by e-mail', async ({ page, request }, testInfo) => {
  const stamp = `${testInfo.project.name === 'js-off' ? '乙' : '甲'}${Date.now() % 100000}`;
  const token = (await (await request.post('/api/v1/auth/login', { data: { email: E2E_ADMIN.email, password: E2E_ADMIN.password } })).json()).data.token as string;
  const auth = { authorization: `Bearer ${token}` };
  const created = await request.post('/api/v1/admin/banners', { headers: auth, data: { title: `舊標題${stamp}`, isActive: false } });
  expect(created.status()).toBe(201);
  const id = (await created.json()).data.banner.id as number;
  expect((await request.put(`/api/v1/admin/banners/${id}`, { headers: auth, data: { title: `新標題${stamp}`, isActive: true } })).status()).toBe(200);

  await login(page, '/admin/logs');
  await expect(page).toHaveURL(/\/admin\/logs$/);
  await picture(page, testInfo, 'audit-log-360');

  // The actor filter takes a name or an e-mail address.
  await page.getByLabel('操作者', { exact: true }).fill(E2E_ADMIN.email);
  await page.getByRole('button', { name: '篩選', exact: true }).click();
  await expect(page).toHaveURL(/actor=/);
  const entry = page.getByTestId('audit-entry').filter({ hasText: `新標題${stamp}` }).first();
  await expect(entry).toBeVisible();
  await expect(entry).toContainText('修改橫幅');
  await expect(entry.getByTestId('audit-change').filter({ hasText: '標題' }).first()).toHaveText(`標題：舊標題${stamp} → 新標題${stamp}`);
  await expect(entry.getByTestId('audit-change').filter({ hasText: '顯示' }).first()).toHaveText('顯示中：否 → 是');
  await expect(page.getByTestId('audit-log')).not.toContainText('banner.update');
  await expect(page.getByTestId('audit-log')).not.toContainText('{"');

  // 360 px: no sideways scrolling, entries as cards of reasonable height.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  for (const box of await page.getByTestId('audit-entry').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) expect(box).toBeLessThan(400);
  await expectNoAxeViolations(page, testInfo, 'audit log');
  await picture(page, testInfo, 'audit-log-360-filtered');

  // The same page in English names the action in English.
  await page.goto(`${new URL(page.url()).pathname}${new URL(page.url()).search}&lng=en`);
  await expect(page.getByTestId('audit-entry').filter({ hasText: `新標題${stamp}` }).first()).toContainText('Banner changed');
});

test('a date range typed backwards in the order filters is named next to the fields and kept as typed', async ({ page }, testInfo) => {
  await login(page, '/admin/orders');
  await expect(page).toHaveURL(/\/admin\/orders$/);
  await page.getByLabel('行程日期起', { exact: true }).fill('2032-04-30');
  await page.getByLabel('行程日期迄', { exact: true }).fill('2032-04-01');
  await page.getByRole('button', { name: '篩選', exact: true }).click();
  await expect(page).toHaveURL(/tourTo=2032-04-01/);
  const to = page.getByLabel('行程日期迄', { exact: true });
  await expect(to).toHaveAttribute('aria-invalid', 'true');
  await expect(to).toHaveAccessibleDescription(/開始日期晚於結束日期/);
  await expect(page.getByLabel('行程日期起', { exact: true })).toHaveValue('2032-04-30');
  await expect(to).toHaveValue('2032-04-01');
  await expect(page.getByTestId('order-total')).toHaveText(/篩選條件有誤/);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoAxeViolations(page, testInfo, 'order filters with a backwards range');
  await picture(page, testInfo, 'orders-reversed-range-360');
});
