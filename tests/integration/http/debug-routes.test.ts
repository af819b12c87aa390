import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, termsAgreements, users } from '~db/schema';
import { parseConfig } from '~/env.server';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 24, SPEC §2 and §7 Dev: /test, /api-test and GET/POST /api/dev/users, PUT/DELETE /api/dev/users/{id}
 * over real HTTP. Outside production any logged-in account; in production a 404 for everyone but an admin
 * (docs/decisions/030-debug-routes.md); no dev call touches an admin.
 */
useTestDatabase();
const server = useTestServer();

const CONFIG_KEY = Symbol.for('lvyou.config');
const g = globalThis as Record<symbol, unknown>;
const original = g[CONFIG_KEY];
const runAs = (mode: 'production' | 'development') => {
  g[CONFIG_KEY] = parseConfig({ ...process.env, NODE_ENV: mode });
};
afterEach(() => {
  g[CONFIG_KEY] = original;
});

type Login = Awaited<ReturnType<typeof loginAs>>;
let people: { traveler: Login; guide: Login; admin: Login; adminId: number };

beforeAll(async () => {
  const admin = await createUser({ type: 'admin' });
  people = { traveler: await loginAs(await createTraveler()), guide: await loginAs(await createGuide()), admin: await loginAs(admin), adminId: admin.id };
});

const page = (path: string, login?: Login) => server.request(path, { cookie: login?.cookie, headers: { 'accept-language': 'zh-TW' } });
const post = (path: string, fields: Record<string, string>, login?: Login) =>
  server.request(path, {
    method: 'POST',
    origin: server.baseUrl,
    cookie: login?.cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'zh-TW' },
    body: new URLSearchParams(fields).toString(),
  });

describe(`debug pages /test and /api-test (${testDriver})`, () => {
  it('in production: 404 for visitors, travelers and guides; 200 for admins', async () => {
    runAs('production');
    for (const path of ['/test', '/api-test']) {
      expect((await page(path)).status, path).toBe(404);
      expect((await page(path, people.traveler)).status, path).toBe(404);
      expect((await page(path, people.guide)).status, path).toBe(404);
      expect((await page(path, people.admin)).status, path).toBe(200);
    }
    expect((await post('/test', { intent: 'toast' }, people.guide)).status).toBe(404);
  });

  it('in development: any session; visitors are sent to log in', async () => {
    runAs('development');
    const visitor = await page('/test');
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toBe('/login?redirectTo=%2Ftest');
    const ui = await page('/test', people.traveler);
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('介面元件測試');
    expect(ui.text).toContain('name="robots" content="noindex"');
    // Without JS, ?demo=error shows the error screen with its retry link.
    const failed = await page('/test?demo=error', people.traveler);
    expect(failed.text).toMatch(/data-testid="demo-error"[^>]*>.*出現錯誤.*重試/s);
  });

  it('/test sends a toast through a redirect (no JS); an unknown intent is 400', async () => {
    const sent = await post('/test', { intent: 'toast' }, people.traveler);
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toBe('/test');
    const toastCookie = sent.headers.getSetCookie().find((c) => c.startsWith('toast='))!.split(';')[0]!;
    const shown = await server.request('/test', { cookie: `${people.traveler.cookie}; ${toastCookie}`, headers: { 'accept-language': 'zh-TW' } });
    expect(shown.text).toContain('這是一則測試通知。');
    expect((await post('/test', { intent: 'nope' }, people.traveler)).status).toBe(400);
  });

  it('/api-test lists every API call and shows the raw status, headers and body of one, made with the visitor’s login', async () => {
    const view = await page('/api-test', people.traveler);
    for (const call of ['GET /api/v1/guides', 'POST /api/v1/auth/login', 'GET /api/dev/users', 'DELETE /api/dev/users/{id}', 'GET /api/terms/current']) {
      expect(view.text, call).toContain(`<option value="${call}"`);
    }
    const status = await post('/api-test', { call: 'GET /api/v1/terms/agreement-status', path: '', body: '' }, people.traveler);
    expect(status.status).toBe(200);
    expect(status.text).toMatch(/GET \/api\/v1\/terms\/agreement-status<\/code> → <strong>200<\/strong>/);
    expect(status.text).toMatch(/content-type: application\/json/);
    // The factory's people agreed to the built-in terms (issue 35: booking and messaging need it).
    expect(status.text).toContain('&quot;requiresAgreement&quot;: false');

    const missing = await post('/api-test', { call: 'GET /api/v1/guides', path: '/api/v1/guides/999999', body: '' }, people.traveler);
    expect(missing.text).toMatch(/<strong>404<\/strong>/);
    expect(missing.text).toContain('GUIDE_NOT_FOUND');
  });

  it('/api-test refuses another host, an unfilled parameter and a body that is not JSON (400, values kept)', async () => {
    const other = await post('/api-test', { call: 'GET /api/v1/guides', path: '//evil.example/api/x', body: '' }, people.traveler);
    expect(other.status).toBe(400);
    expect(other.text).toContain('路徑必須以 /api/ 開頭');
    const absolute = await post('/api-test', { call: 'GET /api/v1/guides', path: '/api/../../x', body: '' }, people.traveler);
    expect(absolute.status).toBe(400);
    const params = await post('/api-test', { call: 'PUT /api/dev/users/{id}', path: '', body: '{}' }, people.traveler);
    expect(params.status).toBe(400);
    expect(params.text).toContain('請把路徑中的 {id} 之類的參數換成實際的值');
    const badJson = await post('/api-test', { call: 'POST /api/dev/users', path: '', body: '{oops' }, people.traveler);
    expect(badJson.status).toBe(400);
    expect(badJson.text).toContain('請求內容不是有效的 JSON');
    expect(badJson.text).toContain('{oops</textarea>');
  });
});

describe(`/api/dev/users (${testDriver})`, () => {
  it('in production: 404 NOT_FOUND for visitors, travelers and guides on every method; admins get in', async () => {
    runAs('production');
    const traveler = await createTraveler();
    for (const [method, path] of [
      ['GET', '/api/dev/users'],
      ['POST', '/api/dev/users'],
      ['PUT', `/api/dev/users/${traveler.id}`],
      ['DELETE', `/api/dev/users/${traveler.id}`],
    ] as const) {
      for (const token of [undefined, people.traveler.token, people.guide.token]) {
        const res = await server.request(path, { method, token, json: method === 'POST' || method === 'PUT' ? { name: 'x' } : undefined });
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.json.code).toBe('NOT_FOUND');
      }
    }
    const list = await server.request('/api/dev/users', { token: people.admin.token });
    expect(list.status).toBe(200);
    expect(list.json.data.users.some((u: { id: number }) => u.id === traveler.id)).toBe(true);
  });

  it('in development: 401 for a visitor; any session lists, creates a ready account, changes and archives it', async () => {
    runAs('development');
    expect((await server.request('/api/dev/users')).status).toBe(401);
    const list = await server.request('/api/dev/users', { token: people.traveler.token });
    expect(list.status).toBe(200);
    expect(list.json.data.users[0]).toMatchObject({ id: expect.any(Number), email: expect.any(String), blocked: false, archived: false });

    const email = `dev-${Date.now()}@example.test`;
    const created = await server.request('/api/dev/users', { token: people.guide.token, json: { type: 'guide', name: '測試導遊', email, password: 'secret-pass-1' } });
    expect(created.status).toBe(201);
    expect(created.json.data.user).toMatchObject({ email, type: 'guide', isEmailVerified: true, archived: false });
    const id = created.json.data.user.id as number;
    expect(await getDb().select().from(termsAgreements).where(eq(termsAgreements.userId, id))).toHaveLength(1);
    // It can log in at once (verified, no code).
    expect((await server.request('/api/v1/auth/login', { json: { email, password: 'secret-pass-1' } })).status).toBe(200);
    expect((await server.request('/api/dev/users', { token: people.guide.token, json: { type: 'traveler', name: 'Again', email, password: 'secret-pass-1' } })).status).toBe(409);

    const changed = await server.request(`/api/dev/users/${id}`, { method: 'PUT', token: people.traveler.token, json: { name: '改名導遊', isIdVerified: true } });
    expect(changed.status).toBe(200);
    expect(changed.json.data.user).toMatchObject({ name: '改名導遊', isIdVerified: true, type: 'guide' });

    const login = await loginAs((await getDb().select().from(users).where(eq(users.id, id)))[0]!);
    const deleted = await server.request(`/api/dev/users/${id}`, { method: 'DELETE', token: people.traveler.token });
    expect(deleted.status).toBe(200);
    expect(deleted.json.data.user.archived).toBe(true);
    // Its sessions ended: its token answers 401.
    expect((await server.request(`/api/v1/users/${id}`, { token: login.token })).status).toBe(401);

    const audit = await getDb().select({ action: auditLogs.action }).from(auditLogs).where(eq(auditLogs.targetId, String(id)));
    expect(audit.map((a) => a.action).sort()).toEqual(['dev.user.create', 'dev.user.delete', 'dev.user.update']);
  });

  it('no call creates, changes, makes or deletes an admin (403 before the body is read; admin type is 400)', async () => {
    runAs('development');
    const asAdmin = await server.request('/api/dev/users', { token: people.traveler.token, json: { type: 'admin', name: 'Boss', email: `boss-${Date.now()}@example.test`, password: 'secret-pass-1' } });
    expect(asAdmin.status).toBe(400);
    const target = await createTraveler();
    expect((await server.request(`/api/dev/users/${target.id}`, { method: 'PUT', token: people.traveler.token, json: { type: 'admin' } })).status).toBe(400);
    for (const token of [people.traveler.token, people.admin.token]) {
      const put = await server.request(`/api/dev/users/${people.adminId}`, { method: 'PUT', token, json: [] });
      expect(put.status).toBe(403);
      expect((await server.request(`/api/dev/users/${people.adminId}`, { method: 'DELETE', token })).status).toBe(403);
    }
    const [admin] = await getDb().select().from(users).where(eq(users.id, people.adminId));
    expect(admin).toMatchObject({ type: 'admin', deletedAt: null });
    expect((await server.request('/api/dev/users/999999', { method: 'DELETE', token: people.traveler.token })).status).toBe(404);
  });

  it('is in the OpenAPI document, marked development-only', async () => {
    const doc = (await server.request('/api/v1/openapi.json')).json;
    for (const [path, method] of [
      ['/api/dev/users', 'get'],
      ['/api/dev/users', 'post'],
      ['/api/dev/users/{id}', 'put'],
      ['/api/dev/users/{id}', 'delete'],
    ] as const) {
      expect(doc.paths[path][method]['x-development-only'], `${method} ${path}`).toBe(true);
    }
  });
});
