import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { orders } from '~db/schema';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { bookableGuide, bookingDay } from '../../support/booking';
import { useTestServer } from '../../support/http-server';
import { outboxFor } from '../../support/mail';
import { expectContract } from '../../support/openapi';
import { payOrder } from '../../support/payments';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 35 (the trip card): a guide accepting a booking says where to meet and gives a phone; the traveler reads
 * both on the order, in the confirmation mail and on the trip card. Over real HTTP: the API and the order page's
 * forms as a browser without JS posts them.
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const MEETING = { meetingPoint: '捷運龍山寺站 1 號出口，我會舉黃色旗子', guidePhone: '0912-345-678' };

/** A paid booking waiting for its guide: the guide, the traveler and the order. */
async function paidBooking(slot: 'morning' | 'afternoon' | 'evening' = 'afternoon') {
  const guideUser = await bookableGuide(2000);
  const traveler = await createTraveler();
  const travelerLogin = await loginAs(traveler);
  const booked = await server.request('/api/v1/orders', {
    token: travelerLogin.token,
    json: { guideId: guideUser.id, date: bookingDay(), timeSlot: slot, numberOfPeople: 2, termsAccepted: true },
  });
  expect(booked.status).toBe(201);
  const orderId = booked.json.data.order.id as number;
  expect(await payOrder(traveler, orderId)).toEqual({ status: 200, body: '1|OK' });
  return { guideUser, guide: await loginAs(guideUser), traveler, travelerLogin, orderId };
}

const postOrderForm = (orderId: number, cookie: string, values: Record<string, string>) => server.postForm(`/orders/${orderId}`, cookie, values);

const statusOf = async (orderId: number) => (await getDb().select().from(orders).where(eq(orders.id, orderId)))[0]!;

describe(`meeting details given on confirming (${testDriver})`, () => {
  it('API: confirmed with the details, the traveler reads them on the order and in the confirmation mail', async () => {
    const { guide, traveler, travelerLogin, orderId } = await paidBooking();
    const confirmed = await server.request(`/api/v1/orders/${orderId}`, { method: 'PUT', token: guide.token, json: { status: 'confirmed', ...MEETING } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.json.data.order).toMatchObject({ status: 'confirmed', ...MEETING });
    await expectContract(server, 'PUT', '/api/v1/orders/{id}', confirmed);

    const read = await server.request(`/api/v1/orders/${orderId}`, { token: travelerLogin.token });
    expect(read.json.data.order).toMatchObject(MEETING);

    const mail = (await outboxFor(traveler.email)).find((m) => m.subject.includes(`#${orderId}`) && m.text.includes('已確認'));
    expect(mail?.text).toContain(`集合地點：${MEETING.meetingPoint}`);
    expect(mail?.text).toContain(`導遊電話：${MEETING.guidePhone}`);
    // One format for a booked slot everywhere: its name and its hours.
    expect(mail?.text).toContain('下午 13:00–17:00');

    // The order page shows them to the traveler, the phone as a link a phone can dial.
    const page = await server.request(`/orders/${orderId}`, { cookie: travelerLogin.cookie });
    expect(page.text).toContain(MEETING.meetingPoint);
    expect(page.text).toContain('href="tel:0912345678"');
    expect(page.text).toContain('下午 13:00–17:00');
  });

  it('API: half the details, the details with another change, or a bad phone are 400 and change nothing', async () => {
    const { guide, orderId } = await paidBooking();
    const put = (json: object) => server.request(`/api/v1/orders/${orderId}`, { method: 'PUT', token: guide.token, json, headers: { 'Accept-Language': 'en' } });
    const half = await put({ status: 'confirmed', meetingPoint: MEETING.meetingPoint });
    expect(half.status).toBe(400);
    const withCancel = await put({ status: 'cancelled', ...MEETING });
    expect(withCancel.status).toBe(400);
    const badPhone = await put({ status: 'confirmed', meetingPoint: MEETING.meetingPoint, guidePhone: 'call me' });
    expect(badPhone.status).toBe(400);
    expect(JSON.stringify(badPhone.json)).toContain('That phone number does not look right');
    const row = await statusOf(orderId);
    expect(row).toMatchObject({ status: 'pending', meetingPoint: null, guidePhone: null });
    // v1 clients that confirm without them still can (docs/decisions/044: nothing required is added to v1).
    const plain = await put({ status: 'confirmed' });
    expect(plain.status).toBe(200);
    expect(plain.json.data.order).toMatchObject({ status: 'confirmed', meetingPoint: null, guidePhone: null });
  });

  it('page without JS: 接受 asks for the details; a bad phone keeps what was typed; then the order is confirmed with them', async () => {
    const { guide, travelerLogin, orderId } = await paidBooking('morning');
    const step = await postOrderForm(orderId, guide.cookie, { intent: 'confirm' });
    expect(step.status).toBe(200);
    expect(step.text).toContain('接受預約：集合資訊');
    expect(step.text).toMatch(/<textarea[^>]*name="meetingPoint"/);
    expect(step.text).toMatch(/<input[^>]*type="tel"[^>]*name="guidePhone"|<input[^>]*name="guidePhone"[^>]*type="tel"/);
    expect((await statusOf(orderId)).status).toBe('pending');

    const bad = await postOrderForm(orderId, guide.cookie, { intent: 'confirm', meetingPoint: MEETING.meetingPoint, guidePhone: '12' });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('電話號碼格式不正確');
    expect(bad.text).toContain(MEETING.meetingPoint);
    expect((await statusOf(orderId)).status).toBe('pending');

    const empty = await postOrderForm(orderId, guide.cookie, { intent: 'confirm', meetingPoint: '  ', guidePhone: MEETING.guidePhone });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('請填寫集合地點');

    const done = await postOrderForm(orderId, guide.cookie, { intent: 'confirm', ...MEETING });
    expect(done.status).toBe(302);
    expect(await statusOf(orderId)).toMatchObject({ status: 'confirmed', ...MEETING });

    // The traveler's trip card: where, whom to call, the price and that it is paid, the reference and the hours.
    const card = await server.request('/trip-card', { cookie: travelerLogin.cookie });
    expect(card.status).toBe(200);
    expect(card.text).toContain(MEETING.meetingPoint);
    expect(card.text).toContain('href="tel:0912345678"');
    expect(card.text).toContain('NT$2,000');
    expect(card.text).toContain('已付款');
    expect(card.text).toContain(`預約編號 #${orderId}`);
    expect(card.text).toContain('上午 09:00–12:00');
    expect(card.text).toContain('您給導遊的備註');
  });

  it('page: the next confirmation starts from the details this guide gave last; another guide starts empty', async () => {
    const first = await paidBooking('morning');
    expect((await postOrderForm(first.orderId, first.guide.cookie, { intent: 'confirm', ...MEETING })).status).toBe(302);
    // A second booking with the same guide.
    const traveler = await createTraveler();
    const login = await loginAs(traveler);
    const booked = await server.request('/api/v1/orders', {
      token: login.token,
      json: { guideId: first.guideUser.id, date: bookingDay(), timeSlot: 'evening', numberOfPeople: 1, termsAccepted: true },
    });
    const secondId = booked.json.data.order.id as number;
    await payOrder(traveler, secondId);
    const step = await postOrderForm(secondId, first.guide.cookie, { intent: 'confirm' });
    expect(step.text).toContain(MEETING.meetingPoint);
    expect(step.text).toContain(`value="${MEETING.guidePhone}"`);

    const other = await paidBooking('morning');
    const otherStep = await postOrderForm(other.orderId, other.guide.cookie, { intent: 'confirm' });
    expect(otherStep.text).not.toContain(MEETING.meetingPoint);
    // Only the order's guide may confirm it, details or not.
    const stranger = await postOrderForm(first.orderId, other.guide.cookie, { intent: 'confirm', ...MEETING });
    expect(stranger.status).toBe(403);
  });
});
