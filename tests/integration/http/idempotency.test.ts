import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { idempotencyKeys, orders, reviews } from '~db/schema';
import { requestHash } from '~/services/platform/idempotency.server';
import { expireIdempotencyKeys, runJobIfDue } from '~/services/jobs/jobs.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createCompletedOrder, createGuide, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { expectContract, openApiDocument } from '../../support/openapi';
import { bookableGuide, bookingDay } from '../../support/booking';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 33, idempotency keys (docs/decisions/042): a keyed write runs once and its first answer is replayed; the
 * same key with another body is 422; a bad key is 400; keys are per caller; expired keys are cleaned by a job; on
 * PostgreSQL twenty copies of one keyed booking sent at once place one order and get twenty identical answers.
 * Over real HTTP.
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const day = bookingDay;

const bookable = bookableGuide;

const booking = (guideId: number, extra: Record<string, unknown> = {}) => ({
  guideId,
  date: day(),
  timeSlot: 'morning',
  numberOfPeople: 2,
  termsAccepted: true,
  ...extra,
});

const book = (token: string, key: string | undefined, json: unknown, language = 'en') =>
  server.request('/api/v1/orders', {
    token,
    headers: { 'Accept-Language': language, ...(key === undefined ? {} : { 'Idempotency-Key': key }) },
    json,
  });

const ordersOf = async (guideId: number) => getDb().select({ id: orders.id }).from(orders).where(eq(orders.guideId, guideId));

describe(`idempotency keys on /api/v1 writes (${testDriver})`, () => {
  it('a keyed booking sent again replays the first answer (status, body, headers) and places no second order', async () => {
    const guide = await bookable(2000);
    const { token } = await loginAs(await createTraveler());
    const first = await book(token, 'booking-1', booking(guide.id));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // A paid tour: the order with its payment step (issue 32).
    expect(first.json.data.payment).toMatchObject({ status: 'unpaid', amount: 2000 });
    expect(first.json.data.payment.checkoutUrl).toEqual(expect.any(String));

    const again = await book(token, 'booking-1', booking(guide.id));
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('cache-control')).toBe('no-store');
    expect(again.text).toBe(first.text);
    await expectContract(server, 'POST', '/api/v1/orders', again);
    expect(await ordersOf(guide.id)).toEqual([{ id: first.json.data.order.id }]);

    // Without the key the same booking is the refusal of issue 33: the traveler already holds the slot.
    const unkeyed = await book(token, undefined, booking(guide.id));
    expect(unkeyed.json).toMatchObject({ code: 'ALREADY_BOOKED', orderId: first.json.data.order.id });
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED, translated, and runs nothing', async () => {
    const guide = await bookable();
    const { token } = await loginAs(await createTraveler());
    expect((await book(token, 'k-2', booking(guide.id))).status).toBe(201);
    const other = await book(token, 'k-2', booking(guide.id, { timeSlot: 'afternoon' }));
    expect(other.status).toBe(422);
    expect(other.json).toMatchObject({ success: false, code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringContaining('Idempotency-Key') });
    await expectContract(server, 'POST', '/api/v1/orders', other);
    const zh = await book(token, 'k-2', booking(guide.id, { timeSlot: 'evening' }), 'zh-TW');
    expect(zh.json.message).toBe('這個 Idempotency-Key 已用於另一個不同的請求；新的請求請使用新的金鑰。');
    expect(await ordersOf(guide.id)).toHaveLength(1);
  });

  it('a bad key is 400 VALIDATION_ERROR naming the header, before anything runs', async () => {
    const guide = await bookable();
    const { token } = await loginAs(await createTraveler());
    for (const key of ['has space', 'x'.repeat(256), 'tab\there', 'é']) {
      const refused = await book(token, key, booking(guide.id));
      expect(refused.status, key).toBe(400);
      expect(refused.json).toMatchObject({
        code: 'VALIDATION_ERROR',
        errors: { 'Idempotency-Key': ['Idempotency-Key must be 1 to 255 visible ASCII characters (no spaces).'] },
      });
    }
    expect(await ordersOf(guide.id)).toHaveLength(0);
    expect((await book(token, 'x'.repeat(255), booking(guide.id))).status).toBe(201);
  });

  it('an invalid body is not kept: the corrected request with the same key runs', async () => {
    const guide = await bookable();
    const { token } = await loginAs(await createTraveler());
    const invalid = await book(token, 'k-fix', booking(guide.id, { numberOfPeople: 0 }));
    expect(invalid.status).toBe(400);
    const fixed = await book(token, 'k-fix', booking(guide.id));
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a refusal from the work is kept and replayed (409 TIME_CONFLICT stays the answer to that key)', async () => {
    const guide = await bookable();
    const first = await book((await loginAs(await createTraveler())).token, undefined, booking(guide.id));
    expect(first.status).toBe(201);
    const { token } = await loginAs(await createTraveler());
    const taken = await book(token, 'k-taken', booking(guide.id));
    expect(taken.json.code).toBe('TIME_CONFLICT');
    // The slot frees up, but the key's answer was given: the same request gets it again.
    await getDb().update(orders).set({ status: 'cancelled' }).where(eq(orders.id, first.json.data.order.id));
    const again = await book(token, 'k-taken', booking(guide.id));
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(taken.text);
  });

  it("another traveler's same key is their own: both book", async () => {
    const guide = await bookable();
    const a = await book((await loginAs(await createTraveler())).token, 'shared', booking(guide.id, { timeSlot: 'morning' }));
    const b = await book((await loginAs(await createTraveler())).token, 'shared', booking(guide.id, { timeSlot: 'afternoon' }));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(await ordersOf(guide.id)).toHaveLength(2);
  });

  it('a keyed DELETE replays its 200 instead of a 404 for the favorite it already removed', async () => {
    const guide = await bookable();
    const { token } = await loginAs(await createTraveler());
    const added = await server.request('/api/v1/favorites', { token, json: { targetId: guide.id } });
    expect(added.status).toBe(201);
    const path = `/api/v1/favorites/${added.json.data.favorite.id}`;
    const removed = await server.request(path, { method: 'DELETE', token, headers: { 'Idempotency-Key': 'del-1' } });
    expect(removed.status).toBe(200);
    const again = await server.request(path, { method: 'DELETE', token, headers: { 'Idempotency-Key': 'del-1' } });
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([200, 'true', removed.text]);
    const unkeyed = await server.request(path, { method: 'DELETE', token });
    expect(unkeyed.status).toBe(404);
  });

  it('a key is no way in: not logged in is 401 and nothing is kept', async () => {
    const guide = await bookable();
    const refused = await server.request('/api/v1/orders', { headers: { 'Idempotency-Key': 'anon' }, json: booking(guide.id) });
    expect(refused.status).toBe(401);
    expect(await getDb().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'anon'))).toEqual([]);
  });

  it('a repeat while the first still runs waits for its answer and replays it; a crashed first is taken over', async () => {
    const guide = await bookable();
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    const body = booking(guide.id);
    const hash = requestHash('application/json', new TextEncoder().encode(JSON.stringify(body)));
    const row = { userId: traveler.id, method: 'POST', path: '/api/v1/orders', requestHash: hash, state: 'running' as const };
    const [running] = await getDb()
      .insert(idempotencyKeys)
      .values({ ...row, key: 'slow', lockedAt: new Date(), expiresAt: new Date(Date.now() + 86_400_000) })
      .returning();
    const waiting = book(token, 'slow', body);
    await new Promise((r) => setTimeout(r, 400));
    const stored = JSON.stringify({ success: true, data: { kept: true } });
    await getDb()
      .update(idempotencyKeys)
      .set({ state: 'done', status: 201, body: stored, headers: { 'content-type': 'application/json; charset=utf-8' } })
      .where(eq(idempotencyKeys.id, running!.id));
    const answered = await waiting;
    expect([answered.status, answered.text, answered.headers.get('idempotent-replayed')]).toEqual([201, stored, 'true']);
    expect(await ordersOf(guide.id)).toHaveLength(0);

    // A reservation older than the lease (its request died): the repeat takes it over and books.
    await getDb()
      .insert(idempotencyKeys)
      .values({ ...row, key: 'crashed', lockedAt: new Date(Date.now() - 120_000), expiresAt: new Date(Date.now() + 86_400_000) });
    const takenOver = await book(token, 'crashed', body);
    expect(takenOver.status).toBe(201);
    const [kept] = await getDb()
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, traveler.id), eq(idempotencyKeys.key, 'crashed')));
    expect(kept).toMatchObject({ state: 'done', status: 201, body: takenOver.text });
  });

  it('a first that never finishes: the repeat waits about ten seconds, then 409 IDEMPOTENCY_IN_PROGRESS with Retry-After', { timeout: 30_000 }, async () => {
    const guide = await bookable();
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    const body = booking(guide.id);
    await getDb()
      .insert(idempotencyKeys)
      .values({
        userId: traveler.id,
        method: 'POST',
        path: '/api/v1/orders',
        key: 'stuck',
        requestHash: requestHash('application/json', new TextEncoder().encode(JSON.stringify(body))),
        state: 'running',
        lockedAt: new Date(),
        expiresAt: new Date(Date.now() + 86_400_000),
      });
    const started = Date.now();
    const busy = await book(token, 'stuck', body);
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_000);
    expect(busy.status).toBe(409);
    expect(busy.headers.get('retry-after')).toBe('1');
    expect(busy.json.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    await expectContract(server, 'POST', '/api/v1/orders', busy);
  });

  it('keys past their 24 hours are removed by the periodic job, and the key is free again', async () => {
    const guide = await bookable();
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    expect((await book(token, 'old', booking(guide.id))).status).toBe(201);
    expect((await book(token, 'fresh', booking(guide.id, { timeSlot: 'afternoon' }))).status).toBe(201);
    await getDb()
      .update(idempotencyKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(idempotencyKeys.key, 'old'));
    const outcome = await runJobIfDue(expireIdempotencyKeys);
    expect(outcome).toEqual({ ran: true, result: { idempotencyKeys: 1 } });
    const left = await getDb().select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, traveler.id));
    expect(left.map((r) => r.key)).toEqual(['fresh']);
    // The same key and body now run again (the traveler already holds that slot).
    const again = await book(token, 'old', booking(guide.id));
    expect([again.status, again.json.code, again.headers.get('idempotent-replayed')]).toEqual([409, 'ALREADY_BOOKED', null]);
  });

  it('the OpenAPI document lists the header on every logged-in write, the codes, and the replay header', async () => {
    const { doc } = await openApiDocument(server);
    let writes = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, any>)) {
        const keyed = (op.parameters ?? []).some((p: any) => p.in === 'header' && p.name === 'Idempotency-Key');
        const write = method !== 'get' && op.security?.length > 0;
        expect(keyed, `${method} ${path}`).toBe(write);
        if (!write) continue;
        writes++;
        const described = Object.values(op.responses as Record<string, { description: string }>).map((r) => r.description).join(' ');
        expect(described, `${method} ${path}`).toContain('IDEMPOTENCY_KEY_REUSED');
        expect(described, `${method} ${path}`).toContain('IDEMPOTENCY_IN_PROGRESS');
        const success = op.responses['201'] ?? op.responses['200'];
        expect(success.headers['Idempotent-Replayed'], `${method} ${path}`).toBeDefined();
      }
    }
    expect(writes).toBeGreaterThan(20);
  });
});

describe.runIf(testDriver === 'pg')('the same keyed booking sent twenty times at once (pg)', () => {
  it('places one order, and all twenty answers are the same 201', async () => {
    for (let round = 0; round < 3; round++) {
      resetRateLimits();
      const guide = await bookable();
      const { token } = await loginAs(await createTraveler());
      const answers = await Promise.all(Array.from({ length: 20 }, () => book(token, `race-${round}`, booking(guide.id))));
      expect(answers.map((a) => a.status), answers.map((a) => a.text).join('\n').slice(0, 800)).toEqual(Array(20).fill(201));
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
      expect(await ordersOf(guide.id)).toHaveLength(1);
    }
  });
});

describe(`the booking form's one-time key (${testDriver})`, () => {
  const keyIn = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
  const postForm = (guideId: number, cookie: string, values: Record<string, string>) =>
    server.request(`/booking/${guideId}`, {
      method: 'POST',
      cookie,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(values).toString(),
    });

  it('a second submit of the same form (double tap, back button, JS off) lands on the same order; other values are told so', async () => {
    const guide = await bookable(2000);
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);
    const page = await server.request(`/booking/${guide.id}`, { cookie });
    const key = keyIn(page.text);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const values = { idempotencyKey: key!, slot: `${day()}|morning`, numberOfPeople: '2', note: '想看夜市', termsAccepted: 'on' };

    const [first, second] = await Promise.all([postForm(guide.id, cookie, values), postForm(guide.id, cookie, values)]);
    expect([first.status, second.status]).toEqual([302, 302]);
    const mine = await getDb().select({ id: orders.id }).from(orders).where(eq(orders.travelerId, traveler.id));
    expect(mine).toHaveLength(1);
    expect(first.headers.get('location')).toBe(`/orders/${mine[0]!.id}/pay`);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));

    // Back to the form: the page hands out the same key, so its submit lands on the same order again.
    const back = await server.request(`/booking/${guide.id}`, { cookie });
    expect(keyIn(back.text)).toBe(key);
    // Their slot is offered again, marked as theirs (it is no longer open to anyone else).
    expect(back.text).toMatch(new RegExp(`value="${day()}\\|morning"`));
    expect(back.text).toContain('您已預約');
    const third = await postForm(guide.id, cookie, values);
    expect([third.status, third.headers.get('location')]).toEqual([302, first.headers.get('location')]);

    // The same key with another slot: the form says so, keeps what was typed, and carries a new key.
    const other = await postForm(guide.id, cookie, { ...values, slot: `${day()}|afternoon`, note: '第二個時段' });
    expect(other.status).toBe(422);
    const summary = /<div id="booking-errors"[\s\S]*?<\/ul>/.exec(other.text)?.[0] ?? '';
    expect(summary).toContain('這份表單已用其他內容送出過。');
    expect(other.text).toContain('第二個時段');
    const fresh = keyIn(other.text);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(key);
    expect(await getDb().select({ id: orders.id }).from(orders).where(eq(orders.travelerId, traveler.id))).toHaveLength(1);

    // Sent again with the new key, it is a new booking.
    const secondBooking = await postForm(guide.id, cookie, { ...values, idempotencyKey: fresh!, slot: `${day()}|afternoon` });
    expect(secondBooking.status).toBe(302);
    expect(secondBooking.headers.get('location')).not.toBe(first.headers.get('location'));
    expect(await getDb().select({ id: orders.id }).from(orders).where(eq(orders.travelerId, traveler.id))).toHaveLength(2);
  });

  it('a refused submit keeps nothing: the corrected form goes through with the same key', async () => {
    const guide = await bookable();
    await book((await loginAs(await createTraveler())).token, undefined, booking(guide.id));
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);
    const key = keyIn((await server.request(`/booking/${guide.id}`, { cookie })).text)!;
    const values = { idempotencyKey: key, slot: `${day()}|morning`, numberOfPeople: '1', termsAccepted: 'on' };
    const refused = await postForm(guide.id, cookie, values);
    expect(refused.status).toBe(409);
    const booked = await postForm(guide.id, cookie, { ...values, slot: `${day()}|afternoon` });
    expect(booked.status).toBe(302);
  });

  it('the review form: a double submit stores one review and both land on the order page', async () => {
    const guide = await createGuide();
    const traveler = await createTraveler();
    const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    const { cookie } = await loginAs(traveler);
    const key = keyIn((await server.request(`/orders/${order.id}`, { cookie })).text);
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    const send = () =>
      server.request(`/orders/${order.id}`, {
        method: 'POST',
        cookie,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ intent: 'review', idempotencyKey: key!, rating: '5', comment: '導覽很用心' }).toString(),
      });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(b.headers.get('location')).toBe(a.headers.get('location'));
    expect(await getDb().select({ id: reviews.id }).from(reviews).where(eq(reviews.orderId, order.id))).toHaveLength(1);
  });
});
