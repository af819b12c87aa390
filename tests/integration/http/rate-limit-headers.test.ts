import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayInTaipei } from '~/lib/dates';
import { BOOKING_LIMITS } from '~/services/booking/booking.server';
import { MESSAGES_PER_MINUTE, NEW_CHATS_PER_HOUR } from '~/services/messaging/chats.server';
import { hashPassword } from '~/services/accounts/passwords.server';
import { LOGIN_FAILURES_PER_ACCOUNT_IP, RATE_WINDOW_SECONDS, resetRateLimits } from '~/services/platform/rate-limit.server';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer, type TestResponse } from '../../support/http-server';
import { openApiDocument } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 33: every answer of a call that consulted a rate limit carries RateLimit-Limit, -Remaining and -Reset for
 * the tightest limit it consulted (docs/decisions/041-rate-limit-headers.md), on success and on the 429 (which keeps
 * Retry-After); a call that consults none carries none. Real HTTP.
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const limitHeaders = (response: TestResponse) => ({
  limit: response.headers.get('ratelimit-limit'),
  remaining: response.headers.get('ratelimit-remaining'),
  reset: response.headers.get('ratelimit-reset'),
});

function expectReset(response: TestResponse, max: number) {
  const reset = response.headers.get('ratelimit-reset') ?? '';
  expect(reset).toMatch(/^[1-9]\d*$/);
  expect(Number(reset)).toBeLessThanOrEqual(max);
}

describe(`RateLimit headers (${testDriver})`, () => {
  it('login: Remaining counts down with failures, comes back with the right password, is 0 on the 429 with Retry-After', async () => {
    const user = await createTraveler({ passwordHash: await hashPassword('right-password') });
    // An address of its own (the test server trusts the loopback proxy), so no other test shares the per-address counter.
    const login = (password: string, path = '/api/v1/auth/login') =>
      server.request(path, { json: { email: user.email, password }, headers: { 'X-Forwarded-For': '198.51.100.33' } });

    const first = await login('wrong');
    expect(first.status).toBe(401);
    expect(limitHeaders(first)).toMatchObject({ limit: String(LOGIN_FAILURES_PER_ACCOUNT_IP), remaining: String(LOGIN_FAILURES_PER_ACCOUNT_IP - 1) });
    expectReset(first, RATE_WINDOW_SECONDS);
    const second = await login('wrong');
    expect(limitHeaders(second)).toMatchObject({ limit: String(LOGIN_FAILURES_PER_ACCOUNT_IP), remaining: String(LOGIN_FAILURES_PER_ACCOUNT_IP - 2) });
    expectReset(second, RATE_WINDOW_SECONDS);

    // The right password is not a guess: it forgives this person's typos from here (the full budget again).
    const good = await login('right-password');
    expect(good.status).toBe(200);
    expect(limitHeaders(good)).toMatchObject({ limit: String(LOGIN_FAILURES_PER_ACCOUNT_IP), remaining: String(LOGIN_FAILURES_PER_ACCOUNT_IP) });

    for (let i = LOGIN_FAILURES_PER_ACCOUNT_IP; i > 0; i--) {
      const failed = await login('wrong');
      expect(failed.status).toBe(401);
      expect(failed.headers.get('ratelimit-remaining')).toBe(String(i - 1));
    }
    const refused = await login('right-password');
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toMatchObject({ limit: String(LOGIN_FAILURES_PER_ACCOUNT_IP), remaining: '0' });
    expectReset(refused, RATE_WINDOW_SECONDS);
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('ratelimit-reset'));
  });

  it('the login page (a form post, JS off) carries them too', async () => {
    const user = await createTraveler({ passwordHash: await hashPassword('right-password') });
    const page = await server.request('/login', {
      method: 'POST',
      origin: server.baseUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'X-Forwarded-For': '198.51.100.34' },
      body: new URLSearchParams({ email: user.email, password: 'wrong' }).toString(),
    });
    expect(page.status).toBe(401);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(limitHeaders(page)).toMatchObject({ limit: String(LOGIN_FAILURES_PER_ACCOUNT_IP), remaining: String(LOGIN_FAILURES_PER_ACCOUNT_IP - 1) });
  });

  it('booking: the tightest of the booking limits (pending orders with one guide) counts down over two bookings', async () => {
    const guide = await createGuide({ price: 1800 });
    await createAvailability(guide.id, { from: todayInTaipei(), days: 5, price: 1500 });
    const { token } = await loginAs(await createTraveler());
    const book = (timeSlot: string) =>
      server.request('/api/v1/orders', { token, json: { guideId: guide.id, date: addDays(todayInTaipei(), 2), timeSlot, numberOfPeople: 2, termsAccepted: true } });
    const first = await book('morning');
    expect(first.status).toBe(201);
    expect(limitHeaders(first)).toMatchObject({ limit: String(BOOKING_LIMITS.pendingWithGuide), remaining: String(BOOKING_LIMITS.pendingWithGuide - 1) });
    expectReset(first, 3600);
    const second = await book('afternoon');
    expect(second.status).toBe(201);
    expect(second.headers.get('ratelimit-remaining')).toBe(String(BOOKING_LIMITS.pendingWithGuide - 2));
    expectReset(second, 3600);
    // A refusal after the limits were read (the slot is the traveler's own) reports them as they stand.
    const again = await book('afternoon');
    expect(again.status).toBe(409);
    expect(again.headers.get('ratelimit-remaining')).toBe(String(BOOKING_LIMITS.pendingWithGuide - 2));
  });

  it('chat: opening a conversation reports the tighter of its two limits; a message counts down the per-minute one', async () => {
    const guide = await createGuide();
    const { token } = await loginAs(await createTraveler());
    const opened = await server.request('/api/v1/chats', { token, json: { guideId: guide.id, message: '你好' } });
    expect(opened.status).toBe(201);
    // Five new conversations an hour (one used) is tighter than twenty messages a minute (one used).
    expect(limitHeaders(opened)).toMatchObject({ limit: String(NEW_CHATS_PER_HOUR), remaining: String(NEW_CHATS_PER_HOUR - 1) });
    expectReset(opened, 3600);

    const chatId = opened.json.data.chat.id as number;
    let sent = 0;
    const send = (text: string) => server.request(`/api/v1/chats/${chatId}/messages`, { token, json: { text, clientId: `m-${++sent}` } });
    const first = await send('第二則');
    expect(first.status).toBe(201);
    expect(limitHeaders(first)).toMatchObject({ limit: String(MESSAGES_PER_MINUTE), remaining: String(MESSAGES_PER_MINUTE - 2) });
    expectReset(first, RATE_WINDOW_SECONDS);
    for (let i = 3; i <= MESSAGES_PER_MINUTE; i++) expect((await send(`第 ${i} 則`)).headers.get('ratelimit-remaining')).toBe(String(MESSAGES_PER_MINUTE - i));
    const refused = await send('太多了');
    expect(refused.status).toBe(429);
    expect(limitHeaders(refused)).toMatchObject({ limit: String(MESSAGES_PER_MINUTE), remaining: '0' });
    expect(refused.headers.get('retry-after')).toBe(refused.headers.get('ratelimit-reset'));
  });

  it('a call that consults no limit carries none; the OpenAPI document lists them for limited operations only', async () => {
    const guides = await server.request('/api/v1/guides');
    expect(guides.status).toBe(200);
    expect(limitHeaders(guides)).toEqual({ limit: null, remaining: null, reset: null });
    const home = await server.request('/');
    expect(home.headers.get('ratelimit-limit')).toBeNull();

    const { doc } = await openApiDocument(server);
    const login = doc.paths['/api/v1/auth/login']!.post!.responses;
    for (const status of ['200', '401', '429']) {
      expect(Object.keys(login[status].headers ?? {}), status).toEqual(expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    }
    expect(login['429'].headers['Retry-After']).toBeDefined();
    expect(Object.keys(doc.paths['/api/v1/orders']!.post!.responses['201'].headers)).toContain('RateLimit-Remaining');
    expect(doc.paths['/api/v1/guides']!.get!.responses['200'].headers['RateLimit-Limit']).toBeUndefined();
  });
});
