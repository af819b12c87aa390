import { describe, expect, it } from 'vitest';
import { createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** Issue 19: pages say what is true for the person reading them. */
useTestDatabase();
const server = useTestServer();

const h1 = (html: string) => /<h1\b[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];

describe(`page wording (${testDriver})`, () => {
  it('/logout-success sends someone still logged in home, and tells a logged-out visitor they logged out', async () => {
    const { cookie } = await loginAs(await createTraveler());
    const loggedIn = await server.request('/logout-success', { cookie, redirect: 'manual', headers: { 'accept-language': 'zh-TW' } });
    expect(loggedIn.status).toBe(302);
    expect(loggedIn.headers.get('location')).toBe('/');

    const loggedOut = await server.request('/logout-success', { headers: { 'accept-language': 'zh-TW' } });
    expect(loggedOut.status).toBe(200);
    expect(h1(loggedOut.text)).toBe('您已成功登出');
  });

  it('titles the admin\'s list of every order "all orders", and a traveler\'s "my orders", in each language', async () => {
    const admin = await loginAs(await createUser({ type: 'admin' }));
    const traveler = await loginAs(await createTraveler());
    const expected = { 'zh-TW': ['所有訂單', '我的訂單'], en: ['All orders', 'My orders'], ja: ['すべての予約', '予約一覧'] };
    for (const [lang, [adminTitle, travelerTitle]] of Object.entries(expected)) {
      const headers = { 'accept-language': lang };
      const adminPage = await server.request('/orders', { cookie: admin.cookie, headers });
      expect(adminPage.status).toBe(200);
      expect(h1(adminPage.text), lang).toBe(adminTitle);
      expect(adminPage.text).toContain(`<title>${adminTitle}`);
      const travelerPage = await server.request('/orders', { cookie: traveler.cookie, headers });
      expect(h1(travelerPage.text), lang).toBe(travelerTitle);
    }
  });
});
