import { expect, test, type Page } from './test';
import { jsEnabled, loadAllImages, savePicture } from './support';

/**
 * Screenshots of the discovery part B pages for people to look at (tests/e2e/screenshots/): home, /favorites,
 * /traveler and /guide at 360 and 1280 px, zh-TW and en, light and dark. At 360 px nothing scrolls sideways.
 */
const WIDTHS = [360, 1280] as const;
const PASSWORD = 'demo1234';

async function logIn(page: Page, email: string) {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator('form button[type="submit"]').last().click();
  await expect(page).not.toHaveURL(/\/login(\?|$)/, { timeout: 15_000 });
  await expect(page).not.toHaveURL(/login-success/, { timeout: 15_000 });
}

async function useLanguage(page: Page, locale: 'zh-TW' | 'en', baseURL: string) {
  const res = await page.request.post('/preferences', {
    form: { intent: 'locale', locale, redirectTo: '/' },
    headers: { origin: baseURL },
    maxRedirects: 0,
  });
  expect(res.status()).toBeLessThan(400);
}

async function shoot(page: Page, url: string, file: string, width: number) {
  const response = await page.goto(url);
  expect(response?.status(), url).toBe(200);
  await loadAllImages(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(scrollWidth, `${url} at ${width}px has no horizontal overflow`).toBeLessThanOrEqual(width);
  await savePicture(page, file, { fullPage: true });
}

test.describe('discover screenshots', () => {
  for (const locale of ['zh-TW', 'en'] as const) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`${locale} ${scheme}`, async ({ browser, baseURL }, testInfo) => {
        test.skip(!jsEnabled(testInfo), 'screenshots are taken with JS on');
        test.setTimeout(150_000);
        const shots: Array<{ who?: string; name: string; url: string }> = [
          { name: 'home', url: '/' },
          { who: 'yungching.huang@demo.travel-assistant.tw', name: 'favorites', url: '/favorites' },
          { who: 'yungching.huang@demo.travel-assistant.tw', name: 'traveler', url: '/traveler' },
          { who: 'guide05@demo.travel-assistant.tw', name: 'guide-center', url: '/guide' },
        ];
        for (const who of [undefined, 'yungching.huang@demo.travel-assistant.tw', 'guide05@demo.travel-assistant.tw']) {
          const context = await browser.newContext({ colorScheme: scheme });
          const page = await context.newPage();
          if (who) await logIn(page, who);
          await useLanguage(page, locale, baseURL!);
          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: 800 });
            for (const s of shots.filter((x) => x.who === who)) {
              await shoot(page, s.url, `${s.name}-${locale}-${scheme}-${width}.png`, width);
            }
          }
          await expect(page.locator('html')).toHaveAttribute('lang', locale);
          await context.close();
        }
      });
    }
  }
});

test.describe('phone header', () => {
  test.use({ viewport: { width: 360, height: 780 } });

  test('logged in at 360 px: three rows (JS on or off), every icon named', async ({ page }, testInfo) => {
    await logIn(page, jsEnabled(testInfo) ? 'chenghan.wu@demo.travel-assistant.tw' : 'misaki.sato@demo.travel-assistant.tw');
    await page.goto('/traveler');
    const header = page.getByRole('banner');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // Measured once the page has settled (the login's own redirect may still be landing).
    const countRows = () => header.evaluate((el) => {
      const tops = new Set<number>();
      for (const child of Array.from(el.querySelectorAll('.header-inner > *'))) {
        const box = (child as HTMLElement).getBoundingClientRect();
        if (box.width > 0 && box.height > 0) tops.add(Math.round(box.top + box.height / 2));
      }
      // Items whose vertical centres are within 16 px share a row.
      const centres = [...tops].sort((a, b) => a - b);
      return centres.filter((c, i) => i === 0 || c - centres[i - 1]! > 16).length;
    });
    // Logo and account icons; greeting and settings; the four links with their words (issue 19).
    await expect.poll(countRows).toBe(3);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    for (const name of [/找導遊/, /留言板/, /收藏/, /訂單/, /主頁/, /通知/, /登出/]) {
      await expect(header.getByRole('link', { name }).or(header.getByRole('button', { name })).first()).toBeVisible();
    }
    await savePicture(page, `header-user-${testInfo.project.name}-360.png`, { clip: { x: 0, y: 0, width: 360, height: 160 } });
  });

  test('pagination at 360 px keeps 上一頁, the pages and 下一頁 on one row', async ({ page }) => {
    await page.goto('/guides?page=2');
    const pagination = page.getByRole('navigation', { name: '分頁' });
    const prev = await pagination.getByRole('link', { name: '上一頁' }).boundingBox();
    const next = await pagination.getByRole('link', { name: '下一頁' }).boundingBox();
    const current = await pagination.getByRole('link', { name: '第 2 頁' }).boundingBox();
    expect(Math.abs(prev!.y - next!.y)).toBeLessThan(4);
    expect(Math.abs(current!.y - next!.y)).toBeLessThan(4);
    expect(next!.x + next!.width).toBeLessThanOrEqual(360);
  });
});
