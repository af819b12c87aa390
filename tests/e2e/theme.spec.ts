import { expect, test, type Page } from './test';
import { jsEnabled, luminance } from './support';

const themeButton = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^切換為.+主題（目前：.+）$/ });
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test.describe('theme toggle', () => {
  // The system preference is light, so "auto" looks light: the first tap must go to dark, a visible change.
  test.use({ colorScheme: 'light' });

  test('on a light system: auto → dark → light → auto, the button names what comes next, and it survives a reload', async ({ page }, testInfo) => {
    await page.goto('/guides?page=3');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'auto');
    await expect(themeButton(page)).toHaveAccessibleName('切換為深色主題（目前：跟隨系統）');
    await expect(themeButton(page)).toHaveText('☾');
    expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.8);

    await themeButton(page).click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(themeButton(page)).toHaveAccessibleName('切換為淺色主題（目前：深色）');
    await expect(themeButton(page)).toHaveText('☀');
    await expect(page).toHaveURL(/\/guides\?page=3$/);
    expect(luminance(await bodyBackground(page))).toBeLessThan(0.05);
    const textColour = await page.evaluate(() => getComputedStyle(document.body).color);
    expect(luminance(textColour)).toBeGreaterThan(0.6);
    if (jsEnabled(testInfo)) {
      await expect.poll(() => page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    }

    // The server renders the chosen theme on the first byte: no flash after a reload.
    const response = await page.reload();
    expect(await response!.text()).toMatch(/<html[^>]*data-theme="dark"/);
    await expect(html).toHaveAttribute('data-theme', 'dark');
    expect(luminance(await bodyBackground(page))).toBeLessThan(0.05);

    await themeButton(page).click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await expect(themeButton(page)).toHaveAccessibleName('切換為跟隨系統主題（目前：淺色）');
    expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.8);

    await themeButton(page).click();
    await expect(html).toHaveAttribute('data-theme', 'auto');
    expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.8);
    if (jsEnabled(testInfo)) {
      await expect.poll(() => page.evaluate(() => localStorage.getItem('theme'))).toBe('auto');
    }
  });

  test('on a dark system the first tap from auto goes to light', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'auto');
    await expect(themeButton(page)).toHaveAccessibleName('切換為淺色主題（目前：跟隨系統）');
    await themeButton(page).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.8);
  });

  test('auto follows the system colour scheme', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'auto');
    expect(luminance(await bodyBackground(page))).toBeLessThan(0.05);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(luminance(await bodyBackground(page))).toBeGreaterThan(0.8);
  });

  // Issue 35: `.button:hover` turned secondary buttons blue on blue (back to home on /login, 不同意, 稍後 …).
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`a hovered secondary button stays readable (${colorScheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme });
      await page.goto('/login');
      const button = page.locator('a.button-secondary').first();
      await button.hover();
      const [text, background] = await button.evaluate((element) => {
        const style = getComputedStyle(element);
        return [style.color, style.backgroundColor];
      });
      const [lighter, darker] = [luminance(text), luminance(background)].sort((a, b) => b - a) as [number, number];
      // WCAG contrast of the text on its own background while hovered.
      expect((lighter + 0.05) / (darker + 0.05)).toBeGreaterThanOrEqual(4.5);
    });
  }
});
