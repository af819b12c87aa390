import { expect, test } from './test';
import { jsEnabled, savePicture, type Locale } from './support';

/**
 * The guide's availability calendar at a phone's width (issue 19): in every language the page does not scroll
 * sideways at 360 px, and no weekday or day label is cut (each fits inside its cell). At 1280 px it looks the same.
 */
// A guide per language, so the logins stay under the per-account limit.
const GUIDES: Record<Locale, string> = {
  'zh-TW': 'guide05@demo.travel-assistant.tw',
  en: 'guide06@demo.travel-assistant.tw',
  ja: 'guide07@demo.travel-assistant.tw',
};

for (const locale of Object.keys(GUIDES) as Locale[]) {
  test(`the availability calendar fits a 360 px screen in ${locale}`, async ({ browser, baseURL }, testInfo) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({
      baseURL: baseURL!,
      javaScriptEnabled: jsEnabled(testInfo),
      locale,
      timezoneId: 'Asia/Taipei',
      viewport: { width: 360, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(`/login?${new URLSearchParams({ redirectTo: '/guide-availability' })}`);
    await page.locator('input[name="email"]').fill(GUIDES[locale]);
    await page.locator('input[name="password"]').fill('demo1234');
    await page.locator('button.auth-submit').click();
    await expect(page).toHaveURL(/\/guide-availability$/);
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const calendar = page.getByRole('table');
      await expect(calendar).toBeVisible();

      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `${locale} at ${width} px: page width`).toBeLessThanOrEqual(width);

      // Every label's text lies inside its own cell, clear of its edges (a label touching the next one reads as one
      // run: "●受付中●受付中"): weekday headers, day numbers and the "open" marks.
      const cut = await calendar.evaluate((table) => {
        const INSET = 2;
        const out: string[] = [];
        const labels = table.querySelectorAll('th, td a > span, td > span');
        for (const label of labels) {
          const cell = label.closest('th, td')!.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(label);
          const text = range.getBoundingClientRect();
          if (text.width === 0) continue;
          if (text.left < cell.left + INSET || text.right > cell.right - INSET || label.scrollWidth > label.clientWidth + 1) {
            out.push(`${label.textContent?.trim()} (${Math.round(text.left)}–${Math.round(text.right)} in ${Math.round(cell.left)}–${Math.round(cell.right)})`);
          }
        }
        return { count: labels.length, out };
      });
      expect(cut.count).toBeGreaterThan(7);
      expect(cut.out, `${locale} at ${width} px: labels cut`).toEqual([]);
      await savePicture(page, `availability-${locale}-${width}-${testInfo.project.name}.png`, { fullPage: true });
    }
    await context.close();
  });
}
