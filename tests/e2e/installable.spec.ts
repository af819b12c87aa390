import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test, type BrowserContext, type ConsoleErrors } from './test';
import { jsEnabled } from './support';

/**
 * Issue 24: Chromium itself says the app is installable (Page.getInstallabilityErrors is empty once the service
 * worker is active), and every picture the manifest names (icons, screenshots, shortcut icons) answers 200 with
 * the type and size it declares. Playwright's contexts are incognito, where Chromium never installs
 * ("in-incognito"), so this one runs in a persistent context (a real profile) with service workers allowed.
 * A worker needs JavaScript: the JS-off project skips.
 */
test.beforeEach(({}, testInfo) => {
  test.skip(!jsEnabled(testInfo), 'a service worker needs JavaScript');
});

type Picture = { src: string; type: string; sizes: string; form_factor?: string; label?: string };

test('Chromium reports no installability error, and every manifest picture answers with its declared type and size', async ({ playwright, baseURL, request, consoleErrors }, testInfo) => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-installable-'));
  const context = await playwright.chromium.launchPersistentContext(profile, {
    ...testInfo.project.use.launchOptions,
    baseURL,
    locale: 'zh-TW',
    serviceWorkers: 'allow',
  });
  (consoleErrors as ConsoleErrors & { watch(context: BrowserContext): void }).watch(context);
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors).toEqual([]);

    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = (await (await request.get(manifestHref!)).json()) as { icons: Picture[]; screenshots: Picture[]; shortcuts: { icons: Picture[] }[] };
    expect(manifest.screenshots.map((s) => s.form_factor).sort()).toEqual(['narrow', 'wide']);
    for (const shot of manifest.screenshots) expect(shot.label, shot.src).toBeTruthy();
    const pictures = [...manifest.icons, ...manifest.screenshots, ...manifest.shortcuts.flatMap((s) => s.icons)];
    for (const picture of pictures) {
      const res = await request.get(picture.src);
      expect(res.status(), picture.src).toBe(200);
      expect(res.headers()['content-type'], picture.src).toBe(picture.type);
      const { width, height } = await sharp(await res.body()).metadata();
      expect(`${width}x${height}`, picture.src).toBe(picture.sizes);
    }
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
});
