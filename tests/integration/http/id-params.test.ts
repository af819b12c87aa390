import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInTaipei } from '~/lib/dates';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer, type TestResponse } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 21 A: an id that names no row (beyond int4, not a whole number, zero, negative) is 404, never 5xx, in a
 * URL segment, a query parameter or a form field, on the API (the envelope) and on pages (the 404 page).
 */
useTestDatabase();
const server = useTestServer();

const BAD_IDS = ['2147483648', '99999999999999999999', 'abc', '0', '1.5', '-1'];

type Who = 'anonymous' | 'traveler' | 'guide' | 'admin';
let credentials: Record<Exclude<Who, 'anonymous'>, { token: string; cookie: string }>;

beforeAll(async () => {
  credentials = {
    traveler: await loginAs(await createTraveler()),
    guide: await loginAs(await createGuide()),
    admin: await loginAs(await createUser({ type: 'admin' })),
  };
});

interface Case {
  name: string;
  who: Who;
  api: boolean;
  send: (id: string, auth: { token?: string; cookie?: string }) => Promise<TestResponse>;
}

const form = (values: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(values).toString(),
});
const day = () => addDays(todayInTaipei(), 3);

const cases: Case[] = [
  { name: 'GET /api/v1/guides/{id}/availability-slots', who: 'anonymous', api: true, send: (id) => server.request(`/api/v1/guides/${id}/availability-slots`) },
  {
    name: 'POST /api/v1/guides/{id}/availability-slots',
    who: 'admin',
    api: true,
    send: (id, { token }) => server.request(`/api/v1/guides/${id}/availability-slots`, { token, json: { slots: [{ date: day(), time_slot: 'morning' }] } }),
  },
  { name: 'PUT /api/v1/notifications/{id}/read', who: 'traveler', api: true, send: (id, { token }) => server.request(`/api/v1/notifications/${id}/read`, { method: 'PUT', token }) },
  { name: 'DELETE /api/v1/notifications/{id}', who: 'traveler', api: true, send: (id, { token }) => server.request(`/api/v1/notifications/${id}`, { method: 'DELETE', token }) },
  { name: 'GET /booking/:guideId', who: 'anonymous', api: false, send: (id) => server.request(`/booking/${id}`) },
  { name: 'GET /booking/:guideId (traveler)', who: 'traveler', api: false, send: (id, { cookie }) => server.request(`/booking/${id}`, { cookie }) },
  {
    name: 'POST /booking/:guideId',
    who: 'traveler',
    api: false,
    send: (id, { cookie }) => server.request(`/booking/${id}`, { cookie, ...form({ slot: `${day()}|morning`, numberOfPeople: '1', termsAccepted: 'on' }) }),
  },
  { name: 'GET /booking-success?order=', who: 'traveler', api: false, send: (id, { cookie }) => server.request(`/booking-success?order=${id}`, { cookie }) },
  { name: 'GET /guide-availability?guideId=', who: 'admin', api: false, send: (id, { cookie }) => server.request(`/guide-availability?guideId=${id}`, { cookie }) },
  { name: 'POST /notifications intent=read', who: 'traveler', api: false, send: (id, { cookie }) => server.request('/notifications', { cookie, ...form({ intent: 'read', id }) }) },
  { name: 'POST /notifications intent=delete', who: 'traveler', api: false, send: (id, { cookie }) => server.request('/notifications', { cookie, ...form({ intent: 'delete', id }) }) },
  { name: 'POST /admin/reviews intent=delete', who: 'admin', api: false, send: (id, { cookie }) => server.request('/admin/reviews', { cookie, ...form({ intent: 'delete', reviewId: id }) }) },
  { name: 'POST /admin/reviews intent=unhide', who: 'admin', api: false, send: (id, { cookie }) => server.request('/admin/reviews', { cookie, ...form({ intent: 'unhide', reviewId: id }) }) },
  {
    name: 'POST /admin/reviews intent=hide',
    who: 'admin',
    api: false,
    send: (id, { cookie }) => server.request('/admin/reviews', { cookie, ...form({ intent: 'hide', reviewId: id, hiddenReason: '廣告' }) }),
  },
  { name: 'GET /orders/:id', who: 'traveler', api: false, send: (id, { cookie }) => server.request(`/orders/${id}`, { cookie }) },
  { name: 'POST /orders/:id', who: 'traveler', api: false, send: (id, { cookie }) => server.request(`/orders/${id}`, { cookie, ...form({ intent: 'cancel' }) }) },
  {
    name: 'POST /orders/:id intent=review',
    who: 'traveler',
    api: false,
    send: (id, { cookie }) => server.request(`/orders/${id}`, { cookie, ...form({ intent: 'review', rating: '5', comment: '好' }) }),
  },
];

describe(`ids that name nothing are 404 (${testDriver})`, () => {
  it.each(cases)('$name', async ({ who, api, send }) => {
    const auth = who === 'anonymous' ? {} : credentials[who];
    const wrong: string[] = [];
    for (const id of BAD_IDS) {
      const response = await send(encodeURIComponent(id), auth);
      const notFound =
        response.status === 404 &&
        (api
          ? response.json?.success === false && /(^|_)NOT_FOUND$/.test(response.json.code)
          : /^text\/html/.test(response.headers.get('content-type') ?? '') && response.text.includes('404'));
      if (!notFound) wrong.push(`${id} → ${response.status} ${api ? (response.json?.code ?? '') : ''}`.trim());
    }
    expect(wrong, wrong.join(" | ")).toEqual([]);
  });
});
