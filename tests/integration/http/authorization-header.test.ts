import { beforeAll, describe, expect, it } from 'vitest';
import { createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 21 C: an Authorization header that is not exactly `Bearer <token>` is 401 UNAUTHORIZED. It never
 * falls back to the session cookie, and it does not pass for a bearer call that skips the same-origin check.
 */
useTestDatabase();
const server = useTestServer();

const MALFORMED = ['Bearer a b', 'Basic xyz', 'Bearer', 'Bearer ', 'bearer\ta b', 'Token abc', 'Bearer a,b'];
const FOREIGN = 'https://evil.example';

let login: { token: string; cookie: string };
beforeAll(async () => {
  login = await loginAs(await createTraveler());
});

describe(`malformed Authorization headers (${testDriver})`, () => {
  it('a cookie-authenticated write from another origin with a malformed header is 401, never done with the cookie', async () => {
    for (const authorization of MALFORMED) {
      const response = await server.request('/api/v1/notifications/read-all', {
        method: 'PUT',
        cookie: login.cookie,
        origin: FOREIGN,
        headers: { authorization },
        json: {},
      });
      expect(response.status, authorization).toBe(401);
      expect(response.json, authorization).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    }
  });

  it('from this origin too, and on reads: the cookie is not asked once an Authorization header is there', async () => {
    for (const authorization of MALFORMED) {
      const write = await server.request('/api/v1/notifications/read-all', { method: 'PUT', cookie: login.cookie, headers: { authorization }, json: {} });
      expect(write.status, authorization).toBe(401);
      const read = await server.request('/api/v1/notifications', { cookie: login.cookie, headers: { authorization } });
      expect(read.status, authorization).toBe(401);
      expect(read.json, authorization).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
    }
  });

  it('a well-formed bearer token and a cookie alone still work; a bearer call needs no Origin, a cookie call does', async () => {
    expect((await server.request('/api/v1/notifications', { token: login.token })).status).toBe(200);
    expect((await server.request('/api/v1/notifications', { cookie: login.cookie })).status).toBe(200);
    expect((await server.request('/api/v1/notifications/read-all', { method: 'PUT', token: login.token, origin: FOREIGN, json: {} })).status).toBe(200);
    expect((await server.request('/api/v1/notifications/read-all', { method: 'PUT', cookie: login.cookie, json: {} })).status).toBe(200);
    const crossSite = await server.request('/api/v1/notifications/read-all', { method: 'PUT', cookie: login.cookie, origin: FOREIGN, json: {} });
    expect(crossSite.status).toBe(403);
    // A dead but well-formed token is 401 too, and does not fall back to the cookie either.
    const dead = await server.request('/api/v1/notifications', { cookie: login.cookie, headers: { authorization: 'Bearer abc.def.ghi' } });
    expect(dead.status).toBe(401);
  });

  it('pages: a malformed header is not a login, whatever the cookie says', async () => {
    const page = await server.request('/notifications', { cookie: login.cookie, headers: { authorization: 'Bearer a b' } });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
    expect((await server.request('/notifications', { cookie: login.cookie })).status).toBe(200);
  });
});
