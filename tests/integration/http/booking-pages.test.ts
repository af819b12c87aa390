import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { availabilitySlots, notifications } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { setClock } from '~/services/clock.server';
import { loginAs } from '../../support/api';
import { createAvailability, createGuide, createTraveler, createUser } from '~db/seed/factories';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** The booking pages as a browser without JavaScript uses them: GET pages, plain form posts, redirects. */
useTestDatabase();
const server = useTestServer();
afterEach(() => setClock(undefined));

const today = () => todayInTaipei();
const inDays = (n: number) => addDays(today(), n);
const post = (path: string, cookie: string | undefined, values: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
  return server.request(path, {
    method: 'POST',
    cookie,
    origin: server.baseUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
};

describe(`booking pages (${testDriver})`, () => {
  it('/guide-availability: month table, day form saves with JS off, others are sent away, unverified guides are locked', async () => {
    const guide = await createGuide();
    const { cookie } = await loginAs(guide);
    const page = await server.request('/guide-availability', { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<table class="calendar"');
    expect(page.text).toContain('<caption>');
    const day = inDays(2);
    const dayPage = await server.request(`/guide-availability?date=${day}`, { cookie });
    expect(dayPage.text).toContain(`name="date" value="${day}"`);
    const saved = await post(`/guide-availability?date=${day}`, cookie, { date: day, slots: ['morning', 'evening'] });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('已儲存並更新');
    const rows = await getDb().select().from(availabilitySlots).where(eq(availabilitySlots.guideId, guide.id));
    expect(rows.filter((r) => r.available).map((r) => r.timeSlot).sort()).toEqual(['evening', 'morning']);
    expect(rows.find((r) => r.timeSlot === 'morning')!.description).toBe('上午 導遊服務');
    const after = await server.request(`/guide-availability?date=${day}`, { cookie });
    expect(after.text).toMatch(/class="calendar-open"/);

    const late = await post('/guide-availability', cookie, { date: inDays(70), slots: 'morning' });
    expect(late.status).toBe(400);
    expect(late.text).toContain('日期必須在今天到 60 天之內');

    const traveler = await loginAs(await createTraveler());
    const away = await server.request('/guide-availability', { cookie: traveler.cookie });
    expect(away.status).toBe(302);
    expect(away.headers.get('location')).toBe('/');
    expect((await server.request('/guide-availability')).headers.get('location')).toMatch(/^\/login\?redirectTo=/);

    const unverified = await createGuide({ isIdVerified: false });
    const u = await loginAs(unverified);
    const locked = await server.request('/guide-availability', { cookie: u.cookie });
    expect(locked.text).toContain('href="/id-verification"');
    expect(locked.text).toContain('is-locked');
    const refused = await post('/guide-availability', u.cookie, { date: day, slots: 'morning' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('儲存失敗：請先完成身份認證');

    const admin = await loginAs(await createUser({ type: 'admin' }));
    const adminPage = await server.request(`/guide-availability?guideId=${unverified.id}`, { cookie: admin.cookie });
    expect(adminPage.status).toBe(200);
    expect(adminPage.text).not.toContain('is-locked');
  });

  it('/booking/:guideId: a visitor logs in and comes back with the choice kept; a traveler books; a conflict keeps the input', async () => {
    const guide = await createGuide({ price: 2600 });
    await createAvailability(guide.id, { from: today(), days: 3, price: 1500 });
    const form = await server.request(`/booking/${guide.id}`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('type="radio"');
    expect(form.text).toContain('NT$2,600');
    expect(form.text).toContain('href="/booking-terms"');
    const slot = `${inDays(1)}|afternoon`;
    const visitor = await post(`/booking/${guide.id}`, undefined, { slot, numberOfPeople: '4', note: '有小孩', termsAccepted: 'on' });
    expect(visitor.status).toBe(302);
    const location = new URL(visitor.headers.get('location')!, server.baseUrl);
    expect(location.pathname).toBe('/login');
    const back = location.searchParams.get('redirectTo')!;
    expect(back).toContain(`/booking/${guide.id}?`);
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);
    const kept = await server.request(back, { cookie });
    const radio = kept.text.match(/<input[^>]*type="radio"[^>]*>/g)!.find((r) => r.includes(`value="${slot}"`));
    expect(radio).toContain('checked');
    expect(kept.text).toContain('有小孩');

    const missing = await post(`/booking/${guide.id}`, cookie, { slot, numberOfPeople: '4' });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('請先同意預約條款');

    // No slot chosen: every radio says it is invalid, and the one error is said once, by the group.
    const noSlot = await post(`/booking/${guide.id}`, cookie, { numberOfPeople: '4', termsAccepted: 'on' });
    expect(noSlot.status).toBe(400);
    const radios = noSlot.text.match(/<input[^>]*type="radio"[^>]*>/g)!;
    expect(radios.length).toBeGreaterThan(0);
    for (const r of radios) expect(r).toContain('aria-invalid="true"');
    const errorId = /<fieldset class="field slot-picker" aria-describedby="([^"]+)"/.exec(noSlot.text)?.[1];
    expect(errorId).toBeTruthy();
    expect(noSlot.text.match(new RegExp(`id="${errorId}"`, 'g'))).toHaveLength(1);
    expect(noSlot.text.match(new RegExp(`<fieldset[^>]*aria-describedby="${errorId}"`, 'g'))).toHaveLength(1);

    const booked = await post(`/booking/${guide.id}`, cookie, { slot, numberOfPeople: '4', note: '有小孩', termsAccepted: 'on' });
    expect(booked.status).toBe(302);
    const success = booked.headers.get('location')!;
    expect(success).toMatch(/^\/booking-success\?order=\d+$/);
    const orderId = success.split('=')[1];
    const summary = await server.request(success, { cookie });
    expect(summary.status).toBe(200);
    expect(summary.text).toContain('NT$2,600');
    expect(summary.text).toContain(`/orders/${orderId}/calendar.ics`);
    const ics = await server.request(`/orders/${orderId}/calendar.ics`, { cookie });
    expect(ics.headers.get('content-type')).toMatch(/^text\/calendar/);
    expect(ics.text).toContain('BEGIN:VEVENT');
    expect(ics.text).toContain(`DTSTART:${inDays(1).replace(/-/g, '')}T050000Z`);
    const stranger = await loginAs(await createTraveler());
    expect((await server.request(`/orders/${orderId}/calendar.ics`, { cookie: stranger.cookie })).status).toBe(404);

    // Someone else tries the same slot: TIME_CONFLICT, their note kept, the slot no longer offered.
    const conflict = await post(`/booking/${guide.id}`, stranger.cookie, { slot, numberOfPeople: '2', note: '第二位', termsAccepted: 'on' });
    expect(conflict.status).toBe(409);
    expect(conflict.text).toContain('此時段已被其他旅客預訂，請選擇其他時段或聯絡導遊');
    expect(conflict.text).toContain('第二位');
    expect(conflict.text).not.toContain(`value="${slot}"`);

    const unverified = await loginAs(await createTraveler({ isEmailVerified: false }));
    const sent = await server.request(`/booking/${guide.id}`, { cookie: unverified.cookie });
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toMatch(/^\/email-verification\?redirectTo=/);
  });

  it('/booking/:guideId lists two weeks at a time, grouped by day, with later and earlier dates as plain links', async () => {
    const guide = await createGuide({ price: 2400 });
    await createAvailability(guide.id, { from: today(), days: 40, price: 1500 });
    const radios = (html: string) => [...html.matchAll(/<input[^>]*type="radio"[^>]*value="([^"]+)"/g)].map((m) => m[1]!);
    const first = await server.request(`/booking/${guide.id}`);
    expect(first.status).toBe(200);
    const shown = radios(first.text);
    expect(shown).toHaveLength(14 * 3);
    expect(shown[0]).toBe(`${today()}|morning`);
    expect(shown.at(-1)).toBe(`${inDays(13)}|evening`);
    // One fieldset per day, its legend the day; the days share one radio group (one name).
    expect((first.text.match(/<fieldset class="booking-day"/g) ?? []).length).toBe(14);
    const names = (first.text.match(/<input[^>]*type="radio"[^>]*>/g) ?? []).map((tag) => /name="([^"]+)"/.exec(tag)?.[1]);
    expect(new Set(names)).toEqual(new Set(['slot']));
    const later = /<a rel="next"[^>]*href="([^"]+)"/.exec(first.text)?.[1]?.replace(/&amp;/g, '&');
    expect(later).toBe(`/booking/${guide.id}?from=${inDays(14)}`);
    expect(first.text).not.toMatch(/<a rel="prev"/);

    const second = await server.request(later!);
    expect(radios(second.text)[0]).toBe(`${inDays(14)}|morning`);
    expect(second.text).toContain(`<a rel="prev" data-discover="true" href="/booking/${guide.id}?from=${today()}"`);
    const last = await server.request(`/booking/${guide.id}?from=${inDays(28)}`);
    expect(radios(last.text)).toHaveLength((40 - 28) * 3);
    expect(last.text).not.toMatch(/<a rel="next"/);

    // A choice further out (kept through login) opens the page that holds it, checked, with the other values kept.
    const far = await server.request(`/booking/${guide.id}?${new URLSearchParams({ slot: `${inDays(20)}|evening`, people: '5' })}`);
    const farRadio = far.text.match(/<input[^>]*type="radio"[^>]*>/g)!.find((r) => r.includes(`value="${inDays(20)}|evening"`));
    expect(farRadio).toContain('checked');
    expect(far.text).toMatch(/name="numberOfPeople"[^>]*value="5"|value="5"[^>]*name="numberOfPeople"/);
    expect(far.text).toMatch(/<a rel="next"[^>]*href="[^"]*\?slot=[^"]*people=5[^"]*from=/);
  });

  it('/orders and /orders/:id: lists, timeline and the buttons of the moment; /notifications forms', async () => {
    const guide = await createGuide({ locale: 'en' });
    await createAvailability(guide.id, { from: today(), days: 3, price: 1500 });
    const traveler = await createTraveler();
    const [g, t] = [await loginAs(guide), await loginAs(traveler)];
    const booked = await post(`/booking/${guide.id}`, t.cookie, { slot: `${inDays(1)}|morning`, numberOfPeople: '2', termsAccepted: 'on' });
    const orderId = booked.headers.get('location')!.split('=')[1]!;

    const list = await server.request('/orders', { cookie: g.cookie, headers: { 'accept-language': 'en' } });
    expect(list.text).toContain(`/orders/${orderId}`);
    const detail = await server.request(`/orders/${orderId}`, { cookie: g.cookie });
    expect(detail.text).toContain('name="intent" value="confirm"');
    expect(detail.text).toContain('name="intent" value="decline"');
    expect((await server.request(`/orders/${orderId}`, { cookie: t.cookie })).text).not.toContain('value="confirm"');
    const stranger = await loginAs(await createTraveler());
    expect((await server.request(`/orders/${orderId}`, { cookie: stranger.cookie })).status).toBe(403);
    expect((await post(`/orders/${orderId}`, t.cookie, { intent: 'confirm' })).status).toBe(403);

    const confirmed = await post(`/orders/${orderId}`, g.cookie, { intent: 'confirm' });
    expect(confirmed.status).toBe(302);
    setClock(new Date(`${inDays(1)}T02:00:00Z`));
    expect((await post(`/orders/${orderId}`, t.cookie, { intent: 'complete' })).status).toBe(302);
    expect((await post(`/orders/${orderId}`, g.cookie, { intent: 'complete' })).status).toBe(302);
    const done = await server.request(`/orders/${orderId}`, { cookie: t.cookie });
    expect(done.text).toContain('status-completed');
    expect((done.text.match(/<li><time/g) ?? []).length).toBe(4);

    // The traveler's notification center: confirmation and completion, then mark all read and delete one.
    const centre = await server.request('/notifications', { cookie: t.cookie });
    expect(centre.text).toContain('預約已確認');
    const [first] = await getDb().select().from(notifications).where(eq(notifications.userId, traveler.id));
    const read = await post('/notifications', t.cookie, { intent: 'read', id: String(first!.id), go: `/orders/${orderId}` });
    expect(read.headers.get('location')).toBe(`/orders/${orderId}`);
    expect((await post('/notifications', t.cookie, { intent: 'readAll' })).headers.get('location')).toBe('/notifications');
    expect((await post('/notifications', g.cookie, { intent: 'delete', id: String(first!.id) })).status).toBe(404);
    expect((await post('/notifications', t.cookie, { intent: 'delete', id: String(first!.id) })).status).toBe(302);
    const remaining = await getDb().select().from(notifications).where(eq(notifications.userId, traveler.id));
    expect(remaining.every((n) => n.readAt)).toBe(true);
    expect(remaining.find((n) => n.id === first!.id)).toBeUndefined();
  });
});
