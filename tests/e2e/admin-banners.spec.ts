import sharp from 'sharp';
import { E2E_ADMIN, expectNoAxeViolations, jsEnabled, savePicture } from './support';
import { expect, test, type Page, type TestInfo } from './test';

/**
 * Issue 22 in a real browser, JS on and off: an admin writes a home banner with a picture, previews it (the page
 * comes back with every typed value and the banner drawn as the home page draws it), publishes it, and the home
 * page shows it with its picture; then deletes it after confirming (a modal with JS, a confirmation step without)
 * and it is gone from the home page. axe on the list, the previewed form and the confirmation; no sideways
 * scrolling at 360 px; screenshots at 360 and 1280 px, light and dark, zh-TW and en.
 */
test.use({ viewport: { width: 360, height: 800 } });
test.setTimeout(180_000);

async function login(page: Page, to: string): Promise<void> {
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(E2E_ADMIN.email);
  await page.getByLabel('密碼', { exact: true }).fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${to.replace(/\//g, '\\/')}$`));
}

async function noOverflowAndShots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  await page.setViewportSize({ width: 360, height: 800 });
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(scrollWidth, `${name} at 360px has no horizontal overflow`).toBeLessThanOrEqual(360);
  if (!jsEnabled(testInfo) || process.env.E2E_SCREENSHOTS !== '1') return;
  for (const [width, scheme] of [[360, 'light'], [1280, 'light'], [360, 'dark'], [1280, 'dark']] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await savePicture(page, `admin-${name}-${width}-${scheme}.png`, { fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 360, height: 800 });
}

/** The English screenshots of a page reached by GET (a preview is a POST answer: not reloaded). */
async function englishShots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  if (!jsEnabled(testInfo) || process.env.E2E_SCREENSHOTS !== '1') return;
  const url = new URL(page.url());
  url.searchParams.set('lng', 'en');
  await page.goto(url.toString());
  for (const width of [360, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await savePicture(page, `admin-${name}-${width}-light-en.png`, { fullPage: true });
  }
  url.searchParams.set('lng', 'zh-TW');
  await page.goto(url.toString());
  await page.setViewportSize({ width: 360, height: 800 });
}

test('an admin creates a banner with a picture, previews it, publishes it, it shows on the home page, and deleting it asks first', async ({ page }, testInfo) => {
  const js = jsEnabled(testInfo);
  const title = `春季花蓮 ${js ? '甲' : '乙'}${Date.now() % 100000}`;
  const picture = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 14, g: 116, b: 144 } } }).jpeg().toBuffer();

  await login(page, '/admin/banners');
  await expect(page.getByRole('heading', { level: 1, name: '首頁橫幅' })).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'banner list');
  await noOverflowAndShots(page, testInfo, 'banners');
  await englishShots(page, testInfo, 'banners');

  await page.getByRole('link', { name: '新增橫幅' }).click();
  await expect(page).toHaveURL(/\/admin\/banners\/new$/);
  await page.getByLabel('標題（必填）').fill(title);
  const english = page.getByRole('group', { name: 'English' });
  await english.getByLabel('標題', { exact: true }).fill(`Hualien in spring ${title.slice(-6)}`);
  await page.getByRole('group', { name: '繁體中文' }).getByLabel('副標題').fill('太魯閣步道與清水斷崖');
  await page.getByLabel('連結').fill('/guides?city=hualien');
  await page.getByLabel('圖片').setInputFiles({ name: 'spring.jpg', mimeType: 'image/jpeg', buffer: picture });
  await page.getByRole('button', { name: '預覽' }).click();

  const preview = page.getByTestId('banner-preview');
  await expect(preview).toBeVisible();
  // As each language's home page draws it: Japanese has no text of its own, so the Chinese one.
  await expect(preview.getByRole('figure', { name: '繁體中文' }).getByText(title)).toBeVisible();
  await expect(preview.getByRole('figure', { name: 'English' }).getByText(`Hualien in spring ${title.slice(-6)}`)).toBeVisible();
  await expect(preview.getByRole('figure', { name: '日本語' }).getByText(title)).toBeVisible();
  await expect(preview.locator('img').first()).toHaveAttribute('src', /^data:image\/webp;base64,/);
  // Every typed value is still there; the picture is kept by its stored key.
  await expect(page.getByLabel('標題（必填）')).toHaveValue(title);
  await expect(page.getByLabel('連結')).toHaveValue('/guides?city=hualien');
  await expect(page.getByTestId('banner-image-kept')).toBeVisible();
  await expectNoAxeViolations(page, testInfo, 'banner preview');
  await noOverflowAndShots(page, testInfo, 'banner-preview');

  await page.getByRole('button', { name: '發佈' }).click();
  await expect(page).toHaveURL(/\/admin\/banners$/);
  const row = page.getByTestId('banner-row').filter({ hasText: title });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('banner-state')).toHaveText('顯示中');

  await page.goto('/');
  const region = page.getByRole('region', { name: '精選活動' });
  const card = region.getByRole('link').filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('href', '/guides?city=hualien');
  const img = card.locator('img');
  await expect(img).toHaveAttribute('src', /^\/uploads\//);
  await img.scrollIntoViewIfNeeded();
  await expect.poll(() => img.evaluate((i) => (i as HTMLImageElement).naturalWidth)).toBe(1200);
  // The English reader sees the English title.
  await page.goto('/?lng=en');
  await expect(page.getByText(`Hualien in spring ${title.slice(-6)}`)).toBeVisible();
  await page.goto('/?lng=zh-TW');

  // Delete it: asked first.
  await page.goto('/admin/banners');
  await page.getByTestId('banner-row').filter({ hasText: title }).getByRole('button', { name: `刪除 ${title}` }).click();
  const dialog = page.getByTestId('confirm-banner-delete');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(`「${title}」將從首頁移除`);
  await expect(page.getByTestId('banner-row').filter({ hasText: title })).toHaveCount(1);
  await expectNoAxeViolations(page, testInfo, 'delete confirmation');
  await dialog.getByRole('button', { name: '刪除' }).click();
  await expect(page).toHaveURL(/\/admin\/banners$/);
  await expect(page.getByTestId('banner-row').filter({ hasText: title })).toHaveCount(0);
  await page.goto('/');
  await expect(page.getByText(title)).toHaveCount(0);
});
