import { expect, isBlockedWorkerNote, test } from './test';
import { E2E_ADMIN, expectNoAxeViolations, jsEnabled } from './support';

/**
 * The availability debug panel (issue 10) as an admin sees it in production: the slot states of the shown days,
 * and after each save a log line (what was sent, status, size). With JS the lines add up in the browser and an
 * answer over 10,000 bytes is a console warning (SPEC §8); without JS the server shows the save it just answered.
 */
const GUIDE = 'guide11@demo.travel-assistant.tw';
const todayInTaipei = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Taipei' }).format(new Date());

test('an admin’s saves are logged in the debug panel, and a large answer warns', async ({ browser, baseURL, request }, testInfo) => {
  test.setTimeout(120_000);
  const login = await request.post('/api/v1/auth/login', { data: { email: GUIDE, password: 'demo1234' } });
  const guideId = (await login.json()).data.user.id as number;
  const context = await browser.newContext({
    baseURL: baseURL!,
    javaScriptEnabled: jsEnabled(testInfo),
    locale: 'zh-TW',
    timezoneId: 'Asia/Taipei',
    viewport: { width: 360, height: 800 },
  });
  const page = await context.newPage();
  const warnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' && !isBlockedWorkerNote(m.text())) warnings.push(m.text());
  });
  // Days of the next month when near its end would leave the shown month: pick a day two days ahead.
  const day = new Date(Date.parse(`${todayInTaipei()}T00:00:00Z`) + 2 * 86_400_000).toISOString().slice(0, 10);
  const path = `/guide-availability?guideId=${guideId}&month=${day.slice(0, 7)}&date=${day}`;
  await page.goto(`/login?${new URLSearchParams({ redirectTo: path })}`);
  await page.locator('input[name="email"]').fill(E2E_ADMIN.email);
  await page.locator('input[name="password"]').fill(E2E_ADMIN.password);
  await page.locator('button.auth-submit').click();
  await expect(page).toHaveURL(/\/guide-availability\?/);
  const panel = page.getByTestId('availability-debug');
  await expect(panel).toBeVisible();
  await expect(panel.getByRole('row', { name: new RegExp(day) })).toBeVisible();
  await expect(panel).toContainText('本頁尚未儲存過');
  await expectNoAxeViolations(page, testInfo);

  const morning = page.getByRole('checkbox', { name: /上午/ });
  await morning.check();
  await page.getByRole('button', { name: '儲存', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: '已儲存並更新' })).toBeVisible();
  await expect(panel.locator('.debug-log li')).toHaveCount(1);
  await expect(panel.locator('.debug-log li').first()).toContainText(new RegExp(`${day} \\[morning[^\\]]*\\] → 200, \\d+ B`));
  await expect(panel.getByRole('row', { name: new RegExp(day) })).toContainText('開放');

  if (jsEnabled(testInfo)) {
    await page.getByRole('checkbox', { name: /上午/ }).uncheck();
    await page.getByRole('button', { name: '儲存', exact: true }).click();
    await expect(panel.locator('.debug-log li')).toHaveCount(2);
    // A demo guide's calendar is 60 days of slots: the save answers more than 10,000 bytes.
    const bytes = Number(/(\d+) B/.exec((await panel.locator('.debug-log li').last().textContent()) ?? '')?.[1]);
    expect(bytes).toBeGreaterThan(10_000);
    expect(warnings.some((w) => /availability save answer is \d+ bytes \(over 10000\)/.test(w))).toBe(true);
  }
  await context.close();
});
