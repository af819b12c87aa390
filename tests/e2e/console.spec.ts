import { expect, test } from '@playwright/test';

/**
 * Hydration mismatches (server and browser rendering different text, e.g. dates in another time zone) only
 * show up as console errors. Browse the public pages with a browser in New York and expect none.
 */
test.use({ timezoneId: 'America/New_York' });

test('public pages hydrate without console errors or page errors', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'js-on', 'only hydration can log these');
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${page.url()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));

  await page.goto('/guides');
  const detail = await page.getByTestId('guide-list').getByRole('link').first().getAttribute('href');
  for (const path of ['/', '/guides', '/guides?page=2', detail!, '/terms', '/privacy-policy', '/booking-terms']) {
    await page.goto(path, { waitUntil: 'networkidle' });
    await page.waitForFunction(
      () => (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true,
    );
  }
  expect(problems).toEqual([]);
});
