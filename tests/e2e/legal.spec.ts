import { expect, test } from './test';
import { chooseLanguage } from './support';

// The e2e data's zh-TW terms of service are at 1.1.0 (tests/e2e/prepare-data.ts, issue 35: versions per language).
const PAGES = [
  { path: '/terms', title: '服務條款', version: '1.1.0', updated: '2025年9月1日' },
  { path: '/privacy-policy', title: '隱私權政策', version: '1.0.0', updated: '2025年6月3日' },
  { path: '/booking-terms', title: '預約條款', version: '1.0.0', updated: '2025年6月3日' },
];

test.describe('legal pages', () => {
  for (const { path, title, version, updated } of PAGES) {
    test(`${path} renders its markdown`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      const article = page.getByRole('article');
      await expect(article.getByRole('heading', { level: 1 })).toHaveText(title);
      await expect(page).toHaveTitle(`${title} | 旅遊助手`);
      await expect(article).toContainText(`版本 ${version}`);
      await expect(article).toContainText(`更新於 ${updated}`);
      const h2 = article.getByRole('heading', { level: 2 });
      expect(await h2.count()).toBeGreaterThanOrEqual(2);
      await expect(h2.first()).toHaveText(/^\S/);
      expect(await article.getByRole('listitem').count()).toBeGreaterThanOrEqual(1);
      // Markdown is rendered, not shown as source.
      const text = await article.innerText();
      expect(text).not.toMatch(/(^|\n)\s*#{1,6} /);
    });
  }

  // Emphasis must render as <strong>, never as literal asterisks, in every language.
  // (CommonMark does not close `**` after CJK punctuation followed by a letter, e.g. `**新台幣（NT$）**計算`.)
  for (const { path } of PAGES) {
    for (const locale of ['zh-TW', 'en', 'ja'] as const) {
      test(`${path} in ${locale} shows no literal markdown markers`, async ({ page }) => {
        await page.goto(`${path}?lng=${locale}`);
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        const article = page.getByRole('article');
        await expect(article).toHaveAttribute('lang', locale);
        expect(await article.locator('strong').count()).toBeGreaterThanOrEqual(1);
        const text = await article.innerText();
        expect(text).not.toMatch(/(^|\n)\s*#{1,6} /);
        expect(text).not.toContain('**');
        expect(text).not.toMatch(/\]\(/);
      });
    }
  }

  test('the privacy policy neutralises a javascript: link and keeps a safe one', async ({ page }) => {
    await page.goto('/privacy-policy');
    const article = page.getByRole('article');
    await expect(article.getByRole('heading', { level: 2, name: '測試段落' })).toBeVisible();
    await expect(article.getByText('惡意連結')).toBeVisible();
    await expect(page.getByRole('link', { name: '惡意連結' })).toHaveCount(0);
    await expect(page.locator('a', { hasText: '惡意連結' })).toHaveCount(0);
    await expect(page.locator('[href^="javascript:" i], [href*="alert(" i], [src^="javascript:" i]')).toHaveCount(0);
    const safe = article.getByRole('link', { name: '安全連結' });
    await expect(safe).toHaveAttribute('href', 'https://example.com/');
    await expect(safe).toHaveAttribute('rel', /noopener/);
    // Ordinary relative links in the same text still work.
    expect(await article.getByRole('link').count()).toBeGreaterThanOrEqual(1);
  });

  test('in English the terms page shows the English text', async ({ page }, testInfo) => {
    await page.goto('/terms');
    await chooseLanguage(page, testInfo, 'zh-TW', 'en');
    const article = page.getByRole('article');
    await expect(article.getByRole('heading', { level: 1 })).toHaveText('Terms of Service');
    await expect(article).toHaveAttribute('lang', 'en');
    await expect(article).toContainText('Version 1.0.0');
    await expect(article).toContainText('Updated June 3, 2025');
    await expect(article).not.toContainText('服務條款');

    await page.goto('/privacy-policy');
    await expect(page.getByRole('article').getByText('惡意連結')).toBeVisible();
    await expect(page.locator('[href^="javascript:" i]')).toHaveCount(0);
  });
});
