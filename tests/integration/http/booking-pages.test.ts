import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { availabilitySlots, notifications, orders } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { setClock } from '~/services/platform/clock.server';
import { loginAs } from '../../support/api';
import { codeInText, outboxFor } from '../../support/mail';
import { createAvailability, createCompletedOrder, createGuide, createReview, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer } from '../../support/http-server';
import { payOrder, usePaymentsOn, usePaymentWorker, waitForPayment } from '../../support/payments';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** The booking pages as a browser without JavaScript uses them: GET pages, plain form posts, redirects. */
useTestDatabase();
const server = useTestServer();
// A confirmed order's card is captured by the payment lane of the outbox (issue 32), at this server's simulator.
usePaymentsOn(server);
usePaymentWorker();
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
    // A paid tour goes on to its payment step (issue 32); once paid, the booking's outcome page.
    const checkout = booked.headers.get('location')!;
    expect(checkout).toMatch(/^\/orders\/\d+\/pay$/);
    const orderId = checkout.split('/')[2]!;
    expect(await payOrder(traveler, Number(orderId))).toEqual({ status: 200, body: '1|OK' });
    const paid = await server.request(checkout, { cookie });
    expect(paid.status).toBe(302);
    const success = paid.headers.get('location')!;
    expect(success).toBe(`/booking-success?order=${orderId}`);
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
    expect(conflict.text).toContain('此時段已被其他旅客預約，請選擇其他時段或聯絡導遊');
    expect(conflict.text).toContain('第二位');
    expect(conflict.text).not.toContain(`value="${slot}"`);

    const unverified = await loginAs(await createTraveler({ isEmailVerified: false }));
    const sent = await server.request(`/booking/${guide.id}`, { cookie: unverified.cookie });
    expect(sent.status).toBe(302);
    expect(sent.headers.get('location')).toMatch(/^\/email-verification\?redirectTo=/);
  });

  it('/booking/:guideId: a summary first, a day picker of the open days, the chosen day\'s slots shown and the others hidden', async () => {
    const guide = await createGuide({ price: 2400, name: '林導遊' });
    await createAvailability(guide.id, { from: today(), days: 40, price: 1500 });
    // One earlier tour, reviewed with 4 stars: the summary shows the guide's rating.
    const earlier = await createTraveler();
    const past = await createCompletedOrder({ travelerId: earlier.id, guideId: guide.id, date: inDays(-10), timeSlot: 'morning' });
    await createReview({ orderId: past.id, reviewerId: earlier.id, revieweeId: guide.id, role: 'traveler', rating: 4 });
    // 05:00 in Taiwan: every slot of today still takes bookings (they close 3 hours before they begin).
    setClock(new Date(`${today()}T05:00:00+08:00`));
    const shownRadios = (html: string) =>
      [...html.matchAll(/<div class="booking-day-slots">([\s\S]*?)<\/fieldset><\/div>/g)].flatMap((m) =>
        [...m[1]!.matchAll(/<input[^>]*type="radio"[^>]*value="([^"]+)"/g)].map((r) => r[1]!),
      );
    const first = await server.request(`/booking/${guide.id}`);
    expect(first.status).toBe(200);
    // The summary comes before the form: guide, "choose a slot", people, total, the cancellation policy and terms.
    const summary = /<aside class="booking-summary[\s\S]*?<\/aside>/.exec(first.text)?.[0] ?? '';
    expect(first.text.indexOf('booking-summary')).toBeLessThan(first.text.indexOf('booking-form'));
    expect(summary).toContain('林導遊');
    // The guide's photo, verified badge and rating (issue 19: what a traveler checks before paying).
    expect(summary).toMatch(/<img [^>]*alt="林導遊的大頭照"/);
    expect(summary).toContain('class="verified-mark"');
    expect(summary).toContain('已認證');
    expect(summary).toContain('平均 4.0 分（1 則評價）');
    expect(summary).toContain('請選擇日期與時段');
    expect(summary).toContain('1 人');
    expect(summary).toContain('NT$2,400');
    expect(summary).toContain('72 小時以上取消可全額退款');
    expect(summary).toContain('預約後 24 小時內取消、且距離出發還有 48 小時以上者，全額退款');
    expect(summary).toContain('href="/booking-terms"');
    // One link per open day (no JS needed), today's slots shown, every other day's in the page but hidden.
    const dayLinks = [...first.text.matchAll(/<a[^>]*href="\/booking\/\d+\?day=(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]);
    expect(dayLinks).toHaveLength(40);
    expect(dayLinks[0]).toBe(today());
    expect(first.text).toMatch(new RegExp(`aria-current="date"[^>]*data-day="${today()}"|data-day="${today()}"[^>]*aria-current="date"`));
    expect(shownRadios(first.text)).toEqual(['morning', 'afternoon', 'evening'].map((s) => `${today()}|${s}`));
    expect(first.text).toContain('09:00–12:00');
    expect(first.text).not.toMatch(/rel="next"/);

    const day = await server.request(`/booking/${guide.id}?day=${inDays(14)}`);
    expect(shownRadios(day.text)[0]).toBe(`${inDays(14)}|morning`);

    // A choice further out (kept through login) opens its day, checked, in the summary with its hours.
    const far = await server.request(`/booking/${guide.id}?${new URLSearchParams({ slot: `${inDays(20)}|evening`, people: '5' })}`);
    expect(shownRadios(far.text)).toContain(`${inDays(20)}|evening`);
    const farRadio = far.text.match(/<input[^>]*type="radio"[^>]*>/g)!.find((r) => r.includes(`value="${inDays(20)}|evening"`));
    expect(farRadio).toContain('checked');
    expect(far.text).toMatch(/name="numberOfPeople"[^>]*value="5"|value="5"[^>]*name="numberOfPeople"/);
    const farSummary = /<aside class="booking-summary[\s\S]*?<\/aside>/.exec(far.text)?.[0] ?? '';
    expect(farSummary).toContain('18:00–21:00');
    expect(farSummary).toContain('5 人');
    // Day links keep the choice.
    expect(far.text).toMatch(/href="\/booking\/\d+\?slot=[^"]*people=5[^"]*day=/);
    // The same choice in the names the /guides filter uses (issue 19): `?date=…&timeSlot=…`.
    const named = await server.request(`/booking/${guide.id}?date=${inDays(20)}&timeSlot=evening`);
    expect(shownRadios(named.text)[0]).toBe(`${inDays(20)}|morning`);
    const checked = named.text.match(/<input[^>]*type="radio"[^>]*>/g)!.filter((r) => / checked/.test(r));
    expect(checked).toHaveLength(1);
    expect(checked[0]).toContain(`value="${inDays(20)}|evening"`);
  });

  it('/booking/:guideId: a refused form (JS off) opens at an error summary whose links lead to the fields, values kept', async () => {
    const guide = await createGuide({ price: 2000 });
    await createAvailability(guide.id, { from: today(), days: 5, price: 1500 });
    const { cookie } = await loginAs(await createTraveler());
    const form = await server.request(`/booking/${guide.id}`, { cookie });
    // The form's action ends with the summary's fragment, so the answer opens there.
    expect(form.text).toMatch(new RegExp(`<form[^>]*action="/booking/${guide.id}#booking-errors"`));
    expect(form.text).toMatch(/<div id="booking-errors"[^>]*hidden/);
    const slot = `${inDays(3)}|afternoon`;
    const refused = await post(`/booking/${guide.id}`, cookie, { slot, numberOfPeople: '99', note: '想看夜市' });
    expect(refused.status).toBe(400);
    const summary = /<div id="booking-errors"[\s\S]*?<\/ul>/.exec(refused.text)?.[0] ?? '';
    expect(summary).not.toMatch(/^<div id="booking-errors"[^>]*hidden/);
    expect(refused.text.indexOf('id="booking-errors"')).toBeLessThan(refused.text.indexOf('booking-summary'));
    const links = [...summary.matchAll(/<a href="#([^"]+)"/g)].map((m) => m[1]!);
    expect(links).toHaveLength(2);
    for (const id of links) expect(refused.text).toContain(`id="${id}"`);
    expect(summary).toContain('請先同意預約條款');
    // Typed values stay; the chosen slot's day is the one shown, its radio checked.
    expect(refused.text).toContain('想看夜市');
    expect(refused.text).toMatch(/name="numberOfPeople"[^>]*value="99"|value="99"[^>]*name="numberOfPeople"/);
    const radio = refused.text.match(/<input[^>]*type="radio"[^>]*>/g)!.find((r) => r.includes(`value="${slot}"`));
    expect(radio).toContain('checked');
    expect(refused.text).toMatch(new RegExp(`<a[^>]*aria-current="date"[^>]*data-day="${inDays(3)}"|<a[^>]*data-day="${inDays(3)}"[^>]*aria-current="date"`));

    // No slot: the summary's link leads to a radio of the day shown.
    const noSlot = await post(`/booking/${guide.id}`, cookie, { numberOfPeople: '2', termsAccepted: 'on' });
    const slotLink = /<div id="booking-errors"[\s\S]*?<a href="#([^"]+)"/.exec(noSlot.text)?.[1];
    expect(slotLink).toBeTruthy();
    expect(noSlot.text).toMatch(new RegExp(`<input[^>]*type="radio"[^>]*id="${slotLink!.replace(/[|]/g, '\\|')}"|<input[^>]*id="${slotLink!.replace(/[|]/g, '\\|')}"[^>]*type="radio"`));
  });

  it('/register and its code step carry a same-site redirectTo to /login-success; other targets are dropped', async () => {
    const back = `/booking/7?${new URLSearchParams({ slot: `${inDays(2)}|morning`, people: '3', note: '有小孩' })}`;
    const login = await server.request(`/login?${new URLSearchParams({ redirectTo: back })}`);
    const registerHref = /<a[^>]*href="(\/register\?[^"]+)"/.exec(login.text)?.[1]?.replace(/&amp;/g, '&');
    expect(new URL(registerHref!, server.baseUrl).searchParams.get('redirectTo')).toBe(back);
    const page = await server.request(registerHref!);
    expect(page.text).toMatch(/<input type="hidden" name="redirectTo" value="[^"]*booking\/7/);
    const email = `reg${Date.now()}@example.com`;
    const registered = await post(registerHref!, undefined, { type: 'traveler', name: '新旅客', email, password: 'secret-pass-123', redirectTo: back, agreeToTerms: 'on' });
    expect(registered.status).toBe(302);
    const verify = new URL(registered.headers.get('location')!, server.baseUrl);
    expect(verify.pathname).toBe('/register/verify');
    expect(verify.searchParams.get('redirectTo')).toBe(back);
    const codePage = await server.request(verify.pathname + verify.search);
    expect(codePage.text).toMatch(/<input type="hidden" name="redirectTo" value="[^"]*booking\/7/);
    const mails = await outboxFor(email);
    const code = codeInText(mails.at(-1)!.text);
    const done = await post(verify.pathname + verify.search, undefined, { email, code, intent: 'verify', redirectTo: back });
    expect(done.status).toBe(302);
    const success = new URL(done.headers.get('location')!, server.baseUrl);
    expect(success.pathname).toBe('/login-success');
    expect(success.searchParams.get('redirectTo')).toBe(back);

    const evil = await server.request(`/register?redirectTo=${encodeURIComponent('//evil.example/x')}`);
    expect(evil.text).not.toMatch(/register-form"[^>]*>\s*<input type="hidden" name="redirectTo"/);
    expect(page.text).toMatch(/register-form"[^>]*>\s*<input type="hidden" name="redirectTo"/);
    const evilPost = await post('/register', undefined, { type: 'traveler', name: '旅客乙', email: `x${email}`, password: 'secret-pass-123', redirectTo: 'https://evil.example', agreeToTerms: 'on' });
    expect(new URL(evilPost.headers.get('location')!, server.baseUrl).searchParams.has('redirectTo')).toBe(false);
  });

  it('/orders and /orders/:id: lists, timeline and the buttons of the moment; /notifications forms', async () => {
    const guide = await createGuide({ locale: 'en' });
    await createAvailability(guide.id, { from: today(), days: 3, price: 1500 });
    const traveler = await createTraveler();
    const [g, t] = [await loginAs(guide), await loginAs(traveler)];
    const booked = await post(`/booking/${guide.id}`, t.cookie, { slot: `${inDays(1)}|morning`, numberOfPeople: '2', termsAccepted: 'on' });
    const orderId = booked.headers.get('location')!.split('/')[2]!;
    // Not the guide's until it is paid (issue 32).
    expect((await server.request('/orders', { cookie: g.cookie, headers: { 'accept-language': 'en' } })).text).not.toContain(`/orders/${orderId}`);
    expect(await payOrder(traveler, Number(orderId))).toEqual({ status: 200, body: '1|OK' });

    const list = await server.request('/orders', { cookie: g.cookie, headers: { 'accept-language': 'en' } });
    expect(list.text).toContain(`/orders/${orderId}`);
    const detail = await server.request(`/orders/${orderId}`, { cookie: g.cookie });
    expect(detail.text).toContain('name="intent" value="confirm"');
    expect(detail.text).toContain('name="intent" value="decline"');
    expect((await server.request(`/orders/${orderId}`, { cookie: t.cookie })).text).not.toContain('value="confirm"');
    const stranger = await loginAs(await createTraveler());
    expect((await server.request(`/orders/${orderId}`, { cookie: stranger.cookie })).status).toBe(403);
    expect((await post(`/orders/${orderId}`, t.cookie, { intent: 'confirm' })).status).toBe(403);

    const confirmed = await post(`/orders/${orderId}`, g.cookie, { intent: 'confirm', meetingPoint: '台北車站東三門', guidePhone: '0912 345 678' });
    expect(confirmed.status).toBe(302);
    setClock(new Date(`${inDays(1)}T02:00:00Z`));
    // Before the tour day's marks, the actions box says when completion can be marked.
    expect((await server.request(`/orders/${orderId}`, { cookie: g.cookie })).text).not.toContain('行程當天起');
    expect((await post(`/orders/${orderId}`, g.cookie, { intent: 'complete' })).status).toBe(302);
    // Issue 19: once the guide has marked it, their actions box says so instead of "from the tour day both can mark".
    const marked = await server.request(`/orders/${orderId}`, { cookie: g.cookie, headers: { 'accept-language': 'zh-TW' } });
    expect(marked.text).toContain('你已標記行程完成，正在等待');
    expect(marked.text).not.toContain('行程當天起');
    expect((await post(`/orders/${orderId}`, t.cookie, { intent: 'complete' })).status).toBe(302);
    const done = await server.request(`/orders/${orderId}`, { cookie: t.cookie });
    expect(done.text).toContain('status-completed');
    // The order's own timeline (the payment card has its own, issue 32): booked, confirmed, two marks … completed.
    const orderTimeline = done.text.slice(done.text.indexOf('id="timeline-title"'));
    expect((orderTimeline.match(/<li><time/g) ?? []).length).toBe(4);

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
  it('/orders/:id asks before cancelling and says what comes back; a cancelled order offers no calendar or completion', async () => {
    const guide = await createGuide({ price: 3000 });
    const day = inDays(5);
    await createAvailability(guide.id, { from: day, days: 1, price: 1500 });
    const traveler = await createTraveler();
    const [g, t] = [await loginAs(guide), await loginAs(traveler)];
    const booked = await post(`/booking/${guide.id}`, t.cookie, { slot: `${day}|evening`, numberOfPeople: '2', termsAccepted: 'on' });
    const orderId = booked.headers.get('location')!.split('/')[2]!;
    expect(await payOrder(traveler, Number(orderId))).toEqual({ status: 200, body: '1|OK' });
    const statusOf = async () => (await getDb().select({ status: orders.status }).from(orders).where(eq(orders.id, Number(orderId))))[0]!.status;

    // Without JS the first press is the confirmation step: nothing changes yet.
    const asked = await post(`/orders/${orderId}`, t.cookie, { intent: 'cancel' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('data-testid="confirm-cancel"');
    expect(asked.text).toContain('確定要取消這筆預約嗎？');
    // Paid but not yet charged (issue 32): the card's authorisation is released in full.
    expect(asked.text).toContain('你的信用卡目前只有授權，不會扣款，NT$3,000 的授權會被取消。');
    expect(asked.text).toContain('name="confirmed" value="yes"');
    expect(await statusOf()).toBe('pending');

    // The guide accepts; 48 hours before the evening begins the traveler gets half back.
    expect((await post(`/orders/${orderId}`, g.cookie, { intent: 'confirm', meetingPoint: '台北車站東三門', guidePhone: '0912 345 678' })).status).toBe(302);
    // Once the card is charged (the capture, after the confirmation), cancelling returns money by the terms.
    await waitForPayment(Number(orderId), 'captured');
    setClock(new Date(new Date(`${day}T18:00:00+08:00`).getTime() - 48 * 3_600_000));
    const half = await post(`/orders/${orderId}`, t.cookie, { intent: 'cancel' });
    expect(half.text).toContain('可退一半：NT$3,000 中的 NT$1,500。');
    const guideAsked = await post(`/orders/${orderId}`, g.cookie, { intent: 'cancel' });
    expect(guideAsked.text).toContain('旅客可獲得全額退款：NT$3,000');
    // Had it been booked within the last 24 hours, the grace period would give it all back, and say why.
    const bookedAt = (await getDb().select({ createdAt: orders.createdAt }).from(orders).where(eq(orders.id, Number(orderId))))[0]!.createdAt;
    const fortyEightBefore = new Date(`${day}T18:00:00+08:00`).getTime() - 48 * 3_600_000;
    await getDb().update(orders).set({ createdAt: new Date(fortyEightBefore - 12 * 3_600_000) }).where(eq(orders.id, Number(orderId)));
    const graced = await post(`/orders/${orderId}`, t.cookie, { intent: 'cancel' });
    expect(graced.text).toContain('你在預約後 24 小時內取消，且距離出發還有 48 小時以上，依預約條款可獲得全額退款：NT$3,000。');
    await getDb().update(orders).set({ createdAt: bookedAt }).where(eq(orders.id, Number(orderId)));
    expect(await statusOf()).toBe('confirmed');
    const live = await server.request(`/orders/${orderId}`, { cookie: t.cookie });
    expect(live.text).toContain(`/orders/${orderId}/calendar.ics`);
    expect(live.text).toContain('雙方都標記行程完成後，就可以在這裡留下評價。'); // the review hint

    const cancelled = await post(`/orders/${orderId}`, t.cookie, { intent: 'cancel', confirmed: 'yes' });
    expect(cancelled.status).toBe(302);
    expect(await statusOf()).toBe('cancelled');
    const after = await server.request(`/orders/${orderId}`, { cookie: t.cookie });
    expect(after.text).not.toContain('calendar.ics');
    expect(after.text).not.toContain('行程當天起'); // the completion hint
    expect(after.text).not.toContain('完成確認'); // the completion flags
    expect(after.text).not.toContain('雙方都標記行程完成後'); // the review hint
  });
});
