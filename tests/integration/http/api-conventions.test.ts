import { beforeEach, describe, expect, it } from 'vitest';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { createTraveler, createUser } from '~server/seed/factories';
import { useTestServer, type TestRequestInit } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { useTestDatabase } from '../../support/test-database';

/**
 * ARCHITECTURE §5 as a client sees it: real HTTP requests to the Express app of server.ts, asserting the
 * status line, headers and body that arrive. (Every /api answer was once HTTP 200 while route-level tests
 * passed.)
 */
useTestDatabase();
const server = useTestServer();

beforeEach(() => resetRateLimits());

const expectEnvelopeError = (response: { status: number; headers: Headers; json: any }, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.json).toMatchObject({ success: false, code });
  expect(typeof response.json.message).toBe('string');
  expect(response.json.message.length).toBeGreaterThan(0);
};

describe('status lines of the API', () => {
  it('201 on create, 409 EMAIL_TAKEN for the same address', async () => {
    const body = { type: 'traveler', name: '新旅客', email: `new-${Date.now()}@example.test`, password: 'secret123' };
    const created = await server.request('/api/v1/auth/register', { json: body });
    expect(created.status).toBe(201);
    await expectContract(server, 'POST', '/api/v1/auth/register', created);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(created.json).toMatchObject({ success: true, data: { user: { email: body.email, type: 'traveler' } } });
    const taken = await server.request('/api/v1/auth/register', { json: body });
    expectEnvelopeError(taken, 409, 'EMAIL_TAKEN');
    await expectContract(server, 'POST', '/api/v1/auth/register', taken);
  });

  it('200 with a token and no-store on login; 401 INVALID_CREDENTIALS on a wrong password', async () => {
    const user = await createTraveler({ passwordHash: await (await import('~/services/accounts/passwords.server')).hashPassword('right-password') });
    const good = await server.request('/api/v1/auth/login', { json: { email: user.email, password: 'right-password' } });
    expect(good.status).toBe(200);
    expect(good.headers.get('cache-control')).toBe('no-store');
    expect(good.json.data.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    await expectContract(server, 'POST', '/api/v1/auth/login', good);
    const bad = await server.request('/api/v1/auth/login', { json: { email: user.email, password: 'wrong' } });
    expectEnvelopeError(bad, 401, 'INVALID_CREDENTIALS');
    await expectContract(server, 'POST', '/api/v1/auth/login', bad);
  });

  it('400 VALIDATION_ERROR names the fields, in the Accept-Language language', async () => {
    const response = await server.request('/api/v1/auth/register', {
      json: { type: 'traveler', email: 'not-an-email', password: '1' },
      headers: { 'accept-language': 'en-US,en;q=0.9' },
    });
    expectEnvelopeError(response, 400, 'VALIDATION_ERROR');
    expect(Object.keys(response.json.errors)).toEqual(expect.arrayContaining(['email', 'password', 'name']));
    expect(response.json.errors.email[0]).toBe('Invalid email format');
    await expectContract(server, 'POST', '/api/v1/auth/register', response);
  });

  it('400 for malformed JSON and for a NUL byte anywhere in the body', async () => {
    expectEnvelopeError(
      await server.request('/api/v1/auth/login', { body: '{"email": "a@b.c", ', headers: { 'content-type': 'application/json' } }),
      400,
      'VALIDATION_ERROR',
    );
    const nul = await server.request('/api/v1/auth/login', { json: { email: 'a\u0000@example.test', password: 'x' } });
    expectEnvelopeError(nul, 400, 'VALIDATION_ERROR');
    expect(nul.json.errors).toHaveProperty('email');
    const name = await server.request('/api/v1/auth/register', {
      json: { type: 'traveler', name: 'A\u0000B', email: `nul-${Date.now()}@example.test`, password: 'secret123' },
    });
    expectEnvelopeError(name, 400, 'VALIDATION_ERROR');
  });

  it('415 for a body that is neither JSON nor a form', async () => {
    const response = await server.request('/api/v1/auth/login', { body: '<login/>', headers: { 'content-type': 'application/xml' } });
    expectEnvelopeError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('401 without a token, 403 FORBIDDEN for another account, 404 for an unknown one', async () => {
    const [alice, bob] = [await createTraveler(), await createTraveler()];
    expectEnvelopeError(await server.request(`/api/v1/users/${alice.id}`), 401, 'UNAUTHORIZED');
    const { token } = await loginAs(bob);
    const forbidden = await server.request(`/api/v1/users/${alice.id}`, { token });
    expectEnvelopeError(forbidden, 403, 'FORBIDDEN');
    await expectContract(server, 'GET', '/api/v1/users/{id}', forbidden);
    const admin = await loginAs(await createUser({ type: 'admin' }));
    const missing = await server.request('/api/v1/users/99999999999', { token: admin.token });
    expectEnvelopeError(missing, 404, 'USER_NOT_FOUND');
    await expectContract(server, 'GET', '/api/v1/users/{id}', missing);
    expectEnvelopeError(await server.request(`/api/v1/users/${bob.id + 1000}`, { token: admin.token }), 404, 'USER_NOT_FOUND');
    // Ids outside int4 never reach the database (it would answer "out of range", a 500), for every resource.
    for (const path of ['/api/v1/orders/9999999999', '/api/v1/orders/007', '/api/v1/orders/9999999999/reviews', '/api/v1/reviews/9999999999']) {
      const method = path.startsWith('/api/v1/reviews/') ? 'DELETE' : 'GET';
      expectEnvelopeError(await server.request(path, { token: admin.token, method }), 404, 'NOT_FOUND');
    }
    const own = await server.request(`/api/v1/users/${bob.id}`, { token });
    expect(own.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/users/{id}', own);
    const stats = await server.request(`/api/v1/users/${bob.id}/stats`, { token });
    await expectContract(server, 'GET', '/api/v1/users/{id}/stats', stats);
    const list = await server.request('/api/v1/users?limit=5', { token: admin.token });
    expect(list.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/users', list);
    expect(own.headers.get('cache-control')).toBe('no-store');
  });

  it('an answer under 1 KiB goes as it is, with its Content-Length; a larger one is gzip-compressed', async () => {
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    const small = await server.request('/api/v1/notifications/unread/count', { token, headers: { 'accept-encoding': 'gzip' } });
    expect(small.status).toBe(200);
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(Number(small.headers.get('content-length'))).toBe(Buffer.byteLength(small.text));
    expect(small.json).toEqual({ success: true, data: { count: 0 } });

    const error = await server.request('/api/v1/orders/999999', { token, headers: { 'accept-encoding': 'gzip', 'accept-language': 'ja' } });
    expect(error.status).toBe(404);
    expect(error.headers.get('content-encoding')).toBeNull();
    expect(Number(error.headers.get('content-length'))).toBe(Buffer.byteLength(error.text));

    const large = await server.request('/api/v1/openapi.json', { headers: { 'accept-encoding': 'gzip' } });
    expect(large.status).toBe(200);
    expect(large.headers.get('content-encoding')).toBe('gzip');
    expect(large.text.length).toBeGreaterThan(1024);
  });

  it('405 with Allow for a method the route does not have; HEAD goes with GET', async () => {
    const response = await server.request('/api/v1/auth/login');
    expectEnvelopeError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers.get('allow')).toBe('POST');
    const users = await server.request('/api/v1/users/1', { method: 'PATCH', json: {} });
    expectEnvelopeError(users, 405, 'METHOD_NOT_ALLOWED');
    expect(users.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE');
  });

  it('404 in the envelope for any unknown /api path and method', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nope'],
      ['POST', '/api/v1/nope/deeper'],
      ['DELETE', '/api/unknown'],
    ] as const) {
      expectEnvelopeError(await server.request(path, { method, json: method === 'GET' ? undefined : {} }), 404, 'NOT_FOUND');
    }
  });

  it('429 with Retry-After once the login limit is reached', async () => {
    const user = await createTraveler();
    let last;
    for (let i = 0; i < 12; i++) last = await server.request('/api/v1/auth/login', { json: { email: user.email, password: `wrong-${i}` } });
    expectEnvelopeError(last!, 429, 'RATE_LIMIT_EXCEEDED');
    await expectContract(server, 'POST', '/api/v1/auth/login', last!);
    const retryAfter = Number(last!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('150 parallel wrong passwords over HTTP: at most 10 reach the password check, the rest are 429', async () => {
    const user = await createTraveler();
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) => server.request('/api/v1/auth/login', { json: { email: user.email, password: `guess-${i}` } })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(140);
    expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  });

  it('413 before the body is read: JSON over 1 MiB, uploads over 10 MiB', async () => {
    const big = await server.request('/api/v1/auth/login', { json: { email: 'a@example.test', password: 'x'.repeat(2 * 1024 * 1024) } });
    expectEnvelopeError(big, 413, 'PAYLOAD_TOO_LARGE');
    await expectContract(server, 'POST', '/api/v1/auth/login', big);
    const form = new FormData();
    form.set('avatar', new Blob([new Uint8Array(11 * 1024 * 1024)], { type: 'image/png' }), 'big.png');
    const { token } = await loginAs(await createTraveler());
    const upload = await server.request('/api/v1/users/1/avatar', { method: 'POST', body: form, token });
    expectEnvelopeError(upload, 413, 'FILE_TOO_LARGE');
  });
});

describe('request bodies', () => {
  it('a client that waits for 100-continue gets 413 for an oversized body and never the go-ahead', async () => {
    const result = await expectContinue(2 * 1024 * 1024);
    expect(result.continued).toBe(false);
    expect(result.status).toBe(413);
    const small = await expectContinue(64);
    expect(small.continued).toBe(true);
    expect(small.status).toBe(401);
  });

  it('a body without a length (chunked) is 411', async () => {
    const response = await server.request('/api/v1/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"email":"a@example.test","password":"x"}'));
          controller.close();
        },
      }),
      duplex: 'half',
    } as TestRequestInit);
    expectEnvelopeError(response, 411, 'LENGTH_REQUIRED');
  });
});

/** Sends headers with Expect: 100-continue and only sends the body if the server says continue. */
async function expectContinue(bytes: number): Promise<{ continued: boolean; status: number }> {
  const { request } = await import('node:http');
  const url = new URL(server.baseUrl);
  const body = JSON.stringify({ email: 'nobody@example.test', password: 'x'.repeat(Math.max(1, bytes - 50)) });
  return new Promise((resolve, reject) => {
    let continued = false;
    const req = request({
      host: url.hostname,
      port: url.port,
      path: '/api/v1/auth/login',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), expect: '100-continue' },
    });
    req.on('continue', () => {
      continued = true;
      req.end(body);
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ continued, status: res.statusCode ?? 0 }));
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

describe('requests refused before any route runs', () => {
  it('TRACE and made-up methods are 405, not 500', async () => {
    for (const path of ['/api/v1/auth/login', '/guides']) {
      for (const method of ['TRACE', 'PROPFIND']) {
        const response = await rawRequest(method, path);
        expect(response.status).toBe(405);
        expect(response.headers.allow).toContain('GET');
      }
    }
  });

  it('a path with broken percent-encoding is 400, not 500', async () => {
    const page = await rawRequest('GET', '/%');
    expect(page.status).toBe(400);
    const api = await rawRequest('GET', '/api/v1/users/%E0%A4%A');
    expect(api.status).toBe(400);
    expect(JSON.parse(api.body)).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
  });

  it('a cookie-authenticated API write from another origin is 403; the same with a bearer token passes', async () => {
    const admin = await loginAs(await createUser({ type: 'admin' }));
    const victim = await createTraveler();
    const crossSite = await server.request(`/api/v1/users/${victim.id}/block`, {
      method: 'POST',
      cookie: admin.cookie,
      origin: 'http://127.0.0.1:1',
    });
    expectEnvelopeError(crossSite, 403, 'FORBIDDEN');
    const bearer = await server.request(`/api/v1/users/${victim.id}/block`, {
      method: 'POST',
      token: admin.token,
      origin: 'http://127.0.0.1:1',
    });
    expect(bearer.status).toBe(200);
    const sameOrigin = await server.request(`/api/v1/users/${victim.id}/unblock`, { method: 'POST', cookie: admin.cookie });
    expect(sameOrigin.status).toBe(200);
  });
});

/** fetch() refuses malformed URLs and TRACE, so these go out through node:http. */
async function rawRequest(method: string, path: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { request } = await import('node:http');
  const url = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}
