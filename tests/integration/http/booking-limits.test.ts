import { and, eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { notifications, orders } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { BOOKING_LIMITS } from '~/services/booking/booking.server';
import { setClock } from '~/services/platform/clock.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createAvailability, createGuide, createOrder, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { payOrder } from '../../support/payments';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 21 finding 3: nothing limited bookings (25 rounds of book-then-cancel sent a guide 50 notices and mails;
 * one new traveler took 40 of a guide's slots). Limits a real traveler never meets, counted in the database
 * (shared by every instance), one traveler's bookings counted one at a time (the race runs on PostgreSQL).
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());
afterEach(() => setClock(undefined));

const inDays = (n: number) => addDays(todayInTaipei(), n);
const book = (token: string, guideId: number, date: string, timeSlot = 'morning') =>
  server.request('/api/v1/orders', { token, json: { guideId, date, timeSlot, numberOfPeople: 2, termsAccepted: true } });
const cancel = (token: string, id: number) => server.request(`/api/v1/orders/${id}`, { method: 'PUT', token, json: { status: 'cancelled' } });

describe(`booking limits (${testDriver})`, () => {
  it(`book then cancel: ${BOOKING_LIMITS.perHour} bookings an hour, then 429 with Retry-After until the hour has passed`, async () => {
    const start = new Date();
    setClock(start);
    const guide = await createGuide();
    await createAvailability(guide.id, { from: inDays(2), days: 1, price: 1500, slots: ['morning'] });
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    for (let i = 0; i < BOOKING_LIMITS.perHour; i++) {
      const booked = await book(token, guide.id, inDays(2));
      expect(booked.status, `booking ${i + 1}`).toBe(201);
      // Paid, so the guide hears of it (issue 32), then cancelled.
      expect(await payOrder(traveler, booked.json.data.order.id)).toEqual({ status: 200, body: '1|OK' });
      expect((await cancel(token, booked.json.data.order.id)).status).toBe(200);
    }
    const refused = await book(token, guide.id, inDays(2));
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ success: false, code: 'RATE_LIMIT_EXCEEDED', message: '請求過於頻繁，請稍後再試' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    // The guide was told of each booking and cancellation, and of nothing more.
    const notices = await getDb().select().from(notifications).where(eq(notifications.userId, guide.id));
    expect(notices).toHaveLength(2 * BOOKING_LIMITS.perHour);
    setClock(new Date(start.getTime() + 3_601_000));
    expect((await book(token, guide.id, inDays(2))).status).toBe(201);
  });

  it(`at most ${BOOKING_LIMITS.pendingWithGuide} pending orders with one guide and ${BOOKING_LIMITS.pending} in all`, async () => {
    const guide = await createGuide();
    await createAvailability(guide.id, { from: inDays(1), days: 10, price: 1500 });
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    for (let i = 0; i < BOOKING_LIMITS.pendingWithGuide; i++) expect((await book(token, guide.id, inDays(1 + i))).status).toBe(201);
    const refused = await book(token, guide.id, inDays(8));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('3600');
    // Once the guide answers one, the traveler may book again.
    const [first] = await getDb().select().from(orders).where(and(eq(orders.travelerId, traveler.id), eq(orders.date, inDays(1))));
    await getDb().update(orders).set({ status: 'confirmed' }).where(eq(orders.id, first!.id));
    expect((await book(token, guide.id, inDays(8))).status).toBe(201);

    // Pending orders with other guides, made earlier (outside the hour), count toward the overall limit.
    const other = await createTraveler();
    const earlier = new Date(Date.now() - 3 * 3_600_000);
    for (let i = 0; i < BOOKING_LIMITS.pending; i++) {
      const elsewhere = await createGuide();
      await createOrder({ travelerId: other.id, guideId: elsewhere.id, status: 'pending', createdAt: earlier });
    }
    expect((await book((await loginAs(other)).token, guide.id, inDays(9))).status).toBe(429);
  });

  const rounds = testDriver === 'pg' ? 5 : 1;
  it(`one traveler's parallel bookings with one guide cannot slip past the limit together (${rounds} round(s))`, async () => {
    for (let round = 0; round < rounds; round++) {
      const guide = await createGuide();
      await createAvailability(guide.id, { from: inDays(1), days: 8, price: 1500 });
      const traveler = await createTraveler();
      const { token } = await loginAs(traveler);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => book(token, guide.id, inDays(1 + (i % 8)), (['morning', 'afternoon', 'evening'] as const)[Math.floor(i / 8) % 3])),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201), `round ${round}: ${statuses.join(' ')}`).toHaveLength(BOOKING_LIMITS.pendingWithGuide);
      expect(statuses.filter((s) => s === 429)).toHaveLength(20 - BOOKING_LIMITS.pendingWithGuide);
      expect(await getDb().select().from(orders).where(eq(orders.travelerId, traveler.id))).toHaveLength(BOOKING_LIMITS.pendingWithGuide);
    }
  }, 120_000);
});
