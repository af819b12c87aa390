import { and, eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, favorites, orders, payments } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { verifyEmail } from '~/services/accounts/accounts.server';
import { sendVerificationCode } from '~/services/accounts/email-codes.server';
import { AppError } from '~/services/platform/errors.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { assertSelfOrAdmin } from '~/services/platform/access.server';
import { listUserOrders } from '~/services/booking/orders.server';
import { listUserReviews } from '~/services/booking/reviews.server';
import { recordAuthorisation, recordCapture, recordRefund } from '~/services/payments/ledger.server';
import { openPayment } from '~/services/payments/payments.server';
import { getEarnings, getUserStats } from '~/services/booking/user-stats.server';
import { findUserById, type UserRow } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import {
  createAvailability,
  createCompletedOrder,
  createGuide,
  createOrder,
  createReview,
  createTraveler,
  createUser,
} from '~server/seed/factories';
import { useTestServer, type TestResponse } from '../support/http-server';
import { codeInText, outboxFor } from '../support/mail';
import { inTx, payOut, settle } from '../support/money';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The per-user API and the profile service (SPEC §3 User and Stats, §5 profile save, §6, §7 Users):
 * who may read and change an account, the guide-field and price rules, email changes, and the figures of
 * the stats object and the earnings tab. The API over real HTTP (the Express app with the Remix handler), real SQL.
 */
useTestDatabase();
const server = useTestServer();

const ZH = { 'accept-language': 'zh-TW' };
let counter = 0;
const uniqueEmail = (prefix = 'profile') => `${prefix}${++counter}-${Date.now().toString(36)}@example.test`;

async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const reload = async (user: { id: number }) => (await findUserById(user.id))!;

/** A full, valid guide body for PUT. */
const guideBody = (guide: UserRow, overrides: Record<string, unknown> = {}) => ({
  name: guide.name,
  email: guide.email,
  bio: guide.bio ?? '',
  city: guide.city,
  language: guide.language,
  price: guide.price,
  description: guide.description,
  ...overrides,
});

function getUser(id: number | string, auth: { token?: string } = {}) {
  return server.request(`/api/v1/users/${id}`, { headers: ZH, ...auth });
}
function putUser(id: number | string, body: unknown, auth: { token?: string } = {}) {
  return server.request(`/api/v1/users/${id}`, { method: 'PUT', json: body, headers: ZH, ...auth });
}
function deleteUser(id: number | string, auth: { token?: string } = {}) {
  return server.request(`/api/v1/users/${id}`, { method: 'DELETE', headers: ZH, ...auth });
}
function getStats(id: number | string, auth: { token?: string } = {}) {
  return server.request(`/api/v1/users/${id}/stats`, { headers: ZH, ...auth });
}

/** An API answer as a client reads it: this status, a JSON body, and never stored by a cache (private data). */
function expectApi(res: TestResponse, status: number, label = '') {
  expect(res.status, `${label} ${res.text}`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.json?.success).toBe(status < 400);
}

describe(`GET /api/v1/users/:id (${testDriver})`, () => {
  let traveler: UserRow;
  let other: UserRow;
  let admin: UserRow;
  let archived: UserRow;

  beforeAll(async () => {
    traveler = await createTraveler({ name: '自己' });
    other = await createTraveler({ name: '別人' });
    admin = await createUser({ type: 'admin', name: '管理員' });
    archived = await createTraveler({ name: '封存', deletedAt: new Date() });
  });

  it('answers 401 UNAUTHORIZED to anonymous callers', async () => {
    const res = await getUser(traveler.id);
    expectApi(res, 401);
    expect(res.json).toMatchObject({ success: false, code: 'UNAUTHORIZED' });
  });

  it('gives a user their own account, without the password hash', async () => {
    const { token } = await loginAs(traveler);
    const res = await getUser(traveler.id, { token });
    expectApi(res, 200);
    expect(res.json.success).toBe(true);
    expect(res.json.data.user).toMatchObject({ id: traveler.id, name: '自己', email: traveler.email, type: 'traveler' });
    expect(JSON.stringify(res.json)).not.toMatch(/passwordHash|password_hash/);
  });

  it('refuses another user with 403 FORBIDDEN, also for ids that do not exist', async () => {
    const { token } = await loginAs(traveler);
    const res = await getUser(other.id, { token });
    expectApi(res, 403);
    expect(res.json).toMatchObject({ success: false, code: 'FORBIDDEN', message: '您沒有權限執行此操作' });
    expect(JSON.stringify(res.json)).not.toContain(other.email);
    expectApi(await getUser(999_999, { token }), 403);
  });

  it('lets an admin read anyone, archived accounts included', async () => {
    const { token } = await loginAs(admin);
    const res = await getUser(other.id, { token });
    expectApi(res, 200);
    expect(res.json.data.user).toMatchObject({ id: other.id, email: other.email });
    const gone = await getUser(archived.id, { token });
    expectApi(gone, 200);
    expect(gone.json.data.user).toMatchObject({ id: archived.id, isArchived: true });
  });

  it('answers 404 USER_NOT_FOUND for unknown and malformed ids', async () => {
    const { token } = await loginAs(admin);
    for (const id of ['999999', '0', '-3', 'abc', '1.5', '99999999999999999999']) {
      const res = await getUser(id, { token });
      expectApi(res, 404, id);
      expect(res.json.code, id).toBe('USER_NOT_FOUND');
    }
  });

  it('treats archived accounts as not found for everyone but admins, and as read-only for admins', async () => {
    expect((await appError(assertSelfOrAdmin(archived, archived.id))).code).toBe('USER_NOT_FOUND');
    expect((await assertSelfOrAdmin(admin, archived.id)).id).toBe(archived.id);
    expect((await appError(assertSelfOrAdmin(admin, archived.id, { write: true }))).code).toBe('USER_NOT_FOUND');
    // The same over HTTP: the admin reads the archived account (above) but cannot change it.
    const { token } = await loginAs(admin);
    const put = await putUser(archived.id, { name: '改名', email: archived.email }, { token });
    expectApi(put, 404);
    expect(put.json.code).toBe('USER_NOT_FOUND');
    expect((await reload(archived)).name).toBe('封存');
  });
});

describe(`PUT /api/v1/users/:id (${testDriver})`, () => {
  beforeEach(() => resetRateLimits());

  it('refuses anonymous (401) and other users (403) and changes nothing', async () => {
    const victim = await createTraveler({ name: '原本的名字', bio: '原本的簡介' });
    const attacker = await createTraveler();
    const body = { name: '被改掉', email: victim.email, bio: 'pwned' };
    expectApi(await putUser(victim.id, body), 401);
    const { token } = await loginAs(attacker);
    const res = await putUser(victim.id, body, { token });
    expectApi(res, 403);
    expect(res.json.code).toBe('FORBIDDEN');
    const after = await reload(victim);
    expect(after.name).toBe('原本的名字');
    expect(after.bio).toBe('原本的簡介');
  });

  it('saves a traveler’s own name and bio (an empty bio clears it)', async () => {
    const me = await createTraveler({ bio: '舊簡介' });
    const { token } = await loginAs(me);
    const res = await putUser(me.id, { name: '  新名字  ', email: me.email, bio: '喜歡爬山' }, { token });
    expectApi(res, 200);
    expect(res.json.data.user).toMatchObject({ id: me.id, name: '新名字', bio: '喜歡爬山' });
    expect((await reload(me)).bio).toBe('喜歡爬山');
    const cleared = await putUser(me.id, { name: '新名字', email: me.email, bio: '' }, { token });
    expectApi(cleared, 200);
    expect((await reload(me)).bio).toBeNull();
  });

  it('requires name and email, and keeps the bio to 500 characters', async () => {
    const me = await createTraveler();
    const { token } = await loginAs(me);
    const res = await putUser(me.id, { name: '', email: '', bio: 'x'.repeat(501) }, { token });
    expectApi(res, 400);
    expect(res.json.code).toBe('VALIDATION_ERROR');
    expect(res.json.errors.name).toEqual(['請輸入姓名']);
    expect(res.json.errors.email).toEqual(['電子郵件地址不能為空']);
    expect(res.json.errors.bio).toBeDefined();
    expect((await reload(me)).name).toBe(me.name);
  });

  it('lets an admin edit another user, and records who did it', async () => {
    const admin = await createUser({ type: 'admin' });
    const guide = await createGuide();
    const { token } = await loginAs(admin);
    const res = await putUser(guide.id, guideBody(guide, { price: 3200, description: '管理員修正的介紹' }), { token });
    expectApi(res, 200);
    expect(res.json.data.user).toMatchObject({ id: guide.id, price: 3200, description: '管理員修正的介紹' });
    const [log] = await getDb()
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'user.profile_update'), eq(auditLogs.targetId, String(guide.id))));
    expect(log).toMatchObject({ actorId: admin.id, targetType: 'user' });
    expect((log!.details as { fields: string[] }).fields.sort()).toEqual(['description', 'price']);
  });

  it('saves every guide field', async () => {
    const guide = await createGuide();
    const { token } = await loginAs(guide);
    const res = await putUser(
      guide.id,
      guideBody(guide, { city: 'tainan', language: ['ja', 'nan', 'ja'], price: '2800', description: '府城美食' }),
      { token },
    );
    expectApi(res, 200);
    const after = await reload(guide);
    expect(after).toMatchObject({ city: 'tainan', language: ['ja', 'nan'], price: 2800, description: '府城美食' });
  });

  it('gives a guide who empties a required field the required message and leaves the account as it was', async () => {
    const guide = await createGuide({ description: '原本的介紹' });
    const { token } = await loginAs(guide);
    // An absent field keeps its value (issue 20); a field sent as null asks to empty it, which a guide may not.
    for (const missing of ['city', 'language', 'price', 'description'] as const) {
      const body = guideBody(guide, { name: '不該存下來' });
      (body as Record<string, unknown>)[missing] = null;
      const res = await putUser(guide.id, body, { token });
      expectApi(res, 400, missing);
      expect(res.json.code).toBe('VALIDATION_ERROR');
      expect(res.json.errors._form, missing).toEqual(['所有欄位都必須填寫']);
      expect(res.json.errors[missing], missing).toHaveLength(1);
    }
    // Empty values count as missing too.
    const empty = await putUser(guide.id, guideBody(guide, { city: '', language: [], price: '', description: '  ' }), { token });
    expectApi(empty, 400);
    expect(empty.json.errors._form).toEqual(['所有欄位都必須填寫']);
    expect(Object.keys(empty.json.errors).sort()).toEqual(['_form', 'city', 'description', 'language', 'price']);
    const after = await reload(guide);
    expect(after.name).toBe(guide.name);
    expect(after.description).toBe('原本的介紹');
    expect(after.updatedAt.getTime()).toBe(guide.updatedAt.getTime());
  });

  it('refuses a price that is not a number above 0 with the positive-price message', async () => {
    const guide = await createGuide({ price: 2000 });
    const { token } = await loginAs(guide);
    for (const price of [0, -5, 'abc', '-5', 2.5, '0']) {
      const res = await putUser(guide.id, guideBody(guide, { price }), { token });
      expectApi(res, 400, String(price));
      expect(res.json.errors.price, String(price)).toEqual(['價格必須為正數']);
      expect(res.json.errors._form, String(price)).toBeUndefined();
    }
    expect((await reload(guide)).price).toBe(2000);
  });

  it('answers 409 EMAIL_TAKEN on the email field when the new address belongs to someone else', async () => {
    const taken = await createTraveler({ email: uniqueEmail('taken') });
    const me = await createTraveler();
    const { token } = await loginAs(me);
    const res = await putUser(me.id, { name: me.name, email: taken.email.toUpperCase() }, { token });
    expectApi(res, 409);
    expect(res.json).toMatchObject({ success: false, code: 'EMAIL_TAKEN', errors: { email: ['此電子郵件已被註冊'] } });
    const after = await reload(me);
    expect(after.email).toBe(me.email);
    expect(after.isEmailVerified).toBe(true);
  });

  it('keeps the verification when the address only changes case, and saves it normalised', async () => {
    const me = await createTraveler({ email: uniqueEmail('case') });
    const { token } = await loginAs(me);
    const res = await putUser(me.id, { name: me.name, email: `  ${me.email.toUpperCase()} ` }, { token });
    expectApi(res, 200);
    const after = await reload(me);
    expect(after.email).toBe(me.email);
    expect(after.isEmailVerified).toBe(true);
    expect(await outboxFor(me.email)).toHaveLength(0);
  });

  it('keeps the verified address on an email change: the new one is pending until its code is confirmed (issue 7)', async () => {
    const oldEmail = uniqueEmail('old');
    const me = await createTraveler({ email: oldEmail, isEmailVerified: false, emailVerifiedAt: null });
    // A verification code is on its way to the old address (e.g. from registration).
    await sendVerificationCode(me);
    const oldCode = codeInText((await outboxFor(oldEmail)).at(-1)!.text);

    const verified = await createTraveler({ email: uniqueEmail('verified') });
    const { token } = await loginAs(verified);
    const newEmail = uniqueEmail('new');
    const res = await putUser(verified.id, { name: verified.name, email: newEmail }, { token });
    expectApi(res, 200);
    expect(res.json.data.user).toMatchObject({ email: verified.email, pendingEmail: newEmail, isEmailVerified: true });
    const after = await reload(verified);
    expect(after).toMatchObject({ email: verified.email, pendingEmail: newEmail, isEmailVerified: true });
    const mails = await outboxFor(newEmail);
    expect(mails).toHaveLength(1);
    expect(await outboxFor(verified.email)).toHaveLength(0);
    // The code mailed to the new address confirms it (POST /api/v1/users/{id}/email/confirm).
    const confirmed = await server.request(`/api/v1/users/${verified.id}/email/confirm`, {
      json: { code: codeInText(mails[0]!.text) },
      headers: ZH,
      token,
    });
    expectApi(confirmed, 200);
    expect(await reload(verified)).toMatchObject({ email: newEmail, pendingEmail: null, isEmailVerified: true });

    // An unverified account asks for a new address: the verification code of the old one cannot confirm it,
    // and it leaves the old address's verification alone.
    const me2 = await loginAs(me);
    const newer = uniqueEmail('newer');
    expectApi(await putUser(me.id, { name: me.name, email: newer }, { token: me2.token }), 200);
    const refused = await server.request(`/api/v1/users/${me.id}/email/confirm`, { json: { code: oldCode }, headers: ZH, token: me2.token });
    expectApi(refused, 400);
    expect(refused.json.code).toBe('INVALID_CODE');
    expect(await reload(me)).toMatchObject({ email: oldEmail, pendingEmail: newer, isEmailVerified: false });
    await verifyEmail({ email: oldEmail, code: oldCode }, undefined, { ip: '198.51.100.22' });
    expect(await reload(me)).toMatchObject({ email: oldEmail, pendingEmail: newer, isEmailVerified: true });
  });
});

describe(`DELETE /api/v1/users/:id (${testDriver})`, () => {
  it('is for admins only', async () => {
    const target = await createTraveler();
    expectApi(await deleteUser(target.id), 401);
    const { token } = await loginAs(await createTraveler());
    const res = await deleteUser(target.id, { token });
    expectApi(res, 403);
    expect(res.json.code).toBe('FORBIDDEN');
    expect((await reload(target)).deletedAt).toBeNull();
  });

  it('archives the account for an admin', async () => {
    const target = await createTraveler();
    const { token } = await loginAs(await createUser({ type: 'admin' }));
    const res = await deleteUser(target.id, { token });
    expectApi(res, 200);
    expect(res.json.data.user).toMatchObject({ id: target.id, isArchived: true });
    expect((await reload(target)).deletedAt).not.toBeNull();
  });
});

describe(`stats, orders, reviews and earnings (${testDriver})`, () => {
  const today = todayInTaipei();
  const monthStart = `${today.slice(0, 7)}-01`;
  const lastMonth = addDays(monthStart, -3);
  let guide: UserRow;
  let t1: UserRow;
  let t2: UserRow;
  const orderIds: Record<string, number> = {};

  beforeAll(async () => {
    guide = await createGuide({ name: '王導遊' });
    t1 = await createTraveler({ name: '旅客甲' });
    t2 = await createTraveler({ name: '旅客乙' });
    const o = async (key: string, values: Parameters<typeof createOrder>[0]) => {
      const row = values.status === 'completed' ? await createCompletedOrder(values) : await createOrder(values);
      orderIds[key] = row.id;
      return row;
    };
    const at = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    // t1 with the guide: completed this month and last month, confirmed this month, cancelled, pending,
    // and a completed but deleted order (never counted).
    await o('c3000', { travelerId: t1.id, guideId: guide.id, status: 'completed', totalPrice: 3000, date: today, createdAt: at(60) });
    await o('c2500', { travelerId: t1.id, guideId: guide.id, status: 'completed', totalPrice: 2500, date: lastMonth, createdAt: at(50) });
    await o('conf1800', { travelerId: t1.id, guideId: guide.id, status: 'confirmed', totalPrice: 1800, date: today, timeSlot: 'afternoon', createdAt: at(40) });
    await o('canc999', { travelerId: t1.id, guideId: guide.id, status: 'cancelled', totalPrice: 999, date: today, createdAt: at(30) });
    await o('pend500', { travelerId: t1.id, guideId: guide.id, status: 'pending', totalPrice: 500, date: addDays(today, 20), timeSlot: 'evening', createdAt: at(20) });
    await o('deleted', { travelerId: t1.id, guideId: guide.id, status: 'completed', totalPrice: 10_000, date: today, deletedAt: new Date(), createdAt: at(10) });
    // t2 with the guide.
    // Afternoon: a completed order keeps its slot, so c2500 holds last month's morning.
    await o('c1001', { travelerId: t2.id, guideId: guide.id, status: 'completed', totalPrice: 1001, date: lastMonth, timeSlot: 'afternoon', createdAt: at(5) });

    // The money, through the ledger as the payment lane moves it (10 % commission): the three completed orders
    // settled, NT$500 of c3000 refunded after settling, the confirmed one captured and held; then a payout, which
    // moves the guide's money on and changes nothing they earned.
    const paid = async (key: string) => {
      const orderId = orderIds[key]!;
      const amount = Number(key.replace(/^\D+/, ''));
      await inTx((tx) => recordAuthorisation(tx, { orderId, amount, idempotencyKey: `order:${orderId}:authorise` }));
      await inTx((tx) => recordCapture(tx, { orderId, idempotencyKey: `order:${orderId}:capture` }));
      return { id: orderId, guideId: guide.id, commissionPercent: 10 };
    };
    for (const key of ['c3000', 'c2500', 'c1001'] as const) await settle(await paid(key));
    await inTx((tx) => recordRefund(tx, { orderId: orderIds.c3000!, guideId: guide.id, amount: 500, idempotencyKey: `refund:${orderIds.c3000}:test` }));
    await paid('conf1800');
    await payOut(guide.id);

    await createReview({ orderId: orderIds.c3000!, reviewerId: t1.id, revieweeId: guide.id, role: 'traveler', rating: 5, comment: '非常棒' });
    await createReview({ orderId: orderIds.c2500!, reviewerId: t1.id, revieweeId: guide.id, role: 'traveler', rating: 4 });
    await createReview({
      orderId: orderIds.c1001!,
      reviewerId: t2.id,
      revieweeId: guide.id,
      role: 'traveler',
      rating: 1,
      isHidden: true,
      hiddenReason: '不當內容',
    });
    await createReview({ orderId: orderIds.c3000!, reviewerId: guide.id, revieweeId: t1.id, role: 'guide', rating: 3, comment: '準時' });

    await getDb().insert(favorites).values([
      { userId: t1.id, targetType: 'guide', targetId: guide.id },
      { userId: t2.id, targetType: 'guide', targetId: guide.id },
    ]);
    await createAvailability(guide.id, { from: addDays(today, 1), days: 2, price: 1500, slots: ['morning'] });
  });

  it('counts a guide’s figures (SPEC §3 Stats)', async () => {
    expect(await getUserStats(guide.id)).toEqual({
      totalOrders: 6,
      completedOrders: 3,
      averageRating: 4.5, // 5 and 4; the hidden 1 does not count
      totalEarnings: 5401, // net of 10 %: 2700 − 450 (the refund's guide part) + 2250 + 901; not the list prices
      totalFavorites: 2, // travelers who keep the guide
      totalReviews: 2,
      totalSpent: 0,
      currentMonthSpent: 0,
      travelerStats: { bookingCount: 0, favoriteGuides: 0, reviewCount: 1 },
      guideStats: { serviceHours: 10, averageRating: 4.5, isAvailable: true }, // two mornings of 3 h and an afternoon of 4 h
    });
  });

  it('counts a traveler’s figures (spending counts completed and confirmed orders)', async () => {
    expect(await getUserStats(t1.id)).toEqual({
      totalOrders: 5,
      completedOrders: 2,
      averageRating: 3,
      totalEarnings: 0,
      totalFavorites: 1,
      totalReviews: 1,
      totalSpent: 7300, // 3000 + 2500 + 1800
      currentMonthSpent: 4800, // 3000 + 1800, toured this Taipei month
      travelerStats: { bookingCount: 5, favoriteGuides: 1, reviewCount: 2 },
      guideStats: { serviceHours: 0, averageRating: 3, isAvailable: false },
    });
  });

  it('shows the same total on the earnings tab, with the average per completed order (SPEC §2)', async () => {
    const tab = await getEarnings(guide.id);
    expect(tab.summary).toEqual({ total: 5401, completedOrders: 3, averagePerOrder: 1800, totalOrders: 6 });
    // Per order, the tab's lines add up to it.
    const settled = tab.earnings.lines.filter((l) => l.state !== 'held');
    expect(settled.reduce((sum, l) => sum + l.net, 0)).toBe(5401);
  });

  it('counts an order for its guide only once it was paid (an unpaid booking has not reached them)', async () => {
    const before = await getUserStats(guide.id);
    const unpaid = await createOrder({ travelerId: t2.id, guideId: guide.id, status: 'pending', totalPrice: 700, date: addDays(today, 25), timeSlot: 'evening' });
    await openPayment(getDb(), { orderId: unpaid.id, amount: 700, provider: 'simulator' });
    expect((await getUserStats(guide.id)).totalOrders).toBe(before.totalOrders);
    expect((await getUserStats(t2.id)).travelerStats.bookingCount).toBe(2);
    await getDb().delete(payments).where(eq(payments.orderId, unpaid.id));
    await getDb().delete(orders).where(eq(orders.id, unpaid.id));
  });

  it('says a guide is not available when every open slot is in the past or closed', async () => {
    const idle = await createGuide();
    await createAvailability(idle.id, { from: addDays(today, -5), days: 5, price: 1500 }); // up to yesterday
    await createAvailability(idle.id, { from: addDays(today, 3), days: 1, price: 1500, isAvailable: () => false });
    expect((await getUserStats(idle.id)).guideStats.isAvailable).toBe(false);
  });

  it('serves the stats to the user and admins only', async () => {
    const own = await getStats(t1.id, { token: (await loginAs(t1)).token });
    expectApi(own, 200);
    expect(own.json.data).toMatchObject({ totalSpent: 7300, travelerStats: { bookingCount: 5 } });
    const other = await getStats(guide.id, { token: (await loginAs(t1)).token });
    expectApi(other, 403);
    expect(other.json.code).toBe('FORBIDDEN');
    expect(other.text).not.toContain('5401');
    const anonymous = await getStats(guide.id);
    expectApi(anonymous, 401);
    expect(anonymous.json.code).toBe('UNAUTHORIZED');
    const admin = await createUser({ type: 'admin' });
    const byAdmin = await getStats(guide.id, { token: (await loginAs(admin)).token });
    expectApi(byAdmin, 200);
    expect(byAdmin.json.data.totalEarnings).toBe(5401);
    const bad = await getStats('x', { token: (await loginAs(admin)).token });
    expectApi(bad, 404);
    expect(bad.json.code).toBe('USER_NOT_FOUND');
  });

  it('answers 405 with Allow to a method the stats route does not have, and HEAD like GET without a body', async () => {
    const { token } = await loginAs(t1);
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const res = await server.request(`/api/v1/users/${t1.id}/stats`, { method, json: {}, token });
      expectApi(res, 405, method);
      expect(res.json.code).toBe('METHOD_NOT_ALLOWED');
      expect(res.headers.get('allow')).toBe('GET, HEAD');
    }
    const head = await server.request(`/api/v1/users/${t1.id}/stats`, { method: 'HEAD', token });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-store');
    expect(head.text).toBe('');
  });

  it('lists the user’s orders newest first with the other party, leaving out deleted ones', async () => {
    const forT1 = await listUserOrders(t1.id);
    expect(forT1.map((o) => o.id)).toEqual(
      ['pend500', 'canc999', 'conf1800', 'c2500', 'c3000'].map((k) => orderIds[k]),
    );
    expect(forT1[0]).toMatchObject({ status: 'pending', role: 'traveler', otherPartyId: guide.id, otherPartyName: '王導遊' });
    const forGuide = await listUserOrders(guide.id, 'guide');
    expect(forGuide).toHaveLength(6);
    expect(forGuide[0]).toMatchObject({ id: orderIds.c1001, role: 'guide', otherPartyName: '旅客乙', status: 'completed' });
    expect(await listUserOrders(t2.id, 'guide')).toEqual([]);
  });

  it('lists received reviews without hidden ones, and given reviews', async () => {
    const forGuide = await listUserReviews(guide.id);
    expect(forGuide.received.map((r) => r.rating).sort()).toEqual([4, 5]);
    expect(forGuide.received.every((r) => r.revieweeName === '王導遊' && r.reviewerName === '旅客甲')).toBe(true);
    expect(forGuide.given).toEqual([
      expect.objectContaining({ reviewerName: '王導遊', revieweeName: '旅客甲', rating: 3, comment: '準時', role: 'guide' }),
    ]);
    const forT2 = await listUserReviews(t2.id);
    expect(forT2.received).toEqual([]);
    // The writer still sees their own hidden review, marked as hidden.
    expect(forT2.given).toEqual([expect.objectContaining({ rating: 1, isHidden: true })]);
    expect(typeof forT2.given[0]!.createdAt).toBe('string');
  });
});
