import { expect, test } from './test';

/**
 * A login link that carries a redirectTo pointing elsewhere must land on our own site, with JS on (the
 * success page navigates) and off (its meta refresh). Browsers drop the tab in `/\t/evil.example` and
 * read `//evil.example`, so the server must not pass it on.
 */
for (const redirectTo of ['/\t/evil.example', '//evil.example', '/\\evil.example']) {
  test(`login with redirectTo ${JSON.stringify(redirectTo)} stays on the site`, async ({ page, baseURL }) => {
    const origin = new URL(baseURL!).origin;
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`/login?${new URLSearchParams({ redirectTo })}`);
    await page.getByLabel('電子郵件', { exact: true }).fill('pinyen.chen@demo.travel-assistant.tw');
    await page.getByLabel('密碼', { exact: true }).fill('demo1234');
    await page.getByRole('button', { name: '登入', exact: true }).click();
    // The success page waits 1.5 s, then goes to the traveler's home.
    await expect(page).toHaveURL(/\/traveler$/, { timeout: 10_000 });
    expect(new URL(page.url()).origin).toBe(origin);
    expect(requested.filter((url) => new URL(url).origin !== origin)).toEqual([]);
  });
}
