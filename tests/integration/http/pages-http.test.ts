import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { users } from '~db/schema';
import { describeError } from '~/http/errors.server';
import { hashPassword } from '~/services/accounts/passwords.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { createTraveler } from '~server/seed/factories';
import { useTestServer } from '../../support/http-server';
import { useTestDatabase } from '../../support/test-database';

/** Pages over real HTTP: statuses and headers a browser receives (JS off: plain form posts). */
useTestDatabase();
const server = useTestServer();
const httpsServer = useTestServer({ hsts: true });

beforeEach(() => resetRateLimits());

const form = (values: Record<string, string>) => new URLSearchParams(values).toString();
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

describe('pages', () => {
  it('an id out of range is the 404 page, not a server error', async () => {
    for (const path of ['/guides/99999999999', '/guide/2147483648', '/guides/abc']) {
      const response = await server.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('a page is a standards-mode document carrying its loader data for hydration, whole in one answer', async () => {
    const response = await server.request('/terms');
    expect(response.status).toBe(200);
    const html = response.text;
    // Without the doctype a browser lays the page out in quirks mode.
    expect(html.startsWith('<!DOCTYPE html><html')).toBe(true);
    // The loader data the browser hydrates with: handed over complete, then the stream is closed.
    const handoff = html.match(/streamController\.enqueue\((".*?")\);<\/script>/);
    expect(handoff, 'loader data script').not.toBeNull();
    expect(JSON.parse(handoff![1]!)).toContain('loaderData');
    expect(html.indexOf('streamController.close()')).toBeGreaterThan(html.indexOf('streamController.enqueue('));
    expect(html).not.toContain('<!--$!-->');
  });

  it('logged-in pages and .data answers are private, no-store; anonymous pages are not marked', async () => {
    const { cookie } = await loginAs(await createTraveler());
    const page = await server.request('/me', { cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('private, no-store');
    const data = await server.request('/me.data', { cookie });
    expect(data.status).toBe(200);
    expect(data.headers.get('cache-control')).toBe('private, no-store');
    const anonymous = await server.request('/terms');
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('cache-control') ?? '').not.toContain('private');
  });

  it('a redirectTo that leaves the site is dropped at login and on the success page', async () => {
    const user = await createTraveler({ passwordHash: await hashPassword('demo-password') });
    const tricky = ['/\t/evil.example', '//evil.example', '/\\evil.example', '/me\nSet-Cookie: a=b'];
    for (const redirectTo of tricky) {
      resetRateLimits();
      const login = await server.request('/login', {
        method: 'POST',
        headers: formHeaders,
        origin: server.baseUrl,
        body: form({ email: user.email, password: 'demo-password', redirectTo }),
      });
      expect(login.status, JSON.stringify(redirectTo)).toBe(302);
      const location = login.headers.get('location')!;
      expect(new URL(location, server.baseUrl).pathname).toBe('/login-success');
      expect(location).not.toMatch(/evil|redirectTo/);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const success = await server.request(`/login-success?${new URLSearchParams({ redirectTo })}`, { cookie });
      expect(success.status).toBe(200);
      expect(success.text).toMatch(/<meta http-equiv="refresh" content="[\d.]+;url=\/traveler"/);
      // Where the page sends the browser: the meta refresh and every link (the preference forms carry the
      // current URL as their own redirectTo, which the preferences action checks again).
      const targets = [...success.text.matchAll(/(?:url=|href=")([^"]*)/g)].map((m) => m[1]!);
      expect(targets.filter((t) => t.includes('evil')), targets.join(' ')).toEqual([]);
    }
    const page = await server.request(`/login?redirectTo=${encodeURIComponent('/me\nX: y')}`);
    expect(page.status).toBe(200);
  });

  it('the 11th failed form login answers 429 with Retry-After on the page', async () => {
    const user = await createTraveler({ passwordHash: await hashPassword('demo-password') });
    let last;
    for (let i = 0; i < 11; i++) {
      last = await server.request('/login', { method: 'POST', headers: formHeaders, body: form({ email: user.email, password: `wrong-${i}` }) });
    }
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(last!.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('a form post from another port of this host is refused', async () => {
    const { cookie } = await loginAs(await createTraveler());
    const other = new URL(server.baseUrl);
    other.port = String(Number(other.port) + 1);
    const response = await server.request('/logout', { method: 'POST', cookie, origin: other.origin, headers: formHeaders, body: '' });
    expect(response.status).toBe(403);
  });

  it('HSTS only when the public address is https', async () => {
    expect((await server.request('/')).headers.get('strict-transport-security')).toBeNull();
    expect((await httpsServer.request('/')).headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('logs', () => {
  it('a failed query is described without its parameters (no password hash in the log)', async () => {
    const hash = await hashPassword('secret-password');
    let caught: unknown;
    try {
      // An unknown account type breaks a check constraint after the hash has become a query parameter.
      await getDb().insert(users).values({ name: 'x', email: `log-${Date.now()}@example.test`, passwordHash: hash, type: 'pirate' as never });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeDefined();
    expect(String((caught as Error).message)).toContain(hash);
    const described = describeError(caught);
    expect(described).not.toContain(hash);
    expect(described).not.toContain('argon2');
    expect(described).toMatch(/insert into "users"/);
    expect(described).toMatch(/23514|check/);
  });
});
