import { expect, test, type Page, type TestInfo } from './test';
import { E2E_ADMIN, expectNoAxeViolations, jsEnabled, savePicture } from './support';

/**
 * Issue 24: the debug pages /test and /api-test as the production e2e server serves them (admins only, 404 for
 * others), the install banner with a synthetic install signal, and the register form's terms box (pictures).
 */

function languageCookie(locale: 'en' | 'zh-TW', baseURL: string) {
  // Remix cookies hold base64 JSON (what the language form sets).
  return { name: 'preferred-language', value: encodeURIComponent(Buffer.from(JSON.stringify(locale)).toString('base64')), url: baseURL };
}

async function loginAsAdmin(page: Page, to: string): Promise<void> {
  await page.goto(`/login?${new URLSearchParams({ redirectTo: to })}`);
  await page.locator('input[name="email"]').fill(E2E_ADMIN.email);
  await page.locator('input[name="password"]').fill(E2E_ADMIN.password);
  await page.locator('button.auth-submit').click();
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[?]/g, '\\?')}$`));
}

/** 360 px without sideways scrolling, then pictures at 360 and 1280, light and dark. */
async function pictures(page: Page, testInfo: TestInfo, name: string, fullPage = true): Promise<void> {
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at 360 px`).toBeLessThanOrEqual(360);
  if (!jsEnabled(testInfo)) return;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await savePicture(page, `${name}-${width}-${scheme}.png`, { fullPage });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 360, height: 800 });
}

test('in production the debug pages are a 404 for visitors and travelers', async ({ page, request, consoleErrors }) => {
  consoleErrors.allowStatus('/test', 404, 'debug pages do not exist in production for non-admins');
  consoleErrors.allowStatus('/api-test', 404, 'debug pages do not exist in production for non-admins');
  for (const path of ['/test', '/api-test']) {
    expect((await page.goto(path))!.status(), path).toBe(404);
  }
  const login = await request.post('/api/v1/auth/login', { data: { email: 'pinyen.chen@demo.travel-assistant.tw', password: 'demo1234' } });
  const token = (await login.json()).data.token as string;
  const dev = await request.get('/api/dev/users', { headers: { Authorization: `Bearer ${token}` } });
  expect(dev.status()).toBe(404);
  expect((await dev.json()).code).toBe('NOT_FOUND');
});

test('/test: an admin sees every kind of element, the error screen with its retry, and a toast', async ({ page, baseURL, consoleErrors }, testInfo) => {
  consoleErrors.allow(/debug: a render error on purpose/, 'the error screen demo throws on purpose');
  await page.setViewportSize({ width: 360, height: 800 });
  await loginAsAdmin(page, '/test');
  await expect(page.getByRole('heading', { level: 1, name: '介面元件測試' })).toBeVisible();
  await expectNoAxeViolations(page, testInfo);
  await pictures(page, testInfo, 'debug-test-zh-TW');

  await page.getByRole('link', { name: '觸發錯誤畫面' }).click();
  const failed = page.getByTestId('demo-error');
  await expect(failed).toContainText('出現錯誤');
  await expectNoAxeViolations(page, testInfo, '/test error screen');
  await failed.getByRole('link', { name: '重試' }).click();
  await expect(page.getByTestId('demo-error')).toHaveCount(0);
  await expect(page.getByRole('link', { name: '觸發錯誤畫面' })).toBeVisible();

  await page.getByRole('button', { name: '顯示通知' }).click();
  await expect(page.getByRole('status').filter({ hasText: '這是一則測試通知。' })).toBeVisible();

  await page.context().addCookies([languageCookie('en', baseURL!)]);
  await page.goto('/test');
  await expect(page.getByRole('heading', { level: 1, name: 'UI component test' })).toBeVisible();
  await pictures(page, testInfo, 'debug-test-en');
});

test('/api-test: an admin sends a call and reads the raw status, headers and body', async ({ page, baseURL, consoleErrors }, testInfo) => {
  consoleErrors.allowStatus('/api-test', 400, 'a path to another host is refused with 400');
  await page.setViewportSize({ width: 360, height: 800 });
  await loginAsAdmin(page, '/api-test');
  await expect(page.getByRole('heading', { level: 1, name: 'API 測試' })).toBeVisible();
  await expectNoAxeViolations(page, testInfo);
  await page.getByLabel('API', { exact: true }).selectOption('GET /api/dev/users');
  await page.getByRole('button', { name: '送出請求' }).click();
  await expect(page.getByTestId('api-status')).toContainText('GET /api/dev/users → 200');
  await expect(page.getByTestId('api-headers')).toContainText('content-type: application/json');
  await expect(page.getByTestId('api-body')).toContainText('"success": true');
  await expect(page.getByTestId('api-body')).toContainText('e2e-admin@example.com');
  await expectNoAxeViolations(page, testInfo, '/api-test with a result');

  // A path with its parameter filled; another host is refused with the values kept.
  await page.getByLabel('API', { exact: true }).selectOption('GET /api/v1/guides/{id}');
  await page.getByLabel('路徑').fill('/api/v1/guides/999999');
  await page.getByRole('button', { name: '送出請求' }).click();
  await expect(page.getByTestId('api-status')).toContainText('→ 404');
  await pictures(page, testInfo, 'debug-api-test-zh-TW');

  await page.getByLabel('路徑').fill('https://example.com/api/x');
  await page.getByRole('button', { name: '送出請求' }).click();
  await expect(page.getByRole('alert').filter({ hasText: '路徑必須以 /api/ 開頭' })).toBeVisible();
  await expect(page.getByLabel('路徑')).toHaveValue('https://example.com/api/x');

  await page.context().addCookies([languageCookie('en', baseURL!)]);
  await page.goto('/api-test');
  await page.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByTestId('api-status')).toContainText('GET /api/v1/guides → 200');
  await pictures(page, testInfo, 'debug-api-test-en');
});

test.describe('install banner', () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled === false, 'the banner is JS only: with JS off nothing shows');

  /**
   * The browser's install signal as Chromium sends it: an event with prompt() and userChoice (the choice given).
   * Sent again until the page's listener takes it (it calls preventDefault), i.e. once the page is hydrated.
   */
  async function signal(page: Page, outcome: 'accepted' | 'dismissed' = 'dismissed'): Promise<void> {
    for (let attempt = 0; attempt < 100; attempt++) {
      const taken = await page.evaluate((choice) => {
        const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & { prompt: () => Promise<void>; userChoice: Promise<{ outcome: string }> };
        const w = window as { __prompted?: number };
        w.__prompted = 0;
        event.prompt = () => {
          w.__prompted = (w.__prompted ?? 0) + 1;
          return Promise.resolve();
        };
        event.userChoice = Promise.resolve({ outcome: choice });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      }, outcome);
      if (taken) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the page never took the install signal');
  }

  async function ready(page: Page, path = '/guides'): Promise<void> {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }

  test('10 s after the signal; Later keeps it away for 7 days; × stores nothing; install opens the prompt', async ({ page, baseURL }, testInfo) => {
    await page.clock.install();
    await page.setViewportSize({ width: 360, height: 800 });
    await ready(page);
    const banner = page.getByRole('region', { name: '安裝旅遊助手' });
    await signal(page);
    await page.clock.fastForward(8_000);
    await expect(banner).toHaveCount(0);
    await page.clock.fastForward(2_500);
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('安裝到桌面，享受更快速的體驗');
    for (const feature of ['離線瀏覽', '快速啟動', '推播通知']) await expect(banner).toContainText(feature);
    await expectNoAxeViolations(page, testInfo, 'install banner');
    await pictures(page, testInfo, 'install-banner-zh-TW', false);

    // Later: the time is stored, and the banner does not come back within 7 days.
    await banner.getByRole('button', { name: '稍後' }).click();
    await expect(banner).toHaveCount(0);
    const stored = Number(await page.evaluate(() => localStorage.getItem('install-dismissed-at')));
    expect(stored).toBeGreaterThan(0);
    await ready(page);
    await signal(page);
    await page.clock.fastForward(11_000);
    await expect(banner).toHaveCount(0);
    // Six days on: still away. Eight days on: back.
    await page.evaluate((at) => localStorage.setItem('install-dismissed-at', String(at)), Date.now() - 6 * 86_400_000);
    await ready(page);
    await signal(page);
    await page.clock.fastForward(11_000);
    await expect(banner).toHaveCount(0);
    await page.evaluate(() => localStorage.setItem('install-dismissed-at', String(Date.now() - 8 * 86_400_000)));
    await ready(page);
    await signal(page);
    await page.clock.fastForward(11_000);
    await expect(banner).toBeVisible();

    // ×: hidden, nothing stored (the old time stays as it was).
    const before = await page.evaluate(() => localStorage.getItem('install-dismissed-at'));
    await banner.getByRole('button', { name: '關閉' }).click();
    await expect(banner).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('install-dismissed-at'))).toBe(before);

    // Install, then the browser's prompt is declined: that counts as a dismissal.
    await page.evaluate(() => localStorage.removeItem('install-dismissed-at'));
    await ready(page);
    await signal(page, 'dismissed');
    await page.clock.fastForward(11_000);
    await banner.getByRole('button', { name: '安裝', exact: true }).click();
    await expect(banner).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __prompted?: number }).__prompted)).toBe(1);
    expect(await page.evaluate(() => localStorage.getItem('install-dismissed-at'))).not.toBeNull();

    // Accepted: hidden, nothing stored.
    await page.evaluate(() => localStorage.removeItem('install-dismissed-at'));
    await ready(page);
    await signal(page, 'accepted');
    await page.clock.fastForward(11_000);
    await banner.getByRole('button', { name: '安裝', exact: true }).click();
    await expect(banner).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('install-dismissed-at'))).toBeNull();

    // English, on a desktop: a card at the bottom left, at most 400 px wide.
    await page.context().addCookies([languageCookie('en', baseURL!)]);
    await page.setViewportSize({ width: 1280, height: 800 });
    await ready(page);
    await signal(page);
    await page.clock.fastForward(11_000);
    const card = page.getByRole('region', { name: 'Install Travel Assistant' });
    await expect(card).toBeVisible();
    const box = (await card.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(400);
    expect(box.x).toBeLessThan(40);
    expect(box.y + box.height).toBeGreaterThan(700);
    await pictures(page, testInfo, 'install-banner-en', false);
  });

  test('iOS: the share-menu text, no install or later button', async ({ browser, baseURL }, testInfo) => {
    const context = await browser.newContext({
      baseURL: baseURL!,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      viewport: { width: 360, height: 800 },
      locale: 'zh-TW',
      extraHTTPHeaders: { 'Accept-Language': 'zh-TW' },
    });
    const page = await context.newPage();
    await page.clock.install();
    await ready(page);
    const banner = page.getByRole('region', { name: '安裝旅遊助手' });
    // No signal on iOS: the hydrated page stands for it (moving the clock until the banner's timer has run).
    await expect
      .poll(async () => {
        await page.clock.fastForward(11_000);
        return banner.count();
      })
      .toBe(1);
    await expect(banner).toContainText('點擊分享按鈕，然後選擇「加入主畫面」');
    await expect(banner.getByRole('button', { name: '安裝', exact: true })).toHaveCount(0);
    await expect(banner.getByRole('button', { name: '稍後' })).toHaveCount(0);
    await expect(banner.getByRole('button', { name: '關閉' })).toBeVisible();
    await pictures(page, testInfo, 'install-banner-ios-zh-TW', false);
    await context.close();
  });
});

test('the manifest names shortcuts to /guides, /orders and /chat with icons that exist', async ({ request }) => {
  const manifest = await (await request.get('/manifest.webmanifest', { headers: { 'Accept-Language': 'en' } })).json();
  expect(manifest.shortcuts.map((s: { url: string }) => s.url)).toEqual(['/guides', '/orders', '/chat']);
  expect(manifest.shortcuts[0].name).toBe('Find a guide');
  for (const shortcut of manifest.shortcuts) {
    for (const icon of shortcut.icons) expect((await request.get(icon.src)).status(), icon.src).toBe(200);
  }
});

test('the register form asks to agree to the terms (pictures)', async ({ page, baseURL, consoleErrors }, testInfo) => {
  consoleErrors.allowStatus('/register', 400, 'the form answered with its errors (without JS)');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto('/register');
  const box = page.getByRole('checkbox', { name: '我已閱讀並同意服務條款與隱私權政策' });
  await expect(box).not.toBeChecked();
  const label = page.locator('label', { hasText: '我已閱讀並同意' });
  await expect(label.getByRole('link', { name: '服務條款' })).toHaveAttribute('href', '/terms');
  await expect(label.getByRole('link', { name: '隱私權政策' })).toHaveAttribute('href', '/privacy-policy');
  await page.getByLabel('姓名', { exact: true }).fill('小華');
  await page.getByRole('button', { name: '註冊', exact: true }).click();
  await expect(box).toHaveAccessibleDescription('請先同意服務條款與隱私權政策');
  await expect(page.getByLabel('姓名', { exact: true })).toHaveValue('小華');
  await expectNoAxeViolations(page, testInfo);
  await pictures(page, testInfo, 'register-terms-zh-TW');
  await page.context().addCookies([languageCookie('en', baseURL!)]);
  await page.goto('/register');
  await expect(page.getByRole('checkbox', { name: 'I have read and agree to the terms of service and the privacy policy' })).toBeVisible();
  await pictures(page, testInfo, 'register-terms-en');
});
