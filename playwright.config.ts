import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests against the real production build (`npm run build` first). global-setup starts
 * build/server.js on a free port with a fresh seeded database and sets E2E_BASE_URL; every test runs
 * once with JavaScript on and once with it off (progressive enhancement, ARCHITECTURE §7).
 */
const launchOptions = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  globalTeardown: './tests/e2e/global-teardown.ts',
  // A test spends part of its time waiting (navigations, debounces, the mail sink, server start-ups): on CI's two
  // cores a third worker uses that time (525 s → 459 s for the suite, CPU idle 20 % → 3 %, none flaky).
  // E2E_WORKERS changes it (more workers share the demo data more: only 2 and 3 have been tried).
  workers: Number(process.env.E2E_WORKERS ?? 3),
  // `.ci/run` sets E2E_RETRIES=1: a test that fails once and then passes is reported as flaky in the summary
  // (and must be looked into) instead of failing the whole run; a test that fails twice still fails it.
  retries: Number(process.env.E2E_RETRIES ?? 0),
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  outputDir: 'test-results',
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    locale: 'zh-TW',
    timezoneId: 'Asia/Taipei',
    extraHTTPHeaders: { 'Accept-Language': 'zh-TW,zh;q=0.9' },
    viewport: { width: 1280, height: 800 },
    launchOptions,
    // Recording a trace snapshots the page around every step (about a tenth of the run); E2E_TRACE=1 keeps one per failure.
    trace: process.env.E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    // The production build registers a service worker; page.route() does not see what a worker fetches, so
    // specs run without one unless they opt in (tests/e2e/offline.spec.ts: `test.use({ serviceWorkers: 'allow' })`).
    serviceWorkers: 'block',
  },
  projects: [
    { name: 'js-on', use: { javaScriptEnabled: true } },
    { name: 'js-off', use: { javaScriptEnabled: false } },
  ],
});
