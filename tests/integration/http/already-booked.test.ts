import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { orders } from '~db/schema';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { bookableGuide, bookingDay } from '../../support/booking';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 33: booking a slot the traveler already holds (a retry after a lost answer, a double tap with JS off, the
 * back button) is 409 ALREADY_BOOKED naming their order, never "taken by another traveler"; another traveler's
 * booking of that slot is still 409 TIME_CONFLICT. Over real HTTP, the API and the booking page.
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const day = bookingDay;

const bookable = bookableGuide;

const book = (token: string, guideId: number, language = 'zh-TW') =>
  server.request('/api/v1/orders', {
    token,
    headers: { 'Accept-Language': language },
    json: { guideId, date: day(), timeSlot: 'morning', numberOfPeople: 2, termsAccepted: true },
  });

const postForm = (guideId: number, cookie: string, values: Record<string, string>) =>
  server.request(`/booking/${guideId}`, {
    method: 'POST',
    cookie,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(values).toString(),
  });

describe(`booking a slot one already holds (${testDriver})`, () => {
  it('API: the same traveler again is 409 ALREADY_BOOKED with the order id; another traveler is TIME_CONFLICT', async () => {
    // A paid tour: right after booking the order is pending and unpaid, and it holds the slot (issue 32).
    const guide = await bookable(2000);
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    const first = await book(token, guide.id);
    expect(first.status).toBe(201);
    const orderId = first.json.data.order.id as number;
    expect(first.json.data.payment.status).toBe('unpaid');

    const again = await book(token, guide.id);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ success: false, code: 'ALREADY_BOOKED', orderId, message: `您已預約這個時段（訂單 #${orderId}）。` });
    expect(again.json.message).not.toContain('其他旅客');
    await expectContract(server, 'POST', '/api/v1/orders', again);

    const inEnglish = await book(token, guide.id, 'en');
    expect(inEnglish.json).toMatchObject({ code: 'ALREADY_BOOKED', orderId, message: `You have already booked this time slot (order #${orderId}).` });

    const other = await createTraveler();
    const taken = await book((await loginAs(other)).token, guide.id);
    expect(taken.status).toBe(409);
    expect(taken.json.code).toBe('TIME_CONFLICT');
    expect(taken.json.orderId).toBeUndefined();
    expect(taken.json.message).toContain('其他旅客');

    // Nothing new was written: the one order.
    expect(await getDb().select({ id: orders.id }).from(orders).where(eq(orders.guideId, guide.id))).toEqual([{ id: orderId }]);
  });

  it('API: a cancelled order no longer holds the slot, so booking it again is a new order', async () => {
    const guide = await bookable();
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    const first = await book(token, guide.id);
    expect(first.status).toBe(201);
    await getDb().update(orders).set({ status: 'cancelled' }).where(eq(orders.id, first.json.data.order.id));
    const again = await book(token, guide.id);
    expect(again.status).toBe(201);
    expect(again.json.data.order.id).not.toBe(first.json.data.order.id);
  });

  it('API: the same booking sent five times at once places one order; the others are ALREADY_BOOKED with its id', async () => {
    const guide = await bookable();
    const { token } = await loginAs(await createTraveler());
    const answers = await Promise.all(Array.from({ length: 5 }, () => book(token, guide.id)));
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(1);
    const orderId = created[0]!.json.data.order.id;
    for (const refused of answers.filter((a) => a.status !== 201)) expect(refused.json).toMatchObject({ code: 'ALREADY_BOOKED', orderId });
  });

  it('page: the form posted again (JS off) shows the message with a link to the order and keeps what was typed', async () => {
    const guide = await bookable(2000);
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);
    const values = { slot: `${day()}|morning`, numberOfPeople: '2', note: '想看夜市', termsAccepted: 'on' };
    const first = await postForm(guide.id, cookie, values);
    expect(first.status).toBe(302);
    const [order] = await getDb().select({ id: orders.id }).from(orders).where(eq(orders.travelerId, traveler.id));

    const again = await postForm(guide.id, cookie, values);
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toMatch(/^text\/html/);
    const summary = /<div id="booking-errors"[\s\S]*?<\/ul>/.exec(again.text)?.[0] ?? '';
    expect(summary).toContain(`您已預約這個時段（訂單 #${order!.id}）。`);
    expect(summary).toMatch(new RegExp(`<a [^>]*href="/orders/${order!.id}"[^>]*>查看這筆訂單</a>`));
    expect(summary).not.toContain('其他旅客');
    expect(again.text).toContain('想看夜市');

    // The order page it links to offers the payment while the order is unpaid.
    const orderPage = await server.request(`/orders/${order!.id}`, { cookie });
    expect(orderPage.status).toBe(200);
    expect(orderPage.text).toContain(`/orders/${order!.id}/pay`);
  });
});
