import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInTaipei } from '~/lib/dates';
import * as me from '~/routes/me._index';
import { findUserById, type UserRow } from '~/services/users.server';
import { callRoute, loginAs } from '../support/api';
import {
  createAvailability,
  createCompletedOrder,
  createGuide,
  createOrder,
  createPhoto,
  createReview,
  createTraveler,
  createUser,
} from '../support/factories';
import { outboxFor } from '../support/mail';
import { testDriver, useTestDatabase } from '../support/test-database';

/** The /me route module itself (SPEC §2 Profile): who gets in, which tab shows, and the edit form's answers. */
useTestDatabase();

const ZH = { 'accept-language': 'zh-TW' };

function form(values: Record<string, string | string[]>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) for (const item of [v].flat()) fd.append(k, item);
  return fd;
}

function guideForm(guide: UserRow, overrides: Record<string, string | string[]> = {}) {
  return form({
    intent: 'save',
    name: guide.name,
    email: guide.email,
    bio: guide.bio ?? '',
    city: guide.city ?? '',
    language: guide.language,
    price: String(guide.price ?? ''),
    description: guide.description ?? '',
    ...overrides,
  });
}

const save = (cookie: string, body: FormData) =>
  callRoute(me.action, { method: 'POST', path: '/me?edit=1', cookie, body, headers: ZH });
const load = (cookie: string | undefined, path = '/me') => callRoute(me.loader, { path, cookie, headers: ZH });

describe(`/me loader (${testDriver})`, () => {
  let guide: UserRow;
  let traveler: UserRow;
  let admin: UserRow;

  beforeAll(async () => {
    guide = await createGuide({ name: '林導遊' });
    traveler = await createTraveler({ name: '陳旅客' });
    admin = await createUser({ type: 'admin', name: '管理員' });
    const today = todayInTaipei();
    const done = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, totalPrice: 2400, date: addDays(today, -2) });
    await createOrder({ travelerId: traveler.id, guideId: guide.id, totalPrice: 1800, status: 'confirmed' });
    await createReview({ orderId: done.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 4 });
    await createAvailability(guide.id, { from: today, days: 3, price: 1500, slots: ['morning', 'evening'] });
    await createAvailability(guide.id, { from: addDays(today, 61), days: 2, price: 1500 }); // beyond the 60-day window
    await createPhoto(guide.id, { status: 'approved' });
    await createPhoto(guide.id, { status: 'pending_review' });
    await createPhoto(guide.id, { status: 'pending_review' });
  });

  it('sends logged-out visitors to /login, coming back to /me afterwards', async () => {
    const res = await load(undefined);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?redirectTo=%2Fme');
  });

  it('gives a guide their profile, tabs data and the guide cards', async () => {
    const { cookie } = await loginAs(guide);
    const res = await load(cookie);
    expect(res.status).toBe(200);
    const page = res.json;
    expect(page.tab).toBe('profile');
    expect(page.editing).toBe(false);
    expect(page.user).toMatchObject({ id: guide.id, name: '林導遊', type: 'guide', city: 'taipei' });
    expect(page.user).not.toHaveProperty('passwordHash');
    expect(page.orders).toHaveLength(2);
    expect(page.orders[0]).toMatchObject({ status: 'confirmed', otherPartyName: '陳旅客' });
    expect(page.reviews.received).toHaveLength(1);
    expect(page.earnings).toEqual({ totalEarnings: 2400, completedOrders: 1, averagePerOrder: 2400, totalOrders: 2 });
    expect(page.stats).toMatchObject({ totalOrders: 2, completedOrders: 1, averageRating: 4, guideStats: { serviceHours: 8, isAvailable: true } });
    expect(page.idVerification).toMatchObject({ state: 'verified' });
    expect(page.availableSlots).toBe(6);
    expect(page.photos).toEqual({ approved: 1, pending: 2 });
  });

  it('picks the tab from ?tab=, falling back to the profile for unknown tabs and earnings of non-guides', async () => {
    const guideCookie = (await loginAs(guide)).cookie;
    const travelerCookie = (await loginAs(traveler)).cookie;
    expect((await load(guideCookie, '/me?tab=orders')).json.tab).toBe('orders');
    expect((await load(guideCookie, '/me?tab=reviews')).json.tab).toBe('reviews');
    expect((await load(guideCookie, '/me?tab=earnings')).json.tab).toBe('earnings');
    expect((await load(guideCookie, '/me?tab=nonsense')).json.tab).toBe('profile');
    expect((await load(travelerCookie, '/me?tab=earnings')).json.tab).toBe('profile');
    expect((await load(travelerCookie, '/me?tab=reviews')).json.tab).toBe('reviews');
    const editing = await load(travelerCookie, '/me?edit=1&tab=orders');
    expect(editing.json).toMatchObject({ editing: true, tab: 'profile' });
  });

  it('gives travelers no guide data, and admins no verification card', async () => {
    const t = (await load((await loginAs(traveler)).cookie)).json;
    expect(t).toMatchObject({ earnings: null, availableSlots: null, photos: null, idVerification: { state: 'not_verified' } });
    expect(t.stats.travelerStats).toEqual({ bookingCount: 2, favoriteGuides: 0, reviewCount: 1 });
    const a = (await load((await loginAs(admin)).cookie)).json;
    expect(a).toMatchObject({ idVerification: null, earnings: null, user: { type: 'admin' } });
  });
});

describe(`/me action (${testDriver})`, () => {
  it('saves the profile and redirects to /me with a toast', async () => {
    const traveler = await createTraveler({ name: '舊名字' });
    const { cookie } = await loginAs(traveler);
    const res = await save(cookie, form({ intent: 'save', name: '新名字', email: traveler.email, bio: '愛吃小吃' }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me');
    expect(res.headers.get('set-cookie')).toMatch(/^toast=/);
    const after = await findUserById(traveler.id);
    expect(after).toMatchObject({ name: '新名字', bio: '愛吃小吃', isEmailVerified: true });
  });

  it('answers a bad guide form with 400, the messages and every typed value, and saves nothing', async () => {
    const guide = await createGuide({ price: 2000, description: '原本的介紹' });
    const { cookie } = await loginAs(guide);
    const res = await save(cookie, guideForm(guide, { name: '打了新名字', price: '', description: '', bio: '新的簡介' }));
    expect(res.status).toBe(400);
    const result = res.json.result;
    expect(result.status).toBe('error');
    expect(result.error['']).toEqual(['validation.guideFieldsRequired']);
    expect(result.error.price).toEqual(['validation.priceRequired']);
    expect(result.error.description).toEqual(['validation.descriptionRequired']);
    expect(result.initialValue).toMatchObject({ name: '打了新名字', bio: '新的簡介', city: 'taipei', language: ['zh', 'en'] });
    const after = await findUserById(guide.id);
    expect(after).toMatchObject({ name: guide.name, price: 2000, description: '原本的介紹' });
  });

  it('refuses prices that are not above 0 with the positive-price message', async () => {
    const guide = await createGuide({ price: 2000 });
    const { cookie } = await loginAs(guide);
    for (const price of ['0', '-5', 'abc']) {
      const res = await save(cookie, guideForm(guide, { price }));
      expect(res.status, price).toBe(400);
      expect(res.json.result.error.price, price).toEqual(['validation.pricePositive']);
      expect(res.json.result.error[''], price).toBeUndefined();
      expect(res.json.result.initialValue.price, price).toBe(price);
    }
    expect((await findUserById(guide.id))!.price).toBe(2000);
  });

  it('puts a taken email on the email field (409) and keeps the values', async () => {
    const other = await createTraveler();
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);
    const res = await save(cookie, form({ intent: 'save', name: '想改名', email: other.email }));
    expect(res.status).toBe(409);
    expect(res.json.code).toBe('EMAIL_TAKEN');
    expect(res.json.result.error.email).toEqual(['errors.codes.EMAIL_TAKEN']);
    expect(res.json.result.initialValue).toMatchObject({ name: '想改名', email: other.email });
    expect((await findUserById(traveler.id))!.name).toBe(traveler.name);
  });

  it('keeps the verified address when the email changes: the new one waits for its code (issue 7)', async () => {
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);
    const email = `changed-${Date.now().toString(36)}@example.test`;
    const res = await save(cookie, form({ intent: 'save', name: traveler.name, email }));
    expect(res.status).toBe(302);
    expect((await findUserById(traveler.id))!).toMatchObject({ email: traveler.email, pendingEmail: email, isEmailVerified: true });
    expect(await outboxFor(email)).toHaveLength(1);
    expect(await outboxFor(traveler.email)).toHaveLength(0);
  });

  it('needs a login and a known intent', async () => {
    const anonymous = await callRoute(me.action, { method: 'POST', path: '/me?edit=1', body: form({ intent: 'save', name: 'x', email: 'x@example.test' }) });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
    const { cookie } = await loginAs(await createTraveler());
    expect((await save(cookie, form({ intent: 'delete-everything' }))).status).toBe(400);
  });
});
