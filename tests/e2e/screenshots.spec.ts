import { expect, test, type Page } from './test';
import { cardsIn, chooseLanguage, jsEnabled, loadAllImages, luminance, savePicture, type Locale } from './support';

/**
 * Full-page screenshots for people to look at (tests/e2e/screenshots/, gitignored), at 360 and 1280 px,
 * in zh-TW and en, light and dark (theme "auto" following the emulated system scheme).
 * At 360 px every page must fit without horizontal scrolling.
 */
const WIDTHS = [360, 1280] as const;

async function pages(page: Page): Promise<Array<{ name: string; path: string; status: number }>> {
  await page.goto('/guides');
  const href = await cardsIn(page, 'guide-list').first().getByRole('link').getAttribute('href');
  expect(href).toMatch(/^\/guides\/\d+$/);
  return [
    { name: 'home', path: '/', status: 200 },
    { name: 'guides', path: '/guides', status: 200 },
    { name: 'guides-filtered', path: '/guides?city=taipei&language=en&maxPrice=3000&sort=price_asc', status: 200 },
    { name: 'guides-none', path: '/guides?city=penghu&minPrice=4000', status: 200 },
    { name: 'guide-detail', path: href!, status: 200 },
    { name: 'terms', path: '/terms', status: 200 },
    { name: '404', path: '/no-such-page', status: 404 },
  ];
}

async function shoot(page: Page, target: { name: string; path: string; status: number }, file: string, width: number) {
  const response = await page.goto(target.path);
  expect(response?.status(), target.path).toBe(target.status);
  await loadAllImages(page);
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(scrollWidth, `${target.path} at ${width}px has no horizontal overflow`).toBeLessThanOrEqual(width);
  await savePicture(page, file, { fullPage: true });
}

test.describe('screenshots', () => {
  for (const locale of ['zh-TW', 'en'] as const satisfies readonly Locale[]) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`${locale} ${scheme}`, async ({ page, consoleErrors }, testInfo) => {
        consoleErrors.allowStatus('/no-such-page', 404, 'the 404 page is one of the pictures');
        test.skip(!jsEnabled(testInfo), 'the full matrix runs with JS on; js-off takes a few below');
        test.setTimeout(120_000);
        await page.emulateMedia({ colorScheme: scheme });
        if (locale !== 'zh-TW') {
          await page.goto('/');
          await chooseLanguage(page, testInfo, 'zh-TW', locale);
        }
        const targets = await pages(page);
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 800 });
          for (const target of targets) {
            await shoot(page, target, `${target.name}-${locale}-${scheme}-${width}.png`, width);
          }
        }
        // The screenshots really are in the requested scheme and language.
        await expect(page.locator('html')).toHaveAttribute('data-theme', 'auto');
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        const bg = luminance(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
        if (scheme === 'dark') expect(bg).toBeLessThan(0.05);
        else expect(bg).toBeGreaterThan(0.8);
      });
    }
  }

  test('without JavaScript (zh-TW, 360 px)', async ({ page }, testInfo) => {
    test.skip(jsEnabled(testInfo), 'js-off project only');
    await page.setViewportSize({ width: 360, height: 800 });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const targets = await pages(page);
      for (const target of targets.filter((t) => t.name === 'home' || t.name === 'guides')) {
        await shoot(page, target, `${target.name}-zh-TW-${scheme}-360-nojs.png`, 360);
      }
    }
    // The no-JS language button is visible without JS.
    await expect(page.getByRole('button', { name: '切換語言' })).toBeVisible();
  });
});
