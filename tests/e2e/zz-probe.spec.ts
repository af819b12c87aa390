import { test, expect } from '@playwright/test';
test('probe chunk', async ({ page, baseURL }, info) => {
  test.skip(info.project.name !== 'js-on');
  console.log('baseURL', baseURL);
  const log: string[] = [];
  page.on('console', (m) => log.push(`console ${m.type()}: ${m.text()}`));
  page.on('request', (r) => { if (r.url().includes('/assets/') || r.isNavigationRequest()) log.push(`req ${r.method()} ${r.url()}`); });
  page.on('requestfailed', (r) => log.push(`failed ${r.url()} ${r.failure()?.errorText}`));
  page.on('load', () => log.push(`load ${page.url()}`));
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) log.push(`nav ${f.url()}`); });
  await page.goto('/');
  let aborted = 0;
  await page.route(/\/assets\/guides\._index-.*\.js$/, async (route) => {
    if (aborted++ === 0) { log.push('ABORT ' + route.request().url()); return route.abort(); }
    return route.continue();
  });
  await page.getByRole('link', { name: '找導遊' }).click();
  await page.waitForTimeout(3000);
  log.push('final ' + page.url());
  console.log(log.join('\n'));
});
