import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayInTaipei } from '~/lib/dates';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { jsonLogger, Metrics, serveMetrics } from '../../../server/observability';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 25 over real HTTP: the request id in every API error envelope and on the error pages (translated
 * "reference" line), the user id in each request's log line (from the session the auth layer resolved), and the
 * product's counters on the metrics port, scraped after real requests.
 */
useTestDatabase();
let logged = '';
const metrics = new Metrics();
const server = useTestServer({ logger: jsonLogger({ level: 'info', write: (chunk) => (logged += chunk) }), metrics });
let metricsServer: http.Server;
let metricsUrl = '';

beforeAll(async () => {
  metricsServer = await serveMetrics(metrics, 0, '127.0.0.1');
  metricsUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`;
});
afterAll(() => new Promise<void>((resolve) => metricsServer.close(() => resolve())));
beforeEach(() => resetRateLimits());

/** The log lines written so far (the logger writes once per turn of the event loop). */
async function logLines(): Promise<Array<Record<string, unknown>>> {
  await new Promise((resolve) => setImmediate(resolve));
  return logged
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
const lineOf = async (id: string | null) => (await logLines()).find((l) => l.request_id === id);

/** The value of one series on the metrics page (0 when absent). */
async function scrape(series: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe(`request ids, log lines and counters (${testDriver})`, () => {
  it('every API error envelope carries the answer’s X-Request-Id, also for refusals made before Remix', async () => {
    const notFound = await server.request('/api/v1/guides/987654', { headers: { 'Accept-Language': 'en' } });
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(notFound.json).toMatchObject({ success: false, code: 'GUIDE_NOT_FOUND', requestId: notFound.headers.get('x-request-id') });

    // A sane id of the caller (or of nginx) is kept, in the header and in the envelope.
    const traced = await server.request('/api/v1/notifications', { headers: { 'X-Request-Id': 'client-trace-0042' } });
    expect(traced.status).toBe(401);
    expect(traced.headers.get('x-request-id')).toBe('client-trace-0042');
    expect(traced.json).toEqual({ success: false, code: 'UNAUTHORIZED', message: expect.any(String), requestId: 'client-trace-0042' });

    // Refused by the guards (server/guards.ts): a malformed Authorization header, a body over the limit.
    const badHeader = await server.request('/api/v1/notifications', { headers: { Authorization: 'Basic abc' } });
    expect(badHeader.status).toBe(401);
    expect(badHeader.json.requestId).toBe(badHeader.headers.get('x-request-id'));
    const tooBig = await server.request('/api/v1/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: 'x'.repeat(1024 * 1024 + 1) });
    expect(tooBig.status).toBe(413);
    expect(tooBig.json).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', requestId: tooBig.headers.get('x-request-id') });
  });

  it('error pages show the request id as a translated reference line', async () => {
    const en = await server.request('/no-such-page-here', { headers: { 'Accept-Language': 'en' } });
    expect(en.status).toBe(404);
    expect(en.text).toContain(`Reference: ${en.headers.get('x-request-id')}`);
    const ja = await server.request('/no-such-page-here', { headers: { 'Accept-Language': 'ja', 'X-Request-Id': 'ja-trace-00001' } });
    expect(ja.text).toContain('参照番号：ja-trace-00001');
    // A page whose loader refuses (an order that does not exist for this traveler) goes through the root error boundary.
    const { cookie } = await loginAs(await createTraveler());
    const missing = await server.request('/orders/99999999', { cookie, headers: { 'Accept-Language': 'zh-TW' } });
    expect(missing.status).toBe(404);
    expect(missing.text).toContain(`參考編號：${missing.headers.get('x-request-id')}`);
    // The guards' own page (a write from another site).
    const crossSite = await server.request('/login', { method: 'POST', origin: 'https://evil.example', body: 'email=a', headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'Accept-Language': 'en' } });
    expect(crossSite.status).toBe(403);
    expect(crossSite.text).toContain(`Reference: ${crossSite.headers.get('x-request-id')}`);
  });

  it('a request’s log line names the user the session belongs to, a visitor’s names nobody, and no line holds a password', async () => {
    const traveler = await createTraveler();
    const { token, cookie } = await loginAs(traveler);
    const api = await server.request('/api/v1/notifications', { token });
    expect(api.status).toBe(200);
    const page = await server.request('/guides', { cookie });
    expect(page.status).toBe(200);
    const visitor = await server.request('/guides');
    const password = 'Wrong-Password-For-The-Log-9';
    const failed = await server.request('/api/v1/auth/login', { json: { email: traveler.email, password } });
    expect(failed.status).toBe(401);

    expect(await lineOf(api.headers.get('x-request-id'))).toMatchObject({ msg: 'request', method: 'GET', route: '/api/v1/notifications', status: 200, user_id: traveler.id });
    expect(await lineOf(page.headers.get('x-request-id'))).toMatchObject({ route: '/guides', status: 200, user_id: traveler.id });
    const visitorLine = await lineOf(visitor.headers.get('x-request-id'));
    expect(visitorLine).toMatchObject({ route: '/guides', status: 200 });
    expect(visitorLine).not.toHaveProperty('user_id');
    expect(await lineOf(failed.headers.get('x-request-id'))).toMatchObject({ route: '/api/v1/auth/login', method: 'POST', status: 401 });
    expect(logged).not.toContain(password);
    expect(logged).not.toContain('$argon2');
    expect(logged).not.toContain(token);
  });

  it('the metrics page counts rate-limit refusals by limit, and bookings created and refused by reason', async () => {
    const traveler = await createTraveler();
    const limit = 'rate_limit_refusals_total{limit="login:account-ip"}';
    const refusedBefore = await scrape(limit);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await server.request('/api/v1/auth/login', { json: { email: traveler.email, password: `wrong-${i}` } })).status);
    }
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    expect((await scrape(limit)) - refusedBefore).toBe(2);

    const guide = await createGuide();
    const date = addDays(todayInTaipei(), 3);
    await createAvailability(guide.id, { from: date, days: 1, price: 1500, slots: ['morning'] });
    const created = 'bookings_created_total';
    const conflicts = 'bookings_refused_total{reason="TIME_CONFLICT"}';
    const [createdBefore, conflictsBefore] = [await scrape(created), await scrape(conflicts)];
    const body = { guideId: guide.id, date, timeSlot: 'morning', numberOfPeople: 2, termsAccepted: true };
    const first = await server.request('/api/v1/orders', { token: (await loginAs(traveler)).token, json: body });
    expect(first.status).toBe(201);
    const second = await server.request('/api/v1/orders', { token: (await loginAs(await createTraveler())).token, json: body });
    expect(second.status).toBe(409);
    expect((await scrape(created)) - createdBefore).toBe(1);
    expect((await scrape(conflicts)) - conflictsBefore).toBe(1);
    // And the request histogram by route pattern.
    expect(await scrape('http_request_duration_seconds_count{method="POST",route="/api/v1/orders",status="201"}')).toBeGreaterThanOrEqual(1);
  });
});
