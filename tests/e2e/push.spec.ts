import { expect, test, type Page } from './test';
import { expectNoAxeViolations, jsEnabled, savePicture } from './support';

/**
 * Web push in a real Chromium (issue 23, docs/decisions/029). Chromium's own push service cannot be reached from
 * here, so the push is delivered to the real service worker through the DevTools protocol
 * (`ServiceWorker.deliverPushMessage`), with the payload our server would encrypt: the worker shows it as a
 * notification. The server's side (encryption, language, 410) is tests/integration/push.test.ts.
 */
test.use({ serviceWorkers: 'allow' });

const TRAVELER = 'kenta.yamamoto@demo.travel-assistant.tw';
const PASSWORD = 'demo1234';

async function logIn(page: Page): Promise<void> {
  await page.goto('/login?redirectTo=%2Fme');
  await page.getByLabel('電子郵件', { exact: true }).fill(TRAVELER);
  await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await expect(page).toHaveURL(/\/me$/);
}

test('without JavaScript, /me says push notifications need it and offers no button', async ({ page }, testInfo) => {
  test.skip(jsEnabled(testInfo), 'the JS-off text');
  await logIn(page);
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: '推播通知' }) });
  await expect(card).toContainText('推播通知需要 JavaScript');
  await expect(card.getByRole('button')).toHaveCount(0);
});

test('the /me button shows with JS, and the service worker shows a pushed notification', async ({ page, context }, testInfo) => {
  test.skip(!jsEnabled(testInfo), 'a service worker needs JavaScript');
  const origin = new URL(testInfo.project.use.baseURL ?? process.env.E2E_BASE_URL!).origin;
  await context.grantPermissions(['notifications'], { origin });

  const cdp = await context.newCDPSession(page);
  const registrations = new Map<string, string>();
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations: updated }) => {
    for (const r of updated as Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }>) {
      if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
    }
  });
  await cdp.send('ServiceWorker.enable');

  await logIn(page);
  await page.waitForFunction(() => !!navigator.serviceWorker?.controller, null, { timeout: 20_000 });
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: '推播通知' }) });
  await expect(card.getByRole('button', { name: '開啟推播通知' })).toBeVisible();
  await expect(card).toContainText('這台裝置未開啟推播通知。');
  await expect(card).not.toContainText('JavaScript');
  await expectNoAxeViolations(page, testInfo);
  await page.setViewportSize({ width: 360, height: 800 });
  await card.scrollIntoViewIfNeeded();
  await savePicture(page, 'push-card-zh-TW-360.png');

  await expect.poll(() => registrations.get(`${origin}/`)).toBeTruthy();
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId: registrations.get(`${origin}/`)!,
    data: JSON.stringify({ title: '新的預約 #42', body: '小明 預約了 12 月 1 日上午', url: '/orders/42' }),
  });
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, url: (n.data as { url: string }).url }));
      }),
    )
    .toEqual([{ title: '新的預約 #42', body: '小明 預約了 12 月 1 日上午', url: '/orders/42' }]);

  // A payload that points off the site opens the notifications page instead.
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin,
    registrationId: registrations.get(`${origin}/`)!,
    data: JSON.stringify({ title: 'x', body: 'y', url: 'https://evil.example/phish' }),
  });
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications({ tag: '/notifications' })).map((n) => n.title);
      }),
    )
    .toEqual(['x']);
});
