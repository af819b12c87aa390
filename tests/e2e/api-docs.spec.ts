import { expect, test } from './test';
import { expectNoAxeViolations, savePicture } from './support';

/**
 * Issue 33, the API reference /api/docs: readable at 360 and 1280 px without a horizontal page scroll (long paths
 * and curl lines wrap), no axe violations with an operation open, and an operation opens with JS on and off
 * (<details>).
 */
for (const width of [360, 1280]) {
  test(`the API reference at ${width} px: no horizontal overflow, an operation opens, no axe violations`, async ({ page }, testInfo) => {
    await page.setViewportSize({ width, height: 800 });
    const response = await page.goto('/api/docs?lng=en');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();

    const booking = page.locator('details#postOrders');
    await expect(booking.getByRole('heading', { name: 'Example' })).toBeHidden();
    await booking.locator('summary').click();
    await expect(booking).toHaveAttribute('open', '');
    await expect(booking.getByRole('heading', { name: 'Example' })).toBeVisible();
    await expect(booking.locator('pre')).toContainText('Idempotency-Key');

    // The table of contents leads to a tag's section.
    await page.getByRole('navigation', { name: 'Contents' }).getByRole('link', { name: 'orders', exact: true }).click();
    await expect(page).toHaveURL(/#orders$/);

    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth, `/api/docs at ${width}px has no horizontal overflow`).toBeLessThanOrEqual(width);
    await expectNoAxeViolations(page, testInfo);
    await booking.scrollIntoViewIfNeeded();
    await savePicture(page, `api-docs-${width}.png`);
  });
}
