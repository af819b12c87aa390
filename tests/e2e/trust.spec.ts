import { expect, test, type Browser, type Page, type TestInfo } from './test';
import sharp from 'sharp';
import { codeFor, mailsTo } from './mail';
import { E2E_ADMIN, expectNoAxeViolations, jsEnabled, savePicture, uniqueEmail } from './support';

/**
 * Issue 11 in a real browser at 360 px, with JS on and off: a new guide registers, is locked out of photos
 * and applies for ID verification; the admin rejects with a note; the guide sees it and applies again; the
 * admin approves; the guide uploads a photo; the admin approves it; it appears on the public guide page.
 * The guide and the admin each have their own browser context. Screenshots of the gallery, the preview,
 * the application and both admin queues at 360 and 1280 px go to tests/e2e/screenshots/.
 */
const PASSWORD = 'secret-pass-1';
test.use({ viewport: { width: 360, height: 800 } });

async function image(format: 'png' | 'jpeg', hue: number, width = 1600, height = 1000): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="hsl(${hue},70%,55%)"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 3}" fill="#fff8"/>
    <text x="40" y="120" font-size="90" fill="#fff">ID ${hue}</text></svg>`;
  return sharp(Buffer.from(svg)).toFormat(format).toBuffer();
}

async function shots(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  if (!jsEnabled(testInfo)) return; // one set is enough; both projects run the same pages
  const size = page.viewportSize();
  for (const [width, scheme] of [[360, 'light'], [1280, 'light'], [360, 'dark']] as const) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate(() => document.fonts.ready.then(() => undefined));
    if (width === 360) {
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect.soft(scrollWidth, `${name} at 360px has no horizontal overflow`).toBeLessThanOrEqual(360);
    }
    // The preview is a modal over the viewport: a full-page picture would show it mid-page.
    await savePicture(page, `trust-${name}-${width}-${scheme}.png`, { fullPage: name !== 'preview' });
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (name !== 'preview') {
    // The same page in English (the language cookie the header form sets), then back to zh-TW.
    const url = new URL(page.url());
    const cookie = (locale: string) => ({ name: 'preferred-language', value: encodeURIComponent(Buffer.from(JSON.stringify(locale)).toString('base64')), url: url.origin });
    await page.context().addCookies([cookie('en')]);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await savePicture(page, `trust-${name}-${width}-light-en.png`, { fullPage: true });
    }
    await page.context().addCookies([cookie('zh-TW')]);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-TW');
  }
  if (size) await page.setViewportSize(size);
}

async function login(page: Page, email: string, password: string, to: string): Promise<void> {
  await page.goto(`/login?redirectTo=${encodeURIComponent(to)}`);
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`${to.replace(/[/?]/g, '\\$&')}$`), { timeout: 10_000 });
}

async function newContextPage(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled: jsEnabled(testInfo),
    locale: 'zh-TW',
    timezoneId: 'Asia/Taipei',
    extraHTTPHeaders: { 'Accept-Language': 'zh-TW,zh;q=0.9' },
    viewport: { width: 360, height: 800 },
  });
  return context.newPage();
}

/** Registers a guide with a complete profile and verifies the mailed code; ends logged in. */
async function registerGuide(page: Page, testInfo: TestInfo, name: string, email: string): Promise<void> {
  await page.goto('/register');
  await page.getByRole('radio', { name: /^導遊/ }).check();
  await page.getByLabel('姓名', { exact: true }).fill(name);
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(PASSWORD);
  await page.getByLabel('服務城市').selectOption({ label: '台南' });
  await page.getByRole('checkbox', { name: '中文' }).check();
  await page.getByLabel('每個時段的價格（NT$）').fill('2200');
  await page.getByLabel('自我介紹').fill('帶你走訪府城老街與廟宇。');
  await page.getByRole('checkbox', { name: '我已閱讀並同意服務條款與隱私權政策' }).check();
  const before = mailsTo(email).length;
  await page.getByRole('button', { name: '註冊', exact: true }).click();
  await expect(page).toHaveURL(/\/register\/verify\?email=/);
  const code = await codeFor(email, { after: before });
  if (jsEnabled(testInfo)) {
    await page.getByRole('textbox', { name: '驗證碼第 1 位' }).click();
    await page.keyboard.type(code);
  } else {
    await page.getByLabel('驗證碼', { exact: true }).fill(code);
  }
  await page.getByRole('button', { name: '驗證', exact: true }).click();
  await expect(page).toHaveURL(/\/guide$/, { timeout: 10_000 });
}

async function apply(page: Page, type: string, hue: number): Promise<void> {
  await page.getByLabel('證件類型').selectOption({ label: type });
  await page.getByLabel('證件正面').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: await image('jpeg', hue) });
  await page.getByLabel('證件背面').setInputFiles({ name: 'back.png', mimeType: 'image/png', buffer: await image('png', hue + 40) });
  await page.getByRole('button', { name: '送出申請' }).click();
  await expect(page.getByRole('status').filter({ hasText: '已送出身份認證申請' })).toBeVisible();
  await expect(page.getByTestId('idv-state')).toHaveText('審核中');
}

test('a new guide is verified after a rejection, uploads a photo, and it goes public once approved', async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const name = `信任導遊${Date.now() % 100000}`;
  const email = uniqueEmail(testInfo, 'trust');
  await registerGuide(page, testInfo, name, email);
  // The guide center no longer says the profile is being reviewed.
  await expect(page.getByText('導遊資格正在審核中')).toHaveCount(0);

  // Locked out of photos; the lock leads to /id-verification.
  await page.goto('/me');
  await expect(page.getByText('完成身份認證後才能上傳照片。')).toBeVisible();
  await expect(page.getByLabel('選擇照片')).toHaveCount(0);
  await page.getByTestId('photos-locked').getByRole('link', { name: '前往身份認證' }).click();
  await expect(page).toHaveURL(/\/id-verification$/);
  await expect(page.getByTestId('idv-state')).toHaveText('尚未認證');
  await shots(page, testInfo, 'application');
  await expectNoAxeViolations(page, testInfo, '/id-verification');
  await apply(page, '國民身分證', 200);

  // The admin rejects with a note (notes are required).
  const admin = await newContextPage(browser, testInfo);
  await login(admin, E2E_ADMIN.email, E2E_ADMIN.password, '/admin/id-verification');
  const application = admin.getByRole('listitem').filter({ has: admin.getByRole('heading', { name: new RegExp(name) }) });
  await expect(application.getByRole('img', { name: /證件正面/ })).toBeVisible();
  await shots(admin, testInfo, 'admin-id-queue');
  await expectNoAxeViolations(admin, testInfo, '/admin/id-verification');
  await application.getByLabel('退回原因（必填，申請人會看到）').fill('照片模糊，請重新拍攝');
  await application.getByRole('button', { name: '退回' }).click();
  await expect(admin.getByRole('status').filter({ hasText: `已退回 ${name} 的申請` })).toBeVisible();

  // The guide sees the note and applies again.
  await page.goto('/id-verification');
  await expect(page.getByTestId('idv-state')).toHaveText('未通過');
  await expect(page.getByTestId('idv-notes')).toHaveText('照片模糊，請重新拍攝');
  await expect(page.getByRole('heading', { name: '重新認證' })).toBeVisible();
  await apply(page, '護照', 120);

  // The admin approves.
  await admin.goto('/admin/id-verification');
  await application.getByRole('button', { name: '通過', exact: true }).click();
  await expect(admin.getByRole('status').filter({ hasText: `已通過 ${name} 的身份認證` })).toBeVisible();

  // Verified: the guide uploads a photo (compressed in the browser with JS, a plain form without).
  await page.goto('/me');
  await expect(page.getByTestId('photos-locked')).toHaveCount(0);
  await page.getByLabel('選擇照片').setInputFiles({ name: 'view.jpg', mimeType: 'image/jpeg', buffer: await image('jpeg', 30, 2400, 1600) });
  await page.getByRole('button', { name: '上傳照片' }).click();
  await expect(page.getByText('照片已上傳，等待審核').first()).toBeVisible();
  const thumb = page.getByRole('link', { name: '放大檢視照片 1' });
  await expect(thumb).toBeVisible();
  await expect(page.locator('section[aria-labelledby="photos-card"]').getByText('審核中', { exact: true })).toBeVisible();
  await shots(page, testInfo, 'gallery');
  await expectNoAxeViolations(page, testInfo, '/me (gallery)');
  if (jsEnabled(testInfo)) {
    // The full-screen preview closes with Escape, its button, or a click outside; focus returns.
    for (const close of ['Escape', 'button', 'outside'] as const) {
      await thumb.click();
      const dialog = page.getByRole('dialog', { name: '照片預覽' });
      await expect(dialog).toBeVisible();
      if (close === 'Escape') {
        await shots(page, testInfo, 'preview');
        await page.keyboard.press('Escape');
      } else if (close === 'button') await dialog.getByRole('button', { name: '關閉' }).click();
      else await page.mouse.click(5, 790);
      await expect(dialog).toBeHidden();
      await expect(thumb).toBeFocused();
    }
  }

  // The admin approves the photo; it shows on the public guide page.
  await admin.goto('/admin/photo-review');
  const queued = admin.getByRole('listitem').filter({ has: admin.getByRole('link', { name, exact: true }) });
  await expect(queued.getByRole('img')).toBeVisible();
  await shots(admin, testInfo, 'admin-photo-queue');
  await expectNoAxeViolations(admin, testInfo, '/admin/photo-review');
  const guideHref = await queued.getByRole('link', { name, exact: true }).getAttribute('href');
  await queued.getByRole('button', { name: '通過', exact: true }).click();
  await expect(admin.getByRole('status').filter({ hasText: '已通過 1 張照片' })).toBeVisible();
  const guideId = guideHref!.split('/').pop();

  const visitor = await newContextPage(browser, testInfo);
  await visitor.goto(`/guides/${guideId}`);
  await expect(visitor.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(visitor.getByTitle('這位導遊已通過身份認證')).toContainText('已認證');
  // The first photo is also the page's hero picture: the gallery's copy is the last one named so.
  const photo = visitor.getByRole('img', { name: `${name}的導覽照片 1` }).last();
  await expect(photo).toBeVisible();
  await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await page.goto('/me');
  await expect(page.locator('section[aria-labelledby="photos-card"]').getByText('已通過', { exact: true })).toBeVisible();
  for (const path of ['/admin/photos', '/admin/guides', `/admin/guides/${guideId}`]) {
    await admin.goto(path);
    await expectNoAxeViolations(admin, testInfo, path);
  }
  await admin.context().close();
  await visitor.context().close();
});
