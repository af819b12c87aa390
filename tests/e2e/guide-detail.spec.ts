import { expect, test } from './test';
import { cardsIn, loadAllImages } from './support';

// A viewer far from Taiwan: review times must still be Taiwan times (SPEC §2), 12–13 hours from local.
test.use({ timezoneId: 'America/New_York' });

test.describe('guide detail', () => {
  test('a card on /guides opens the guide with about, photos and Taipei-time reviews', async ({ page }) => {
    await page.goto('/guides?page=2');
    const card = cardsIn(page, 'guide-list').nth(3);
    const name = (await card.getByRole('heading').innerText()).trim();
    const price = (await card.getByText(/^NT\$/).innerText()).trim();
    await card.getByRole('link', { name: `查看${name}的介紹` }).click();

    await expect(page).toHaveURL(/\/guides\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await expect(page).toHaveTitle(`${name} | 旅遊助手`);
    await expect(page.getByRole('img', { name: `${name}的大頭照` })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(price);

    const about = page.getByRole('region', { name: '關於我' });
    await expect(about.getByRole('heading', { level: 2 })).toHaveText('關於我');
    await expect(about.locator('p')).toHaveText(/\S{10,}/);

    const photos = page.getByRole('region', { name: '照片' });
    const photoImgs = photos.getByRole('img', { name: new RegExp(`^${name}的導覽照片 \\d$`) });
    const photoCount = await photoImgs.count();
    expect(photoCount).toBeGreaterThanOrEqual(1);
    expect(photoCount).toBeLessThanOrEqual(4);
    await loadAllImages(page);
    for (const w of await photoImgs.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth))) {
      expect(w).toBeGreaterThan(0);
    }

    const reviews = page.getByRole('region', { name: '旅客評價' }).getByRole('listitem');
    const reviewCount = await reviews.count();
    expect(reviewCount).toBeGreaterThanOrEqual(1);
    // The summary counts the same reviews as the list shows.
    await expect(page.getByRole('main')).toContainText(new RegExp(`平均 [1-5]\\.\\d 分（${reviewCount} 則評價）`));
    for (let i = 0; i < reviewCount; i++) {
      const review = reviews.nth(i);
      const stars = review.getByRole('img', { name: /^[1-5] 顆星（滿分 5 顆）$/ });
      await expect(stars).toBeVisible();
      // The gold layer covers exactly rating/5 of the five stars.
      const rating = Number((await stars.getAttribute('aria-label'))!.charAt(0));
      await expect(stars.locator('.stars-fill')).toHaveAttribute('style', new RegExp(`^width:\\s*${rating * 20}%;?$`));
      const time = review.locator('time');
      const iso = await time.getAttribute('datetime');
      expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      const shown = (await time.innerText()).trim();
      // Reviews show the day only (issue 19), Taiwan's calendar day, whatever the reader's zone.
      const taipei = await page.evaluate(
        (when) => new Intl.DateTimeFormat('zh-TW', { timeZone: 'Asia/Taipei', dateStyle: 'long' }).format(new Date(when)),
        iso!,
      );
      expect(shown).toBe(taipei);
    }
  });

  test('/guide/<id> shows the same guide as /guides/<id>', async ({ page }) => {
    await page.goto('/guides');
    const href = await cardsIn(page, 'guide-list').first().getByRole('link').getAttribute('href');
    const id = href!.match(/^\/guides\/(\d+)$/)![1];
    await page.goto(`/guides/${id}`);
    const name = await page.getByRole('heading', { level: 1 }).innerText();
    const detail = await page.getByRole('main').innerText();
    const response = await page.goto(`/guide/${id}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    expect(await page.getByRole('main').innerText()).toBe(detail);
  });

  test('an unknown guide is a translated 404', async ({ page, consoleErrors }) => {
    consoleErrors.allowStatus('/guides/999999', 404, 'no such guide');
    consoleErrors.allowStatus('/guides/abc', 404, 'not a guide id');
    const response = await page.goto('/guides/999999');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('找不到頁面');
    await expect(page.getByRole('link', { name: '回到首頁' })).toHaveAttribute('href', '/');
    const bad = await page.goto('/guides/abc');
    expect(bad?.status()).toBe(404);
  });
});
