import { expect, test, type Page } from '@playwright/test';
import { cardsIn } from './support';

/**
 * SPEC §2: "A failed chunk load triggers one automatic reload."
 *
 * What actually happens (investigated with request/console/load logs, Remix 2.17.5): the guides list
 * route module (/assets/guides._index-<hash>.js) is imported by Remix's own `loadRouteModule`
 * (node_modules/@remix-run/react/dist/esm/routeModules.js). When that import fails it logs
 * "Error loading route module …, reloading page..." and calls `window.location.reload()` itself.
 * Our sessionStorage 'chunk-reload' flag in app/root.tsx is NOT involved: it listens for
 * `vite:preloadError`, which only Vite's `__vitePreload` wrapper fires, and the client build has no
 * such dynamic import; the root ErrorBoundary's regex is never reached either, because Remix swallows
 * the error and reloads. The probe below records both, so the tests say which mechanism did it.
 *
 * Consequence: `location.reload()` runs before the client navigation commits, so it reloads the page
 * the visitor was LEAVING (/), not /guides. The visitor sees the home page again and must click again.
 * The first test states the desired behaviour and is marked as an expected failure until the app
 * handles it; the second pins down what is guaranteed today (exactly one reload, no loop, recovery).
 */

const GUIDES_CHUNK = /\/assets\/guides\._index-[^/]+\.js(\?.*)?$/;

interface Probe {
  loads: number;
  console: string[];
}

async function preparePage(page: Page): Promise<Probe> {
  const probe: Probe = { loads: 0, console: [] };
  page.on('load', () => probe.loads++);
  page.on('console', (m) => probe.console.push(m.text()));
  // Runs before the app's own boot script in every document: reports if the app's flag path is used.
  await page.addInitScript(() => {
    window.addEventListener('vite:preloadError', () => console.log('[probe] vite:preloadError'));
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key: string, value: string) {
      if (key === 'chunk-reload') console.log('[probe] chunk-reload flag set');
      return setItem.call(this, key, value);
    };
  });
  let aborted = 0;
  await page.route(GUIDES_CHUNK, (route) => (aborted++ === 0 ? route.abort('failed') : route.continue()));

  await page.goto('/', { waitUntil: 'networkidle' });
  // Hydrated: Remix's router exists and has loaded, so the nav link is a client-side navigation.
  await page.waitForFunction(() => (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
  expect(probe.loads).toBe(1);
  return probe;
}

test.describe('chunk reload', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== 'js-on', 'only JavaScript navigations load route chunks');
  });

  test('a failed route chunk reloads once and lands on the page the visitor asked for', async ({ page }) => {
    test.fail(true, 'Known app bug: Remix reloads the page being left (/), not the target (/guides) — see report');
    const probe = await preparePage(page);
    await page.getByRole('banner').getByRole('link', { name: '找導遊' }).click();
    await expect.poll(() => probe.loads).toBe(2);
    await expect(page).toHaveURL(/\/guides$/, { timeout: 3_000 });
    await expect(cardsIn(page, 'guide-list')).toHaveCount(10, { timeout: 3_000 });
  });

  test('a failed route chunk reloads the document exactly once and the site recovers', async ({ page }) => {
    const probe = await preparePage(page);
    await page.getByRole('banner').getByRole('link', { name: '找導遊' }).click();

    // The document was loaded a second time…
    await expect.poll(() => probe.loads).toBe(2);
    await page.waitForLoadState('networkidle');
    // …by Remix's own route-module loader, not by the app's sessionStorage flag.
    expect(probe.console.some((t) => t.includes('Error loading route module') && t.includes('reloading page'))).toBe(true);
    expect(probe.console.filter((t) => t.startsWith('[probe]'))).toEqual([]);
    // No reload loop.
    await page.waitForTimeout(1_000);
    expect(probe.loads).toBe(2);

    // The reloaded page works: the same link now reaches the guide list without another reload.
    await page.waitForFunction(() => (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized === true);
    await page.getByRole('banner').getByRole('link', { name: '找導遊' }).click();
    await expect(page).toHaveURL(/\/guides$/);
    await expect(page.getByRole('heading', { level: 1, name: '導遊列表' })).toBeVisible();
    await expect(cardsIn(page, 'guide-list')).toHaveCount(10);
    expect(probe.loads).toBe(2);
  });
});
