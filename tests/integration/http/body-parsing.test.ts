import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { openApiDocument } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 21 B: a body that does not match its Content-Type (or no body at all) is the client's mistake: 400
 * VALIDATION_ERROR or 415 UNSUPPORTED_MEDIA_TYPE, never 5xx, and no stack trace in the server log. Every
 * POST/PUT/PATCH of the OpenAPI document and every page with an action receives each wrong body, from each role.
 */
useTestDatabase();
const server = useTestServer();

beforeEach(() => resetRateLimits());

const WRONG_BODIES: { name: string; headers: Record<string, string>; body?: string }[] = [
  { name: 'no body', headers: {} },
  { name: 'text/plain junk', headers: { 'content-type': 'text/plain' }, body: 'hello=%%%\u0001 junk' },
  { name: 'JSON', headers: { 'content-type': 'application/json' }, body: '{"intent":"save","email":"a@b.c"}' },
  { name: 'broken JSON', headers: { 'content-type': 'application/json' }, body: '{"intent":' },
  { name: 'a form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'intent=save&x=%E0%A4%A' },
  { name: 'multipart, boundary=x, garbage', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: 'garbage\r\n--y\r\nnot a part' },
  { name: 'multipart without a boundary', headers: { 'content-type': 'multipart/form-data' }, body: '--x\r\nContent-Disposition: form-data\r\n\r\n' },
  {
    name: 'multipart, part never closed',
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    body: '--x\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG',
  },
];

type Role = 'anonymous' | 'traveler' | 'guide' | 'admin';
const ROLES: Role[] = ['anonymous', 'traveler', 'guide', 'admin'];
let users: Record<Exclude<Role, 'anonymous'>, Awaited<ReturnType<typeof createUser>>>;
let target: number;

beforeAll(async () => {
  users = { traveler: await createTraveler(), guide: await createGuide(), admin: await createUser({ type: 'admin' }) };
  target = (await createTraveler()).id;
});

/** Every line the server writes to the error and warning logs while the test runs. */
let logged: string[] = [];
beforeEach(() => {
  logged = [];
  for (const level of ['error', 'warn'] as const) {
    const write = console[level].bind(console);
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(args.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(' '));
      write(...args);
    });
  }
});
afterEach(() => vi.restoreAllMocks());

const stackTraces = () => logged.filter((line) => /\n\s+at /.test(line));

/**
 * Sends each wrong body to `path` as each role (a fresh session each time: one may log itself out); the answers of
 * 5xx. The four roles run side by side, each role's bodies one after the other (all 32 at once made undici reuse a
 * connection the server was closing after an early refusal on a loaded machine: "fetch failed").
 */
async function serverErrors(method: string, path: string, auth: 'token' | 'cookie', pathFor: (role: Role) => string = () => path) {
  const perRole = await Promise.all(
    ROLES.map(async (role) => {
      const failures: string[] = [];
      for (const wrong of WRONG_BODIES) {
        const session = role === 'anonymous' ? undefined : await loginAs(users[role]);
        const response = await server.request(pathFor(role), {
          method,
          headers: wrong.headers,
          body: wrong.body,
          ...(session && (auth === 'token' ? { token: session.token } : { cookie: session.cookie })),
          origin: server.baseUrl,
        });
        if (response.status >= 500) failures.push(`${role} ${wrong.name} → ${response.status}`);
      }
      return failures;
    }),
  );
  return perRole.flat();
}

describe(`bodies that do not match their Content-Type (${testDriver})`, () => {
  it('every POST, PUT and PATCH of the API answers 4xx, without a stack trace in the log', async () => {
    const { doc } = await openApiDocument(server);
    const failures: string[] = [];
    let operations = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const method of Object.keys(methods).filter((m) => ['post', 'put', 'patch'].includes(m))) {
        operations++;
        const concrete = path.replace(/\{[^}]+\}/g, String(target));
        for (const failure of await serverErrors(method.toUpperCase(), concrete, 'token')) failures.push(`${method.toUpperCase()} ${path}: ${failure}`);
      }
    }
    expect(operations).toBeGreaterThan(20);
    expect(failures, `${failures.length} answers of 5xx:\n${failures.join("\n")}`).toEqual([]);
    expect(stackTraces(), stackTraces().join('\n---\n')).toEqual([]);
    // Hundreds of sequential requests: well over the default 30 s on a loaded 2-core CI machine.
  }, 180_000);

  it('every page action answers 4xx (or its redirect), without a stack trace in the log', async () => {
    const routes = server.build.routes;
    const fullPath = (id: string): string => {
      const route = routes[id]!;
      const parent = route.parentId ? fullPath(route.parentId) : '';
      return route.path ? `${parent.replace(/\/$/, '')}/${route.path}` : parent;
    };
    const pages = Object.keys(routes)
      .filter((id) => typeof routes[id]!.module.action === 'function')
      .map(fullPath)
      .filter((path) => !path.startsWith('/api'));
    expect(pages).toEqual(expect.arrayContaining(['/login', '/register', '/booking/:guideId', '/me', '/notifications', '/favorites', '/orders/:id']));
    const failures: string[] = [];
    for (const page of pages) {
      const pathFor = (role: Role) => page.replace(':guideId', String(users.guide.id)).replace(/:\w+/g, String(role === 'admin' ? users.guide.id : target));
      for (const failure of await serverErrors('POST', page, 'cookie', pathFor)) failures.push(`POST ${page}: ${failure}`);
    }
    expect(failures, `${failures.length} answers of 5xx:\n${failures.join("\n")}`).toEqual([]);
    expect(stackTraces(), stackTraces().join('\n---\n')).toEqual([]);
    // Hundreds of sequential requests: well over the default 30 s on a loaded 2-core CI machine.
  }, 180_000);

  it('the status says which mistake: 400 for a form or JSON that cannot be read, 415 for another media type', async () => {
    const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
    const login = await server.request('/api/v1/auth/login', { method: 'POST', headers: multipart, body: 'garbage' });
    expect(login.status).toBe(400);
    expect(login.json).toMatchObject({ success: false, code: 'VALIDATION_ERROR', errors: { _body: ['表單格式錯誤，無法讀取'] } });
    const english = await server.request('/api/v1/auth/login', { method: 'POST', headers: { ...multipart, 'accept-language': 'en' }, body: 'garbage' });
    expect(english.json.errors._body).toEqual(['The form could not be read']);
    const xml = await server.request('/api/v1/auth/login', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' });
    expect(xml.status).toBe(415);
    expect(xml.json).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });

    const { cookie } = await loginAs(users.traveler);
    const page = (headers: Record<string, string>, body?: string) => server.request('/me', { method: 'POST', cookie, headers, body });
    expect((await page(multipart, 'garbage')).status).toBe(400);
    expect((await page({ 'content-type': 'application/json' }, '{"intent":"save"}')).status).toBe(415);
    expect((await page({ 'content-type': 'text/plain' }, 'intent=save')).status).toBe(415);
    const empty = await server.request('/login', { method: 'POST' });
    expect(empty.status).toBe(400);
    expect(empty.headers.get('content-type')).toMatch(/^text\/html/);
    expect(stackTraces()).toEqual([]);
  });
});
