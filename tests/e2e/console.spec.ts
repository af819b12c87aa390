import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_ADMIN } from './support';
import { expect, isBlockedWorkerNote, test, type Page } from './test';

/**
 * Hydration mismatches (server and browser rendering different text: dates in another time zone, words of a
 * translation file the page did not name, issue 19) only show up as console errors. Every spec fails on a
 * console error or page error of any page it opens (tests/e2e/test.ts); here a browser in New York visits the
 * public pages and each role's own pages, waiting on each until it has hydrated, and warnings fail too.
 */
test.use({ timezoneId: 'America/New_York' });

/** Opens the page and waits until React has hydrated it (the router is initialized after hydration). */
async function visit(page: Page, path: string): Promise<void> {
  const response = await page.goto(path, { waitUntil: 'networkidle' });
  expect(response?.status(), path).toBeLessThan(400);
  await page.waitForFunction(
    () => (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true,
  );
}

function collectWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (m) => {
    // Playwright's own note that it blocked the service worker (playwright.config.ts serviceWorkers: 'block').
    if (m.type() === 'warning' && !isBlockedWorkerNote(m.text())) warnings.push(`${page.url()}: ${m.text()}`);
  });
  return warnings;
}

async function login(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('電子郵件', { exact: true }).fill(email);
  await page.getByLabel('密碼', { exact: true }).fill(password);
  await page.getByRole('button', { name: '登入', exact: true }).click();
  await page.waitForURL((url) => url.pathname === '/login-success');
}

/** The first link on `listPath` whose address matches `pattern` (a detail page to visit). */
async function firstLink(page: Page, listPath: string, pattern: RegExp): Promise<string> {
  await visit(page, listPath);
  const hrefs = await page.locator('main a[href]').evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  const href = hrefs.find((h) => pattern.test(h));
  expect(href, `a link like ${pattern} on ${listPath}`).toBeTruthy();
  return href!;
}

test.describe('pages hydrate without console errors, page errors or warnings', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== 'js-on', 'only hydration can log these');
  });

  test('public pages', async ({ page }) => {
    const warnings = collectWarnings(page);
    const detail = await firstLink(page, '/guides', /^\/guides\/\d+$/);
    for (const path of ['/', '/guides', '/guides?page=2', detail, '/terms', '/privacy-policy', '/booking-terms', '/login', '/register', '/forgot-password']) {
      await visit(page, path);
    }
    expect(warnings).toEqual([]);
  });

  test('a traveler’s pages', async ({ page }) => {
    const warnings = collectWarnings(page);
    // A demo traveler no other spec logs in as (nothing here changes data).
    await login(page, 'emily.carter@demo.travel-assistant.tw', 'demo1234');
    const order = await firstLink(page, '/orders', /^\/orders\/\d+$/);
    const guide = await firstLink(page, '/guides', /^\/guides\/\d+$/);
    for (const path of ['/traveler', '/favorites', '/orders', order, '/me', '/me?tab=orders', '/me?tab=reviews', '/notifications', `/booking/${guide.split('/').pop()}`]) {
      await visit(page, path);
    }
    expect(warnings).toEqual([]);
  });

  test('a guide’s pages', async ({ page }) => {
    const warnings = collectWarnings(page);
    // A demo guide no other spec logs in as.
    await login(page, 'guide20@demo.travel-assistant.tw', 'demo1234');
    const order = await firstLink(page, '/orders', /^\/orders\/\d+$/);
    for (const path of ['/guide', '/guide-availability', '/orders', order, '/me', '/me?tab=earnings', '/me?tab=reviews', '/notifications', '/id-verification']) {
      await visit(page, path);
    }
    expect(warnings).toEqual([]);
  });

  test('an admin’s pages', async ({ page }) => {
    const warnings = collectWarnings(page);
    await login(page, E2E_ADMIN.email, E2E_ADMIN.password);
    const guide = await firstLink(page, '/admin/guides', /^\/admin\/guides\/\d+$/);
    for (const path of ['/admin', '/admin/guides', guide, '/admin/reviews', '/admin/photos', '/admin/photo-review', '/admin/id-verification', '/me', '/notifications']) {
      await visit(page, path);
    }
    expect(warnings).toEqual([]);
  });
});

test('every spec uses the console gate (imports test from ./test)', ({}, testInfo) => {
  test.skip(testInfo.project.name !== 'js-on', 'reads files; once is enough');
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const bypassing = fs
    .readdirSync(dir)
    .filter((file) => file.endsWith('.spec.ts'))
    .filter((file) => /from\s+['"]@playwright\/test['"]/.test(fs.readFileSync(path.join(dir, file), 'utf8')));
  expect(bypassing).toEqual([]);
});
