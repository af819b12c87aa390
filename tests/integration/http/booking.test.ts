import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, notifications, orderEvents, orders } from '~db/schema';
import { attachRealtime } from '~/http/realtime.server';
import { addDays, todayInTaipei } from '~/lib/dates';
import { setClock } from '~/services/platform/clock.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { createAvailability, createGuide, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer } from '../../support/http-server';
import { outboxFor } from '../../support/mail';
import { expectContract } from '../../support/openapi';
import { payOrder } from '../../support/payments';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 10 over real HTTP: availability, booking (with the race the partial unique index decides), the order
 * state machine for every role, delete/restore, and who is told (notification, mail, socket) in which language.
 */
useTestDatabase();
const server = useTestServer();

beforeEach(() => resetRateLimits());
afterEach(() => setClock(undefined));

const today = () => todayInTaipei();
const inDays = (n: number) => addDays(today(), n);

async function bookable(options: { price?: number; days?: number; locale?: 'zh-TW' | 'en' | 'ja' } = {}) {
  const guide = await createGuide({ price: options.price ?? 2800, locale: options.locale ?? 'zh-TW' });
  await createAvailability(guide.id, { from: today(), days: options.days ?? 10, price: 1500 });
  return guide;
}

async function book(token: string, guideId: number, date: string, timeSlot = 'morning', extra: Record<string, unknown> = {}) {
  return server.request('/api/v1/orders', {
    token,
    json: { guideId, date, timeSlot, numberOfPeople: 3, note: '素食', termsAccepted: true, ...extra },
  });
}

/** A paid tour reaches its guide once its traveler's card is authorised (issue 32): books, then pays. */
async function bookAndPay(token: string, guideId: number, date: string, timeSlot = 'morning', extra: Record<string, unknown> = {}) {
  const created = await book(token, guideId, date, timeSlot, extra);
  expect(created.status).toBe(201);
  const { id, travelerId } = created.json.data.order;
  expect(await payOrder({ id: travelerId }, id)).toEqual({ status: 200, body: '1|OK' });
  return created;
}

describe(`availability slots over HTTP (${testDriver})`, () => {
  it('lists the window and lets the guide set days with either slot spelling', async () => {
    const guide = await createGuide({ price: 2400 });
    const { token } = await loginAs(guide);
    const day = inDays(3);
    const saved = await server.request(`/api/v1/guides/${guide.id}/availability-slots`, {
      token,
      json: {
        slots: [
          { date: day, time_slot: '上午', available: 1, price: 1500, description: '上午 導遊服務' },
          { date: `${day}T00:00:00.000Z`, time_slot: 'evening', available: 1, price: 1500 },
          { date: day, time_slot: 'evening', available: 1, price: 1500 },
        ],
      },
    });
    expect(saved.status).toBe(200);
    await expectContract(server, 'POST', '/api/v1/guides/{id}/availability-slots', saved);
    const ofDay = saved.json.data.slots.filter((s: any) => s.date === day);
    expect(ofDay.map((s: any) => [s.time_slot, s.available, s.price])).toEqual([
      ['morning', 1, 2400],
      ['afternoon', 0, 2400],
      ['evening', 1, 2400],
    ]);

    // Setting the day again closes what is not sent.
    const again = await server.request(`/api/v1/guides/${guide.id}/availability-slots`, {
      token,
      json: { slots: [{ date: day, time_slot: 'afternoon' }] },
    });
    expect(again.json.data.slots.filter((s: any) => s.date === day && s.available).map((s: any) => s.time_slot)).toEqual(['afternoon']);

    const listed = await server.request(`/api/v1/guides/${guide.id}/availability-slots`);
    expect(listed.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/guides/{id}/availability-slots', listed);
    expect(listed.json.data.from).toBe(today());
    expect(listed.json.data.to).toBe(inDays(60));
  });

  it('refuses past days, days beyond 60, unknown slots, other people, and unverified guides', async () => {
    const guide = await createGuide();
    const { token } = await loginAs(guide);
    const post = (slots: unknown[], t = token, id = guide.id) =>
      server.request(`/api/v1/guides/${id}/availability-slots`, { token: t, json: { slots } });
    expect((await post([{ date: inDays(-1), time_slot: 'morning' }])).status).toBe(400);
    expect((await post([{ date: inDays(61), time_slot: 'morning' }])).status).toBe(400);
    expect((await post([{ date: inDays(60), time_slot: 'morning' }])).status).toBe(200);
    const bad = await post([{ date: inDays(2), time_slot: 'night' }]);
    expect(bad.status).toBe(400);
    expect(bad.json.errors['slots.0.time_slot']).toBeDefined();

    const other = await createGuide();
    expect((await post([{ date: inDays(2), time_slot: 'morning' }], (await loginAs(other)).token)).json.code).toBe('FORBIDDEN');
    const traveler = await createTraveler();
    expect((await post([{ date: inDays(2), time_slot: 'morning' }], (await loginAs(traveler)).token)).status).toBe(403);
    expect((await post([{ date: inDays(2), time_slot: 'morning' }], '')).status).toBe(401);

    const unverified = await createGuide({ isIdVerified: false });
    const refused = await post([{ date: inDays(2), time_slot: 'morning' }], (await loginAs(unverified)).token, unverified.id);
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('VERIFICATION_REQUIRED');
    await expectContract(server, 'POST', '/api/v1/guides/{id}/availability-slots', refused);
    const noEmail = await createGuide({ isEmailVerified: false });
    expect((await post([{ date: inDays(2), time_slot: 'morning' }], (await loginAs(noEmail)).token, noEmail.id)).json.code).toBe('EMAIL_NOT_VERIFIED');

    // An admin may set an unverified guide's calendar.
    const admin = await createUser({ type: 'admin' });
    expect((await post([{ date: inDays(2), time_slot: 'morning' }], (await loginAs(admin)).token, unverified.id)).status).toBe(200);
    expect((await server.request('/api/v1/guides/999999/availability-slots')).json.code).toBe('GUIDE_NOT_FOUND');
  });

  it('will not close a slot that a pending order holds (409)', async () => {
    const guide = await bookable();
    const traveler = await createTraveler();
    expect((await book((await loginAs(traveler)).token, guide.id, inDays(2), 'afternoon')).status).toBe(201);
    const { token } = await loginAs(guide);
    const closing = await server.request(`/api/v1/guides/${guide.id}/availability-slots`, {
      token,
      json: { slots: [{ date: inDays(2), time_slot: 'morning' }] },
    });
    expect(closing.status).toBe(409);
    expect(closing.json.code).toBe('TIME_CONFLICT');
    expect(closing.json.message).toContain(inDays(2));
  });
});

describe(`booking over HTTP (${testDriver})`, () => {
  it('books an open slot at the guide’s price for the group, and tells the guide in the guide’s language', async () => {
    const guide = await bookable({ price: 2800, locale: 'en' });
    const traveler = await createTraveler({ name: '王小明', locale: 'zh-TW' });
    const { token } = await loginAs(traveler);
    const created = await book(token, guide.id, inDays(4), '下午', { price: 1500, userId: traveler.id });
    expect(created.status).toBe(201);
    await expectContract(server, 'POST', '/api/v1/orders', created);
    expect(created.json.data.order).toMatchObject({
      status: 'pending',
      travelerId: traveler.id,
      guideId: guide.id,
      guideUserId: guide.id,
      timeSlot: 'afternoon',
      numberOfPeople: 3,
      totalPrice: 2800,
    });
    // A paid tour: the answer carries its unpaid payment, and the guide hears of it once the card is authorised.
    expect(created.json.data.payment).toMatchObject({ status: 'unpaid', amount: 2800, captured: 0, refunded: 0 });
    expect(created.json.data.payment.checkoutUrl).toMatch(new RegExp(`/orders/${created.json.data.order.id}/pay$`));
    expect(await getDb().select().from(notifications).where(eq(notifications.userId, guide.id))).toEqual([]);
    expect(await payOrder(traveler, created.json.data.order.id)).toEqual({ status: 200, body: '1|OK' });
    const [notice] = await getDb().select().from(notifications).where(eq(notifications.userId, guide.id));
    expect(notice).toMatchObject({ type: 'order.booked', link: `/orders/${created.json.data.order.id}` });
    expect(notice!.title).toMatch(/^New booking/);
    expect(notice!.body).toContain('王小明');
    expect(notice!.body).toContain('NT$2,800');
    const mails = await outboxFor(guide.email);
    expect(mails.at(-1)!.subject).toMatch(/^Travel Assistant: New booking/);
    const events = await getDb().select().from(orderEvents).where(eq(orderEvents.orderId, created.json.data.order.id));
    expect(events).toMatchObject([{ action: 'book', fromStatus: null, toStatus: 'pending', actorId: traveler.id, actorRole: 'traveler' }]);
  });

  it('answers TIME_CONFLICT, GUIDE_NOT_FOUND, FORBIDDEN and EMAIL_NOT_VERIFIED per SPEC §8', async () => {
    const guide = await bookable();
    const [a, b] = [await createTraveler(), await createTraveler()];
    const [ta, tb] = [(await loginAs(a)).token, (await loginAs(b)).token];
    expect((await book(ta, guide.id, inDays(1))).status).toBe(201);
    const taken = await book(tb, guide.id, inDays(1));
    expect(taken.status).toBe(409);
    expect(taken.json).toMatchObject({ code: 'TIME_CONFLICT', message: '此時段已被其他旅客預約，請選擇其他時段或聯絡導遊' });
    await expectContract(server, 'POST', '/api/v1/orders', taken);
    // A slot the guide did not open is not bookable either.
    expect((await book(tb, guide.id, inDays(30))).json.code).toBe('TIME_CONFLICT');
    const notFound = await book(tb, 999999, inDays(1));
    expect(notFound.status).toBe(404);
    expect(notFound.json.code).toBe('GUIDE_NOT_FOUND');
    expect((await book(tb, a.id, inDays(1))).json.code).toBe('GUIDE_NOT_FOUND');
    expect((await book(tb, guide.id, inDays(2), 'morning', { userId: a.id })).json.code).toBe('FORBIDDEN');
    expect((await book(tb, guide.id, inDays(2), 'morning', { termsAccepted: false })).status).toBe(400);
    expect((await book(tb, guide.id, inDays(-1))).status).toBe(400);
    const unverified = await createTraveler({ isEmailVerified: false });
    expect((await book((await loginAs(unverified)).token, guide.id, inDays(2))).json.code).toBe('EMAIL_NOT_VERIFIED');
    expect((await book((await loginAs(guide)).token, guide.id, inDays(2))).status).toBe(403);
    expect((await server.request('/api/v1/orders', { json: {} })).status).toBe(401);
  });

  const rounds = testDriver === 'pg' ? 20 : 1;
  it(`50 parallel bookings of one slot give one order and 49 TIME_CONFLICT (${rounds} round(s))`, async () => {
    const guide = await bookable({ days: rounds + 1 });
    const travelers = await Promise.all(Array.from({ length: 50 }, () => createTraveler()));
    const tokens = await Promise.all(travelers.map(async (t) => (await loginAs(t)).token));
    for (let round = 0; round < rounds; round++) {
      const date = inDays(round + 1);
      // Each round another traveler sends first: the first sender mostly wins, and one traveler winning every round
      // would meet the hourly booking limit (12, BOOKING_LIMITS) at round 13.
      const order = [...tokens.slice((round * 7) % 50), ...tokens.slice(0, (round * 7) % 50)];
      const answers = await Promise.all(order.map((token) => book(token, guide.id, date)));
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      const others = answers.filter((r) => r.status !== 201 && !(r.status === 409 && r.json.code === 'TIME_CONFLICT'));
      expect(others.map((r) => `${r.status} ${r.text}`)).toEqual([]);
      expect(answers.filter((r) => r.status === 409 && r.json.code === 'TIME_CONFLICT')).toHaveLength(49);
      const rows = await getDb().select().from(orders).where(and(eq(orders.guideId, guide.id), eq(orders.date, date)));
      expect(rows).toHaveLength(1);
      // The guide answers it, so a traveler who wins many rounds stays under the pending limit (BOOKING_LIMITS).
      await getDb().update(orders).set({ status: 'confirmed' }).where(eq(orders.id, rows[0]!.id));
    }
    // 1,000 real HTTP bookings on PostgreSQL: well over the default 30 s on a shared 2-core machine.
  }, 180_000);
});

describe(`the order state machine over HTTP (${testDriver})`, () => {
  async function setup(status: 'pending' | 'confirmed' | 'cancelled' | 'completed' = 'pending', dayOffset = 5) {
    const guide = await bookable({ days: 10 });
    const traveler = await createTraveler();
    const admin = await createUser({ type: 'admin' });
    const stranger = await createTraveler();
    const [g, t, a, s] = [await loginAs(guide), await loginAs(traveler), await loginAs(admin), await loginAs(stranger)];
    const created = await bookAndPay(t.token, guide.id, inDays(dayOffset));
    const id = created.json.data.order.id as number;
    if (status !== 'pending') await getDb().update(orders).set({ status }).where(eq(orders.id, id));
    return { id, guide, traveler, tokens: { guide: g.token, traveler: t.token, admin: a.token, stranger: s.token } };
  }
  const put = (token: string, id: number, json: unknown) => server.request(`/api/v1/orders/${id}`, { method: 'PUT', token, json });

  it('every transition × role: allowed, 403 for the wrong party, 409 for the wrong state', async () => {
    type Role = 'guide' | 'traveler' | 'admin' | 'stranger';
    const cases: Array<{ from: 'pending' | 'confirmed' | 'cancelled' | 'completed'; body: unknown; expect: Record<Role, number | string> }> = [
      { from: 'pending', body: { status: 'confirmed' }, expect: { guide: 'confirmed', traveler: 403, admin: 403, stranger: 403 } },
      { from: 'pending', body: { status: 'cancelled' }, expect: { guide: 'cancelled', traveler: 'cancelled', admin: 'cancelled', stranger: 403 } },
      { from: 'confirmed', body: { status: 'confirmed' }, expect: { guide: 409, traveler: 403, admin: 403, stranger: 403 } },
      { from: 'confirmed', body: { status: 'cancelled' }, expect: { guide: 'cancelled', traveler: 'cancelled', admin: 'cancelled', stranger: 403 } },
      { from: 'confirmed', body: { travelerCompleted: true }, expect: { guide: 403, traveler: 409, admin: 403, stranger: 403 } },
      { from: 'confirmed', body: { guideCompleted: true }, expect: { guide: 409, traveler: 403, admin: 403, stranger: 403 } },
      { from: 'cancelled', body: { status: 'refunded' }, expect: { guide: 403, traveler: 403, admin: 'refunded', stranger: 403 } },
      { from: 'completed', body: { status: 'refunded' }, expect: { guide: 403, traveler: 403, admin: 'refunded', stranger: 403 } },
      { from: 'pending', body: { status: 'refunded' }, expect: { guide: 403, traveler: 403, admin: 409, stranger: 403 } },
      { from: 'cancelled', body: { status: 'confirmed' }, expect: { guide: 409, traveler: 403, admin: 403, stranger: 403 } },
    ];
    for (const c of cases) {
      for (const role of ['guide', 'traveler', 'admin', 'stranger'] as Role[]) {
        const { id, tokens } = await setup(c.from);
        const answer = await put(tokens[role], id, c.body);
        const want = c.expect[role];
        const label = `${c.from} ${JSON.stringify(c.body)} by ${role}`;
        if (typeof want === 'number') {
          expect(answer.status, label).toBe(want);
          expect(answer.json.code, label).toBe(want === 403 ? 'FORBIDDEN' : 'INVALID_TRANSITION');
        } else {
          expect(answer.status, label).toBe(200);
          expect(answer.json.data.order.status, label).toBe(want);
          // An admin's change through the API is audited like the console's, with the same action name.
          const audit = await getDb().select().from(auditLogs).where(and(eq(auditLogs.targetType, 'order'), eq(auditLogs.targetId, String(id))));
          expect(audit.map((a) => a.action), label).toEqual(role === 'admin' ? [`order.${want === 'refunded' ? 'refund' : 'cancel'}`] : []);
        }
      }
    }
    const { id, tokens } = await setup('pending');
    await expectContract(server, 'PUT', '/api/v1/orders/{id}', await put(tokens.guide, id, { status: 'confirmed' }));
    await expectContract(server, 'PUT', '/api/v1/orders/{id}', await put(tokens.stranger, id, { status: 'cancelled' }));
    // Forty orders through real HTTP: over the default 30 s on a loaded 2-core machine.
  }, 120_000);

  it('the tour day decides: no cancelling from it on, completion only from it, both flags complete the order', async () => {
    const { id, tokens, traveler, guide } = await setup('pending', 3);
    expect((await put(tokens.guide, id, { status: 'confirmed' })).status).toBe(200);
    // Move the clock to the tour day (Asia/Taipei): 09:00 there is 01:00 UTC.
    setClock(new Date(`${inDays(3)}T01:00:00Z`));
    expect((await put(tokens.traveler, id, { status: 'cancelled' })).json.code).toBe('INVALID_TRANSITION');
    expect((await put(tokens.guide, id, { status: 'cancelled' })).json.code).toBe('INVALID_TRANSITION');
    const half = await put(tokens.traveler, id, { travelerCompleted: true });
    expect(half.json.data.order).toMatchObject({ status: 'confirmed', travelerCompleted: true, guideCompleted: false });
    expect((await put(tokens.traveler, id, { travelerCompleted: true })).json.code).toBe('INVALID_TRANSITION');
    const done = await put(tokens.guide, id, { guideCompleted: true });
    expect(done.json.data.order).toMatchObject({ status: 'completed', travelerCompleted: true, guideCompleted: true });

    const detail = await server.request(`/api/v1/orders/${id}`, { token: tokens.traveler });
    await expectContract(server, 'GET', '/api/v1/orders/{id}', detail);
    expect(detail.json.data.events.map((e: any) => [e.action, e.toStatus, e.actorRole])).toEqual([
      ['book', 'pending', 'traveler'],
      ['confirm', 'confirmed', 'guide'],
      ['complete_traveler', 'confirmed', 'traveler'],
      ['complete', 'completed', 'guide'],
    ]);
    expect(detail.json.data.actions).toEqual([]);
    // The traveler heard of the confirmation and the completion; the guide of the booking and the traveler's mark.
    const types = async (userId: number) =>
      (await getDb().select().from(notifications).where(eq(notifications.userId, userId))).map((n) => n.type).sort();
    expect(await types(traveler.id)).toEqual(['order.completed', 'order.confirmed']);
    expect(await types(guide.id)).toEqual(['order.booked', 'order.completionMarked']);
    // 23:59 the day before in Taipei is still "before the tour day".
    const other = await setup('confirmed', 4);
    setClock(new Date(`${inDays(3)}T15:59:00Z`));
    expect((await put(other.tokens.guide, other.id, { guideCompleted: true })).json.code).toBe('INVALID_TRANSITION');
    expect((await put(other.tokens.traveler, other.id, { status: 'cancelled' })).json.data.order.status).toBe('cancelled');
  });

  it('lists per role, newest first, filtered and paginated; GET one is for its parties and admins', async () => {
    const guide = await bookable({ days: 10 });
    const [t1, t2] = [await createTraveler(), await createTraveler()];
    const [l1, l2, lg] = [await loginAs(t1), await loginAs(t2), await loginAs(guide)];
    const ids: number[] = [];
    for (let i = 1; i <= 3; i++) ids.push((await bookAndPay(l1.token, guide.id, inDays(i))).json.data.order.id);
    ids.push((await bookAndPay(l2.token, guide.id, inDays(5))).json.data.order.id);
    await put(lg.token, ids[0]!, { status: 'confirmed' });

    const mine = await server.request('/api/v1/orders?limit=2', { token: l1.token });
    await expectContract(server, 'GET', '/api/v1/orders', mine);
    expect(mine.json.data.orders.map((o: any) => o.id)).toEqual([ids[2], ids[1]]);
    expect(mine.json.data.pagination).toMatchObject({ page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true });
    const tours = await server.request('/api/v1/orders?status=confirmed', { token: lg.token });
    expect(tours.json.data.orders.map((o: any) => o.id)).toEqual([ids[0]]);
    expect((await server.request('/api/v1/orders', { token: lg.token })).json.data.pagination.total).toBe(4);
    expect((await server.request('/api/v1/orders?status=nope', { token: lg.token })).status).toBe(400);
    expect((await server.request(`/api/v1/orders/${ids[3]}`, { token: l1.token })).json.code).toBe('FORBIDDEN');
    expect((await server.request('/api/v1/orders/999999', { token: l1.token })).status).toBe(404);
    const admin = await loginAs(await createUser({ type: 'admin' }));
    expect((await server.request('/api/v1/orders?limit=100', { token: admin.token })).json.data.orders.length).toBeGreaterThanOrEqual(4);
  });

  it('an admin’s delete frees the slot; restoring fails with TIME_CONFLICT once it is booked again', async () => {
    const guide = await bookable();
    const [t1, t2] = [await loginAs(await createTraveler()), await loginAs(await createTraveler())];
    const admin = await loginAs(await createUser({ type: 'admin' }));
    const first = (await book(t1.token, guide.id, inDays(2))).json.data.order.id;
    expect((await server.request(`/api/v1/orders/${first}`, { method: 'DELETE', token: t1.token })).status).toBe(403);
    const deleted = await server.request(`/api/v1/orders/${first}`, { method: 'DELETE', token: admin.token });
    expect(deleted.status).toBe(200);
    await expectContract(server, 'DELETE', '/api/v1/orders/{id}', deleted);
    expect((await server.request('/api/v1/orders', { token: t1.token })).json.data.orders).toEqual([]);
    expect((await server.request(`/api/v1/orders/${first}`, { token: t1.token })).status).toBe(404);
    const slots = await server.request(`/api/v1/guides/${guide.id}/availability-slots`);
    expect(slots.json.data.slots.find((s: any) => s.date === inDays(2) && s.time_slot === 'morning').booked).toBe(false);

    // Restore works while the slot is free...
    const restored = await server.request(`/api/v1/orders/${first}/restore`, { token: admin.token, json: {} });
    expect(restored.status).toBe(200);
    await expectContract(server, 'POST', '/api/v1/orders/{id}/restore', restored);
    expect(restored.json.data.order.deletedAt).toBeNull();
    // ...and not once someone else has booked it.
    await server.request(`/api/v1/orders/${first}`, { method: 'DELETE', token: admin.token });
    expect((await book(t2.token, guide.id, inDays(2))).status).toBe(201);
    const conflict = await server.request(`/api/v1/orders/${first}/restore`, { token: admin.token, json: {} });
    expect(conflict.status).toBe(409);
    expect(conflict.json.code).toBe('TIME_CONFLICT');
  });
});

describe(`notifications over HTTP (${testDriver})`, () => {
  it('lists, counts, marks and deletes one’s own only', async () => {
    const guide = await bookable({ locale: 'ja' });
    const traveler = await createTraveler();
    const [lg, lt] = [await loginAs(guide), await loginAs(traveler)];
    await bookAndPay(lt.token, guide.id, inDays(1));
    await bookAndPay(lt.token, guide.id, inDays(2));

    const count = await server.request('/api/v1/notifications/unread/count', { token: lg.token });
    await expectContract(server, 'GET', '/api/v1/notifications/unread/count', count);
    expect(count.json.data.count).toBe(2);
    // Worded in the language the client asks for (Accept-Language), like every API message.
    const list = await server.request('/api/v1/notifications', { token: lg.token, headers: { 'Accept-Language': 'ja' } });
    await expectContract(server, 'GET', '/api/v1/notifications', list);
    expect(list.json.data.notifications[0].title).toMatch(/^新しい予約/);
    const [newest, older] = list.json.data.notifications;

    // Another person's notification is not found.
    expect((await server.request(`/api/v1/notifications/${newest.id}/read`, { method: 'PUT', token: lt.token })).status).toBe(404);
    expect((await server.request(`/api/v1/notifications/${newest.id}`, { method: 'DELETE', token: lt.token })).status).toBe(404);

    const read = await server.request(`/api/v1/notifications/${newest.id}/read`, { method: 'PUT', token: lg.token });
    await expectContract(server, 'PUT', '/api/v1/notifications/{id}/read', read);
    expect(read.json.data.notification.isRead).toBe(true);
    expect((await server.request('/api/v1/notifications/unread/count', { token: lg.token })).json.data.count).toBe(1);
    expect((await server.request('/api/v1/notifications/read-all', { method: 'PUT', token: lg.token, json: { userId: traveler.id } })).status).toBe(403);
    const all = await server.request('/api/v1/notifications/read-all', { method: 'PUT', token: lg.token, json: { userId: guide.id } });
    await expectContract(server, 'PUT', '/api/v1/notifications/read-all', all);
    expect((await server.request('/api/v1/notifications/unread/count', { token: lg.token })).json.data.count).toBe(0);
    const gone = await server.request(`/api/v1/notifications/${older.id}`, { method: 'DELETE', token: lg.token });
    await expectContract(server, 'DELETE', '/api/v1/notifications/{id}', gone);
    expect((await server.request('/api/v1/notifications', { token: lg.token })).json.data.pagination.total).toBe(1);
  });

  it('socket events reach the recipient’s room and no other', async () => {
    const httpServer = http.createServer();
    const realtime = await attachRealtime(httpServer);
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    const sockets: Socket[] = [];
    try {
      const guide = await bookable();
      const traveler = await createTraveler();
      const bystander = await createTraveler();
      const [lg, lt, lb] = [await loginAs(guide), await loginAs(traveler), await loginAs(bystander)];
      const open = async (token: string) => {
        const s = connect(url, { transports: ['websocket'], reconnection: false, auth: { token } });
        sockets.push(s);
        await new Promise<void>((resolve, reject) => {
          s.once('connect', resolve);
          s.once('connect_error', reject);
        });
        return s;
      };
      const [gs, ts, bs] = [await open(lg.token), await open(lt.token), await open(lb.token)];
      const got = (s: Socket) => {
        const list: Array<[string, any]> = [];
        s.onAny((event, payload) => list.push([event, payload]));
        return list;
      };
      const [gGot, tGot, bGot] = [got(gs), got(ts), got(bs)];
      const id = (await book(lt.token, guide.id, inDays(2))).json.data.order.id;
      await new Promise((r) => setTimeout(r, 300));
      // Booked but not paid: nobody hears of it yet (issue 32); the guide does once the card is authorised.
      expect(gGot).toEqual([]);
      expect(await payOrder(traveler, id)).toEqual({ status: 200, body: '1|OK' });
      await new Promise((r) => setTimeout(r, 300));
      expect(gGot.map(([e]) => e)).toEqual(['order_update', 'order_status_updated', 'new_notification']);
      expect(gGot[0]![1]).toEqual({ order: { id, status: 'pending' } });
      expect(gGot[2]![1].notification.link).toBe(`/orders/${id}`);
      expect(tGot).toEqual([]);
      await server.request(`/api/v1/orders/${id}`, { method: 'PUT', token: lg.token, json: { status: 'confirmed' } });
      await new Promise((r) => setTimeout(r, 300));
      expect(tGot.map(([e]) => e)).toEqual(['order_update', 'order_status_updated', 'new_notification']);
      expect(tGot[0]![1]).toEqual({ order: { id, status: 'confirmed' } });
      expect(bGot).toEqual([]);
    } finally {
      for (const s of sockets) s.close();
      await realtime.close();
      await new Promise((resolve) => httpServer.close(resolve));
    }
  });
});
