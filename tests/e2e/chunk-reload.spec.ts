import { expect, test, type Page } from './test';
import { cardsIn } from './support';

/**
 * SPEC §2: "A failed chunk load triggers one automatic reload, tracked by a session flag."
 *
 * When a route module (/assets/guides._index-<hash>.js) fails to import during a client navigation, Remix's
 * own loader (node_modules/@remix-run/react/dist/esm/routeModules.js) calls `location.reload()` before the
 * navigation commits, which reloads the page being LEFT. app/root.tsx's module remembers the pending
 * navigation on pagehide and, on the reloaded page, goes to the visitor's target once, setting the
 * sessionStorage flag 'chunk-reload' so it can never loop.
 */

const GUIDES_CHUNK = /\/assets\/guides\._index-[^/]+\.js(\?.*)?$/;

/** Counts document (navigation) requests per path. */
async function preparePage(page: Page, abort: 'first' | 'always') {
  const documents: string[] = [];
  page.on('request', (r) => {
    if (r.isNavigationRequest() && r.frame() === page.mainFrame()) documents.push(new URL(r.url()).pathname);
  });
  let aborted = 0;
  await page.route(GUIDES_CHUNK, (route) =>
    abort === 'always' || aborted++ === 0 ? route.abort('failed') : route.continue(),
  );
  await page.goto('/', { waitUntil: 'networkidle' });
  // Hydrated: the nav link is now a client-side navigation that imports the route chunk.
  await page.waitForFunction(
    () => (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true,
  );
  expect(documents).toEqual(['/']);
  return documents;
}

test.describe('chunk reload', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== 'js-on', 'only JavaScript navigations load route chunks');
  });

  test('a failed route chunk reloads and lands on the page the visitor asked for', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/\/assets\/guides\._index-[\w-]+\.js: Failed to load resource: net::ERR_FAILED$/, 'the spec fails the chunk');
    consoleErrors.allow(/: TypeError: Failed to fetch dynamically imported module: .*\/assets\/guides\._index-[\w-]+\.js$/, 'Remix logs the failed import');
    consoleErrors.allow(/: Error loading route module `\/assets\/guides\._index-[\w-]+\.js`, reloading page\.\.\.$/, 'Remix logs the reload');
    const documents = await preparePage(page, 'first');
    await page.getByRole('banner').getByRole('link', { name: '找導遊' }).click();

    await expect(page).toHaveURL(/\/guides$/);
    await expect(page.getByRole('heading', { level: 1, name: '導遊列表' })).toBeVisible();
    await expect(cardsIn(page, 'guide-list')).toHaveCount(10);
    // Remix reloaded the page being left, the root module went on to the target: no more than that.
    await page.waitForTimeout(1_000);
    expect(documents).toEqual(['/', '/', '/guides']);

    // The reloaded page is fully alive: client navigation works again without documents.
    await page.waitForFunction(
      () => (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true,
    );
    await page.getByRole('banner').getByRole('link', { name: '旅遊助手' }).click();
    await expect(page.getByTestId('featured-guides')).toBeVisible();
    expect(documents).toEqual(['/', '/', '/guides']);
  });

  test('a chunk that keeps failing reloads only once: no loop, and the server-rendered page still shows', async ({ page, consoleErrors }) => {
    consoleErrors.allow(/\/assets\/guides\._index-[\w-]+\.js: Failed to load resource: net::ERR_FAILED$/, 'the spec fails the chunk');
    consoleErrors.allow(/: TypeError: Failed to fetch dynamically imported module: .*\/assets\/guides\._index-[\w-]+\.js$/, 'Remix logs the failed import');
    consoleErrors.allow(/: Error loading route module `\/assets\/guides\._index-[\w-]+\.js`, reloading page\.\.\.$/, 'Remix logs the reload');
    const documents = await preparePage(page, 'always');
    await page.getByRole('banner').getByRole('link', { name: '找導遊' }).click();

    await expect(page).toHaveURL(/\/guides$/);
    // The chunk never loads, so the page does not hydrate, but the server-rendered list is there.
    await expect(cardsIn(page, 'guide-list')).toHaveCount(10);
    expect(await page.evaluate(() => sessionStorage.getItem('chunk-reload'))).toBe('1');
    await page.waitForTimeout(2_000);
    expect(documents).toEqual(['/', '/', '/guides']);
  });
});
