import { E2E_ADMIN, expectNoAxeViolations, jsEnabled, savePicture } from './support';
import { E2E_PAYOUT_GUIDES } from './finance-data';
import { expect, test, type Page, type TestInfo } from './test';

/**
 * The admin's finance area (issue 32) in a real browser, JS on and off: an admin opens it from the admin page,
 * reads the balances, the payments and the payouts, marks a payout paid (a plain form POST: with JS off too), and
 * runs the reconciliation, which lists the payment prepare-data recorded as captured that the simulator never saw
 * and not the one the simulator was paid for.
 * Every page: no axe violations, no sideways scrolling at 360 and 1280 px. Screenshots (E2E_SCREENSHOTS=1, JS on):
 * zh-TW and en, light and dark, 360 and 1280 px.
 */
test.use({ viewport: { width: 360, height: 800 } });
test.setTimeout(240_000);

const PAGES = [
  ['/admin/finance', 'overview'],
  ['/admin/finance/payments', 'payments'],
  ['/admin/finance/payouts', 'payouts'],
  ['/admin/finance/reconciliation', 'reconciliation'],
] as const;

async function checkLayout(page: Page, testInfo: TestInfo, label: string) {
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    // What sticks out, named in the failure (the outermost elements wider than the window).
    const wide = await page.evaluate((w) => {
      const out: string[] = [];
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.right > w + 1 && !(el.parentElement && el.parentElement.getBoundingClientRect().right > w + 1)) out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.right)}`);
      }
      return out.slice(0, 5).join('; ');
    }, width);
    expect(scrollWidth, `${label}: no sideways scrolling at ${width}px (${wide})`).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(page, testInfo, `${label} at ${width}px`);
  }
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoAxeViolations(page, testInfo, `${label}, dark`);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 360, height: 800 });
}

async function pictures(page: Page, testInfo: TestInfo): Promise<void> {
  if (!jsEnabled(testInfo) || process.env.E2E_SCREENSHOTS !== '1') return;
  const origin = new URL(page.url()).origin;
  const cookie = (locale: string) => ({ name: 'preferred-language', value: encodeURIComponent(Buffer.from(JSON.stringify(locale)).toString('base64')), url: origin });
  for (const locale of ['zh-TW', 'en']) {
    await page.context().addCookies([cookie(locale)]);
    for (const [path, name] of PAGES) {
      await page.goto(path);
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        for (const width of [360, 1280]) {
          await page.setViewportSize({ width, height: 900 });
          await savePicture(page, `admin-finance-${name}-${width}-${scheme}-${locale}.png`, { fullPage: true });
        }
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.context().addCookies([cookie('zh-TW')]);
  await page.setViewportSize({ width: 360, height: 800 });
}

test('an admin reads the balances, payments and payouts, marks a payout paid and runs the reconciliation', async ({ page }, testInfo) => {
  const guideName = E2E_PAYOUT_GUIDES[testInfo.project.name as keyof typeof E2E_PAYOUT_GUIDES];
  await page.goto(`/login?redirectTo=${encodeURIComponent('/admin')}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(E2E_ADMIN.email);
  await page.getByLabel('密碼', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await expect(page).toHaveURL(/\/admin$/);

  // The balances.
  await page.getByRole('link', { name: '金流與帳務', exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/finance$/);
  await expect(page.getByRole('heading', { level: 1, name: '金流與帳務' })).toBeVisible();
  await expect(page.getByTestId('ledger-balanced')).toContainText('帳本平衡：所有帳戶合計為 NT$0。');
  await expect(page.getByTestId('balance-providerClearing')).toContainText('金流商已請款');
  await checkLayout(page, testInfo, 'finance overview');

  // The payments: our payout guide's payment, charged, with its trade number.
  const nav = page.getByRole('navigation', { name: '帳務頁面' });
  await nav.getByRole('link', { name: '付款與退款' }).click();
  await expect(page).toHaveURL(/\/admin\/finance\/payments$/);
  await page.getByLabel('狀態').selectOption('captured');
  await page.getByRole('button', { name: '篩選', exact: true }).click();
  await expect(page).toHaveURL(/status=captured/);
  const payment = page.getByRole('row').filter({ hasText: guideName });
  await expect(payment).toHaveCount(1);
  await expect(payment).toContainText('已請款');
  const tradeNo = (await payment.textContent())!.match(/LY[0-9A-Z]+T[0-9A-F]+/)?.[0];
  expect(tradeNo, 'our trade number on the row').toBeTruthy();
  await checkLayout(page, testInfo, 'finance payments');

  // The payouts: masked account, then "mark as paid" (a plain POST form: the same with JS off).
  await page.getByRole('navigation', { name: '帳務頁面' }).getByRole('link', { name: '導遊撥款' }).click();
  await expect(page).toHaveURL(/\/admin\/finance\/payouts$/);
  const payout = page.getByRole('row').filter({ hasText: guideName });
  await expect(payout).toContainText('撥款中');
  await expect(payout).toContainText(/銀行 812 · •+2345/);
  await expect(page.getByTestId('export-payouts-csv')).toHaveAttribute('href', '/api/v1/admin/payouts/export.csv?lng=zh-TW');
  await checkLayout(page, testInfo, 'finance payouts');
  await payout.getByRole('button', { name: /標記為已撥款/ }).click();
  await expect(page).toHaveURL(/\/admin\/finance\/payouts$/);
  await expect(page.getByText(/撥款 #\d+ 已標記為已撥款。/)).toBeVisible();
  await expect(payout.getByTestId('payout-status')).toHaveText('已撥款');
  await expect(payout.getByRole('button')).toHaveCount(0);

  // The reconciliation: run now; the payment the simulator never saw is listed.
  await page.getByRole('navigation', { name: '帳務頁面' }).getByRole('link', { name: '對帳' }).click();
  await expect(page).toHaveURL(/\/admin\/finance\/reconciliation$/);
  await page.getByRole('button', { name: '立即對帳' }).click();
  await expect(page.getByText(/對帳完成：\d+ 筆差異。/)).toBeVisible();
  await expect(page.getByTestId('reconciliation-unreachable')).toHaveText('0');
  // The payment prepare-data recorded as captured without the simulator is listed; ours, paid at the simulator, is not.
  const mismatches = page.getByTestId('reconciliation-mismatches');
  await expect(mismatches).toContainText('我們記錄已收款，金流商卻表示未付款');
  await expect(mismatches).not.toContainText(tradeNo!);
  await checkLayout(page, testInfo, 'finance reconciliation');

  await pictures(page, testInfo);
});
