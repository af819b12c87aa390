/**
 * Every spec imports `test` and `expect` from here instead of '@playwright/test' (same API). The one addition:
 * a test fails when any page it opened logged a console error or threw an uncaught error (a page error) —
 * in the `page`/`context` fixtures and in contexts a spec makes with `browser.newContext()`/`newPage()`.
 * Hydration mismatches (issue 19: server and browser rendering different words, React #418/#423/#425) show up
 * only there, as do failed script chunks and resources that answer 4xx/5xx.
 *
 * Chromium logs every answer with a 4xx/5xx status as a console error, also a page's own (a form answered 400
 * with its errors, the 404 page). A test that provokes an error on purpose says so, as narrowly as it can:
 *   consoleErrors.allowStatus('/login', 401, 'a wrong password');   // /login, or /login.data with JS
 *   consoleErrors.allow(/Failed to fetch dynamically imported module/, 'the spec fails a chunk on purpose');
 * A pattern is matched against `"<kind> <url>: <first line of the text>"`, e.g. "console.error
 * http://localhost:3000/nope: Failed to load resource: the server responded with a status of 404 (Not Found)".
 * There is no allow-list shared by all tests.
 */
import { test as base, type Browser, type BrowserContext } from '@playwright/test';

export * from '@playwright/test';

/**
 * Playwright's own note when a page registers the service worker while the config blocks workers (the default,
 * playwright.config.ts); not the page's warning.
 */
export const isBlockedWorkerNote = (text: string) => text === 'Service Worker registration blocked by Playwright';

export interface ConsoleErrors {
  /** An error this test provokes on purpose (it may happen with JS on only, or off only). */
  allow(pattern: RegExp, reason: string): void;
  /** The answer `status` to the document or the Remix data request (`.data`) of `path` (query ignored). */
  allowStatus(path: string, status: number, reason: string): void;
  /** What was logged so far (every error, allowed or not). */
  readonly seen: readonly string[];
}

export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    async ({ browser }, use) => {
      const seen: string[] = [];
      const allowed: Array<{ pattern: RegExp; reason: string }> = [];
      const watched = new WeakSet<BrowserContext>();
      const watch = (context: BrowserContext) => {
        if (watched.has(context)) return;
        watched.add(context);
        context.on('console', (message) => {
          if (message.type() !== 'error') return;
          const where = message.location().url || message.page()?.url() || '?';
          // The first line: React's console errors carry a stack of minified frames after it.
          seen.push(`console.error ${where}: ${message.text().split('\n')[0]}`);
        });
        context.on('weberror', (webError) => {
          const error = webError.error();
          seen.push(`pageerror ${webError.page()?.url() ?? '?'}: ${error.message}`);
        });
      };
      const restore = watchNewContexts(browser, watch);
      const gate: ConsoleErrors & { watch: typeof watch } = {
        allow: (pattern, reason) => void allowed.push({ pattern, reason }),
        allowStatus: (path, status, reason) => {
          const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          const pattern = new RegExp(`^console\\.error https?://[^/]+${escaped}(\\.data)?(\\?[^:]*)?: Failed to load resource: the server responded with a status of ${status} `);
          allowed.push({ pattern, reason });
        },
        seen,
        watch,
      };
      try {
        await use(gate);
      } finally {
        restore();
      }
      const unexpected = seen.filter((line) => !allowed.some(({ pattern }) => pattern.test(line)));
      base.expect(unexpected, 'console errors and page errors (tests/e2e/test.ts)').toEqual([]);
    },
    { auto: true },
  ],
  context: async ({ context, consoleErrors }, use) => {
    (consoleErrors as ConsoleErrors & { watch(context: BrowserContext): void }).watch(context);
    await context.addInitScript(markVisited);
    await use(context);
  },
});

/**
 * A visitor sees the terms modal on the first visit only (SPEC §4, issue 24): every context is a visitor who has
 * been here, unless it carries the cookie `e2e-first-visit` (tests/e2e/terms.spec.ts).
 */
function markVisited() {
  try {
    if (!document.cookie.includes('e2e-first-visit=')) localStorage.setItem('hasVisited', 'true');
  } catch {
    /* a page without storage (about:blank) */
  }
}

/** Contexts a test makes itself (`browser.newContext()`, `browser.newPage()`) are watched too, for this test only. */
function watchNewContexts(browser: Browser, watch: (context: BrowserContext) => void): () => void {
  const own = Object.prototype.hasOwnProperty.call(browser, 'newContext');
  const previous = browser.newContext;
  browser.newContext = async function newContext(this: Browser, ...args: Parameters<Browser['newContext']>) {
    const context = await previous.apply(this, args);
    await context.addInitScript(markVisited);
    watch(context);
    return context;
  };
  return () => {
    if (own) browser.newContext = previous;
    else delete (browser as Partial<Browser>).newContext;
  };
}
