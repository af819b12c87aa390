import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, createApiClient, ok, retryAfterMs, type ApiClient, type ApiClientOptions } from '@lvyou/client';

/**
 * The typed client's own logic (packages/client, issue 33) against a real HTTP server on a loopback port that answers
 * from a script per test: 429 with Retry-After then 201, 503s, a dropped connection, a hung answer. What is asserted
 * is what went over the wire: the attempts, their Idempotency-Key and body, and the delays the client asked for.
 */
type Seen = { method: string; url: string; key: string | undefined; authorization: string | undefined; body: string };
type Step = (res: http.ServerResponse, req: http.IncomingMessage) => void;

let server: http.Server;
let baseUrl = '';
let script: Step[] = [];
let seen: Seen[] = [];

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Step => (res) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};
const created = json(201, { success: true, data: { order: { id: 7 } } });
const failure = (status: number, code: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  json(status, { success: false, code, message: `${code} message`, ...extra }, headers);
/** Closes the connection without an answer, as a dying proxy or a lost mobile link does. */
const drop: Step = (_res, req) => req.socket.destroy();
/** Never answers (until the test server closes). */
const hang: Step = () => undefined;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        key: req.headers['idempotency-key'] as string | undefined,
        authorization: req.headers.authorization,
        body,
      });
      const step = script.shift() ?? json(500, { success: false, code: 'SERVER_ERROR', message: 'script ran out' });
      step(res, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  script = [];
  seen = [];
});

/** A client whose waits are recorded (and not slept), with jitter fixed at its middle. */
function client(options: Partial<ApiClientOptions> = {}) {
  const delays: number[] = [];
  const api = createApiClient({
    baseUrl,
    token: 'secret-token',
    sleep: async (ms) => {
      delays.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  return { api, delays };
}

const booking = { guideId: 3, date: '2030-01-02', timeSlot: 'morning' as const, numberOfPeople: 2, termsAccepted: true as const };
const book = (api: ApiClient) => ok(api.POST('/api/v1/orders', { body: booking }));

describe('the typed client: retries and idempotency keys', () => {
  it('429 with Retry-After: 1, then 201: waits the second (really) and sends the same key and body again', async () => {
    script = [failure(429, 'RATE_LIMIT_EXCEEDED', { 'Retry-After': '1' }), created];
    const api = createApiClient({ baseUrl, token: 'secret-token' });
    const started = performance.now();
    const data = await book(api);
    const waited = performance.now() - started;
    expect(data).toEqual({ order: { id: 7 } });
    expect(seen).toHaveLength(2);
    expect(waited).toBeGreaterThanOrEqual(990);
    expect(waited).toBeLessThan(5_000);
    const [first, second] = seen;
    expect(first!.key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second!.key).toBe(first!.key);
    expect(second!.body).toBe(first!.body);
    expect(JSON.parse(first!.body)).toEqual(booking);
    expect(seen.map((s) => [s.method, s.url, s.authorization])).toEqual([
      ['POST', '/api/v1/orders', 'Bearer secret-token'],
      ['POST', '/api/v1/orders', 'Bearer secret-token'],
    ]);
  });

  it('503 and 502 without Retry-After: exponential backoff with jitter, the same key each time', async () => {
    script = [failure(503, 'SERVER_ERROR'), failure(502, 'SERVER_ERROR'), failure(504, 'SERVER_ERROR'), created];
    const { api, delays } = client({ backoffMs: 100 });
    await book(api);
    expect(seen).toHaveLength(4);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
    // Between half and all of 100·2^(n-1); the fixed random 0.5 puts each at three quarters.
    expect(delays).toEqual([75, 150, 300]);
  });

  it('the backoff is capped and its jitter stays within half to all of the step', async () => {
    script = [failure(503, 'SERVER_ERROR'), failure(503, 'SERVER_ERROR'), failure(503, 'SERVER_ERROR'), created];
    const low = client({ backoffMs: 400, maxBackoffMs: 1000, random: () => 0 });
    await book(low.api);
    expect(low.delays).toEqual([200, 400, 500]);
    script = [failure(503, 'SERVER_ERROR'), failure(503, 'SERVER_ERROR'), failure(503, 'SERVER_ERROR'), created];
    const high = client({ backoffMs: 400, maxBackoffMs: 1000, random: () => 0.999999 });
    await book(high.api);
    expect(high.delays).toEqual([400, 800, 1000]);
  });

  it('a dropped connection is retried with the same key', async () => {
    script = [drop, drop, created];
    const { api, delays } = client();
    await expect(book(api)).resolves.toEqual({ order: { id: 7 } });
    expect(seen).toHaveLength(3);
    expect(seen[1]!.key).toBe(seen[0]!.key);
    expect(seen[2]!.key).toBe(seen[0]!.key);
    expect(delays).toHaveLength(2);
  });

  it('an attempt past its deadline is abandoned and tried again with the same key', async () => {
    script = [hang, created];
    const { api } = client({ timeoutMs: 300 });
    const started = performance.now();
    await expect(book(api)).resolves.toEqual({ order: { id: 7 } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.key).toBe(seen[0]!.key);
  });

  it('Retry-After as an HTTP date is honoured', async () => {
    const at = new Date(Date.now() + 3_000).toUTCString();
    script = [failure(503, 'SERVER_ERROR', { 'Retry-After': at }), created];
    const { api, delays } = client();
    await book(api);
    expect(seen).toHaveLength(2);
    // The date has whole seconds: between 2 and 3 s from now.
    expect(delays[0]).toBeGreaterThan(1_900);
    expect(delays[0]).toBeLessThanOrEqual(3_000);
  });

  it('409 IDEMPOTENCY_IN_PROGRESS with Retry-After: the same key is asked again after the wait', async () => {
    script = [failure(409, 'IDEMPOTENCY_IN_PROGRESS', { 'Retry-After': '2' }), created];
    const { api, delays } = client();
    await book(api);
    expect(delays).toEqual([2_000]);
    expect(seen[1]!.key).toBe(seen[0]!.key);
  });

  it('a Retry-After longer than the cap is not waited for: the 429 comes back as an ApiError', async () => {
    script = [failure(429, 'RATE_LIMIT_EXCEEDED', { 'Retry-After': '3600', 'X-Request-Id': 'req-429' })];
    const { api, delays } = client({ maxRetryAfterMs: 60_000 });
    const error = await book(api).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMIT_EXCEEDED', retryAfterMs: 3_600_000, requestId: 'req-429' });
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('gives up after `retries` retries and throws the last answer', async () => {
    script = Array.from({ length: 5 }, () => failure(503, 'SERVER_ERROR'));
    const { api, delays } = client({ retries: 2 });
    await expect(book(api)).rejects.toMatchObject({ status: 503, code: 'SERVER_ERROR' });
    expect(seen).toHaveLength(3);
    expect(delays).toHaveLength(2);
  });

  it('gives up after `retries` dropped connections and throws the network error', async () => {
    script = [drop, drop];
    const { api } = client({ retries: 1 });
    const error = await book(api).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(2);
  });

  it('a write is never retried without its key', async () => {
    script = [failure(503, 'SERVER_ERROR'), created];
    const { api, delays } = client({ idempotencyKeys: false });
    await expect(book(api)).rejects.toMatchObject({ status: 503 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.key).toBeUndefined();
    expect(delays).toEqual([]);
  });

  it('each write call has its own key; a key the caller sets is used on every attempt', async () => {
    script = [created, created, failure(503, 'SERVER_ERROR'), created];
    const { api } = client();
    await book(api);
    await book(api);
    expect(seen[0]!.key).not.toBe(seen[1]!.key);
    await ok(api.POST('/api/v1/orders', { body: booking, params: { header: { 'Idempotency-Key': 'my-own-key-1' } } }));
    expect(seen.slice(2).map((s) => s.key)).toEqual(['my-own-key-1', 'my-own-key-1']);
  });

  it('PUT and DELETE are keyed too; a GET carries no key and is retried after 503', async () => {
    script = [json(200, { success: true, data: { order: { id: 7 } } }), json(200, { success: true, data: { order: { id: 7 } } })];
    const { api } = client();
    await ok(api.PUT('/api/v1/orders/{id}', { params: { path: { id: 7 } }, body: { status: 'cancelled' } }));
    await ok(api.DELETE('/api/v1/orders/{id}', { params: { path: { id: 7 } } }));
    expect(seen.map((s) => [s.method, s.url, Boolean(s.key)])).toEqual([
      ['PUT', '/api/v1/orders/7', true],
      ['DELETE', '/api/v1/orders/7', true],
    ]);

    seen = [];
    script = [failure(503, 'SERVER_ERROR'), json(200, { success: true, data: { guides: [], total: 0 } })];
    await ok(api.GET('/api/v1/guides', { params: { query: { city: '台北' } } }));
    expect(seen).toHaveLength(2);
    expect(seen.every((s) => s.key === undefined)).toBe(true);
    expect(seen[0]!.url).toBe(`/api/v1/guides?city=${encodeURIComponent('台北')}`);
  });

  it('other failures are not retried and become a typed ApiError with the envelope’s fields', async () => {
    script = [
      failure(409, 'ALREADY_BOOKED', { 'X-Request-Id': 'from-header' }, { orderId: 41, requestId: 'from-envelope' }),
      failure(400, 'VALIDATION_ERROR', {}, { errors: { numberOfPeople: ['too many'] } }),
      json(502, '<html>bad gateway</html>'),
    ];
    const { api } = client({ retries: 0 });
    const conflict = (await book(api).catch((e: unknown) => e)) as ApiError;
    expect(conflict).toBeInstanceOf(ApiError);
    expect(conflict).toMatchObject({ status: 409, code: 'ALREADY_BOOKED', message: 'ALREADY_BOOKED message', details: { orderId: 41 }, requestId: 'from-envelope' });
    const invalid = (await book(api).catch((e: unknown) => e)) as ApiError;
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { errors: { numberOfPeople: ['too many'] } } });
    expect(invalid.requestId).toBeUndefined();
    const notEnvelope = (await book(api).catch((e: unknown) => e)) as ApiError;
    expect(notEnvelope).toMatchObject({ status: 502, code: 'HTTP_502', message: 'HTTP 502' });
    expect(seen).toHaveLength(3);
  });

  it('a token function is read on every call', async () => {
    let token: string | undefined;
    script = [json(200, { success: true, data: {} }), json(200, { success: true, data: {} })];
    const api = createApiClient({ baseUrl, token: () => token });
    await ok(api.GET('/api/v1/notifications/unread/count'));
    token = 'later';
    await ok(api.GET('/api/v1/notifications/unread/count'));
    expect(seen.map((s) => s.authorization)).toEqual([undefined, 'Bearer later']);
  });
});

describe('retryAfterMs', () => {
  it('reads delta-seconds and HTTP dates; nothing else', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs('5', now)).toBe(5_000);
    expect(retryAfterMs(' 0 ', now)).toBe(0);
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Mon, 31 Dec 2029 23:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-3', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});
