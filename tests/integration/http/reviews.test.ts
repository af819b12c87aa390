import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, notifications, reviews, users } from '~db/schema';
import { attachRealtime } from '~/http/realtime.server';
import { addDays, todayInTaipei } from '~/lib/dates';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { createCompletedOrder, createGuide, createOrder, createReview, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer } from '../../support/http-server';
import { outboxFor } from '../../support/mail';
import { expectContract } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** Reviews both ways over real HTTP (issue 10, SPEC §5 Review): every rule, visibility, moderation and the guide's rating. */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

async function completedPair(options: { guideLocale?: 'zh-TW' | 'en' | 'ja'; travelerLocale?: 'zh-TW' | 'en' | 'ja' } = {}) {
  const guide = await createGuide({ locale: options.guideLocale ?? 'zh-TW' });
  const traveler = await createTraveler({ locale: options.travelerLocale ?? 'zh-TW' });
  const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, date: todayInTaipei() });
  return { guide, traveler, order, g: await loginAs(guide), t: await loginAs(traveler) };
}

const postReview = (orderId: number, token: string, json: Record<string, unknown>) =>
  server.request(`/api/v1/orders/${orderId}/reviews`, { token, json });

async function storedRating(guideId: number) {
  const [row] = await getDb().select({ average: users.ratingAverage, count: users.ratingCount }).from(users).where(eq(users.id, guideId));
  return row!;
}

describe(`reviews over HTTP (${testDriver})`, () => {
  it('both sides review a completed order; the reviewee is computed, told in their language, and the guide’s rating follows', async () => {
    const { guide, traveler, order, g, t } = await completedPair({ guideLocale: 'en', travelerLocale: 'ja' });
    const byTraveler = await postReview(order.id, t.token, { rating: 4, comment: '  很棒的導覽  ', revieweeId: guide.id, userId: traveler.id });
    expect(byTraveler.status).toBe(201);
    expect(byTraveler.headers.get('content-type')).toMatch(/^application\/json/);
    await expectContract(server, 'POST', '/api/v1/orders/{id}/reviews', byTraveler);
    expect(byTraveler.json.data.review).toMatchObject({
      orderId: order.id,
      reviewerId: traveler.id,
      revieweeId: guide.id,
      role: 'traveler',
      rating: 4,
      comment: '很棒的導覽',
      isHidden: false,
      reviewerName: traveler.name,
      revieweeName: guide.name,
    });
    expect(await storedRating(guide.id)).toEqual({ average: 4, count: 1 });

    const [guideNotice] = await getDb().select().from(notifications).where(eq(notifications.userId, guide.id));
    expect(guideNotice).toMatchObject({ type: 'order.reviewed', link: `/orders/${order.id}` });
    expect(guideNotice!.title).toBe(`${traveler.name} reviewed you #${order.id}`);
    expect(guideNotice!.body).toContain('4 out of 5 stars');
    expect((await outboxFor(guide.email)).at(-1)!.subject).toBe(`Travel Assistant: ${traveler.name} reviewed you #${order.id}`);

    const byGuide = await postReview(order.id, g.token, { rating: '5' });
    expect(byGuide.status).toBe(201);
    expect(byGuide.json.data.review).toMatchObject({ reviewerId: guide.id, revieweeId: traveler.id, role: 'guide', rating: 5, comment: null });
    // A guide's review of a traveler is not part of any guide's rating.
    expect(await storedRating(guide.id)).toEqual({ average: 4, count: 1 });
    const [travelerNotice] = await getDb().select().from(notifications).where(eq(notifications.userId, traveler.id));
    expect(travelerNotice!.title).toContain('レビュー');

    const listed = await server.request(`/api/v1/orders/${order.id}/reviews`, { token: t.token });
    expect(listed.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/orders/{id}/reviews', listed);
    expect(listed.json.data.reviews.map((r: any) => r.role)).toEqual(['traveler', 'guide']);
  });

  it('refuses before both flags are set (409), then accepts once both sides marked completion through the API', async () => {
    const guide = await createGuide();
    const traveler = await createTraveler();
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, status: 'confirmed', date: todayInTaipei() });
    const [g, t] = [await loginAs(guide), await loginAs(traveler)];
    const early = await postReview(order.id, t.token, { rating: 5 });
    expect(early.status).toBe(409);
    expect(early.json.code).toBe('ORDER_NOT_COMPLETED');
    await expectContract(server, 'POST', '/api/v1/orders/{id}/reviews', early);
    expect((await server.request(`/api/v1/orders/${order.id}`, { method: 'PUT', token: t.token, json: { travelerCompleted: true } })).status).toBe(200);
    expect((await postReview(order.id, g.token, { rating: 5 })).json.code).toBe('ORDER_NOT_COMPLETED');
    expect((await server.request(`/api/v1/orders/${order.id}`, { method: 'PUT', token: g.token, json: { guideCompleted: true } })).json.data.order.status).toBe('completed');
    expect((await postReview(order.id, t.token, { rating: 5 })).status).toBe(201);
  });

  it('one review per reviewer per order: the second is 409 ALREADY_REVIEWED, also when sent at once', async () => {
    const { order, t, g } = await completedPair();
    const both = await Promise.all([postReview(order.id, t.token, { rating: 3 }), postReview(order.id, t.token, { rating: 4 })]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const again = await postReview(order.id, t.token, { rating: 5 });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('ALREADY_REVIEWED');
    expect(again.json.message).toBe('此訂單已評價過，無法再次評價');
    expect((await postReview(order.id, g.token, { rating: 5 })).status).toBe(201);
    expect(await getDb().select().from(reviews).where(eq(reviews.orderId, order.id))).toHaveLength(2);
  });

  it('wrong party 403, unknown or deleted order 404, unverified traveler 403, wrong reviewee 400, rating out of range 400', async () => {
    const { guide, traveler, order, t } = await completedPair();
    const stranger = await loginAs(await createTraveler());
    const otherGuide = await loginAs(await createGuide());
    const admin = await loginAs(await createUser({ type: 'admin' }));
    for (const token of [stranger.token, otherGuide.token, admin.token]) {
      const refused = await postReview(order.id, token, { rating: 5 });
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('FORBIDDEN');
    }
    expect((await postReview(order.id, t.token, { rating: 5, userId: guide.id })).status).toBe(403);
    expect((await postReview(999999, t.token, { rating: 5 })).status).toBe(404);
    expect((await postReview(order.id, '', { rating: 5 })).status).toBe(401);

    for (const rating of [0, 6, 4.5, 'five', null]) {
      const bad = await postReview(order.id, t.token, { rating });
      expect(bad.status, String(rating)).toBe(400);
      expect(bad.json.errors.rating).toEqual(['評分必須是 1 到 5 顆星']);
    }
    expect((await postReview(order.id, t.token, { rating: 5, comment: 'x'.repeat(1001) })).json.errors.comment).toBeDefined();
    const wrongReviewee = await postReview(order.id, t.token, { rating: 5, revieweeId: traveler.id });
    expect(wrongReviewee.status).toBe(400);
    expect(wrongReviewee.json.errors.revieweeId).toEqual(['被評價者與訂單不符']);

    const unverified = await createTraveler({ isEmailVerified: false });
    const theirs = await createCompletedOrder({ travelerId: unverified.id, guideId: guide.id });
    const noEmail = await postReview(theirs.id, (await loginAs(unverified)).token, { rating: 5 });
    expect(noEmail.status).toBe(403);
    expect(noEmail.json.code).toBe('EMAIL_NOT_VERIFIED');

    const deleted = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, deletedAt: new Date() });
    expect((await postReview(deleted.id, t.token, { rating: 5 })).status).toBe(404);
    expect(await getDb().select().from(reviews).where(eq(reviews.orderId, order.id))).toHaveLength(0);
  });

  it('GET an order’s reviews: the two parties and admins only', async () => {
    const { order, t, g } = await completedPair();
    await postReview(order.id, t.token, { rating: 5 });
    expect((await server.request(`/api/v1/orders/${order.id}/reviews`, { token: g.token })).json.data.reviews).toHaveLength(1);
    const admin = await loginAs(await createUser({ type: 'admin' }));
    expect((await server.request(`/api/v1/orders/${order.id}/reviews`, { token: admin.token })).status).toBe(200);
    const stranger = await loginAs(await createTraveler());
    expect((await server.request(`/api/v1/orders/${order.id}/reviews`, { token: stranger.token })).status).toBe(403);
    expect((await server.request(`/api/v1/orders/${order.id}/reviews`)).status).toBe(401);
  });

  it('users/{id}/reviews by type and role; hidden ones only for their author and admins', async () => {
    const { guide, traveler, order, t, g } = await completedPair();
    const shown = (await postReview(order.id, t.token, { rating: 5, comment: '公開' })).json.data.review;
    await postReview(order.id, g.token, { rating: 4 });
    const second = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    const hidden = (await postReview(second.id, t.token, { rating: 1, comment: '隱藏的' })).json.data.review;
    const admin = await loginAs(await createUser({ type: 'admin' }));
    const hide = await server.request(`/api/v1/reviews/${hidden.id}/hide`, { method: 'PATCH', token: admin.token, json: { isHidden: true, hiddenReason: '人身攻擊' } });
    expect(hide.status).toBe(200);
    await expectContract(server, 'PATCH', '/api/v1/reviews/{id}/hide', hide);

    const ids = async (path: string, token?: string) => {
      const res = await server.request(path, { token });
      expect(res.status, path).toBe(200);
      return res.json.data.reviews.map((r: any) => r.id);
    };
    const publicList = await server.request(`/api/v1/users/${guide.id}/reviews?type=received&role=guide`);
    await expectContract(server, 'GET', '/api/v1/users/{id}/reviews', publicList);
    expect(publicList.json.data.reviews.map((r: any) => r.id)).toEqual([shown.id]);
    expect(await ids(`/api/v1/users/${guide.id}/reviews`, g.token)).toEqual([shown.id]);
    expect(await ids(`/api/v1/users/${guide.id}/reviews?role=traveler`)).toEqual([]);
    expect(await ids(`/api/v1/users/${guide.id}/reviews?type=given`)).toHaveLength(1);
    expect(await ids(`/api/v1/users/${traveler.id}/reviews?type=given`)).toEqual([shown.id]);
    const own = await server.request(`/api/v1/users/${traveler.id}/reviews?type=given`, { token: t.token });
    expect(own.json.data.reviews.map((r: any) => [r.id, r.isHidden, r.hiddenReason])).toEqual([
      [hidden.id, true, '人身攻擊'],
      [shown.id, false, null],
    ]);
    expect(await ids(`/api/v1/users/${guide.id}/reviews`, admin.token)).toEqual([hidden.id, shown.id]);
    expect(await ids(`/api/v1/users/${traveler.id}/reviews?type=received&role=traveler`)).toHaveLength(1);
    expect((await server.request(`/api/v1/users/${guide.id}/reviews?type=sideways`)).status).toBe(400);
    expect((await server.request('/api/v1/users/999999/reviews')).status).toBe(404);

    // The guide page reads the same rule: the hidden review is not there.
    const page = await server.request(`/guides/${guide.id}`);
    expect(page.text).toContain('公開');
    expect(page.text).not.toContain('隱藏的');
    // And the other party does not see it on the order either.
    expect((await server.request(`/api/v1/orders/${second.id}/reviews`, { token: g.token })).json.data.reviews).toEqual([]);
  });

  it('admin search, hide (reason required), unhide and delete: audited, the stored rating follows, others 403', async () => {
    const { guide, traveler, order, t } = await completedPair();
    const five = (await postReview(order.id, t.token, { rating: 5, comment: '風景很美' })).json.data.review;
    const second = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    const two = (await postReview(second.id, t.token, { rating: 2, comment: '遲到了' })).json.data.review;
    expect(await storedRating(guide.id)).toEqual({ average: 3.5, count: 2 });

    const adminUser = await createUser({ type: 'admin' });
    const admin = await loginAs(adminUser);
    const search = await server.request(`/api/v1/reviews?keyword=${encodeURIComponent('遲到')}`, { token: admin.token });
    expect(search.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/reviews', search);
    expect(search.json.data.reviews.map((r: any) => r.id)).toEqual([two.id]);
    const byName = await server.request(`/api/v1/reviews?keyword=${encodeURIComponent(guide.name)}`, { token: admin.token });
    expect(byName.json.data.reviews.map((r: any) => r.id).sort()).toEqual([five.id, two.id].sort());
    expect((await server.request(`/api/v1/reviews?keyword=${order.id}`, { token: admin.token })).json.data.reviews.map((r: any) => r.id)).toContain(five.id);

    const hidePath = `/api/v1/reviews/${two.id}/hide`;
    const noReason = await server.request(hidePath, { method: 'PATCH', token: admin.token, json: { isHidden: true } });
    expect(noReason.status).toBe(400);
    expect(noReason.json.errors.hiddenReason).toEqual(['隱藏評價時請填寫原因']);
    const hidden = await server.request(hidePath, { method: 'PATCH', token: admin.token, json: { isHidden: true, hiddenReason: '不實內容' } });
    expect(hidden.json.data.review).toMatchObject({ isHidden: true, hiddenReason: '不實內容' });
    expect(await storedRating(guide.id)).toEqual({ average: 5, count: 1 });
    // Hidden ones stay in the admin search, flagged.
    expect((await server.request('/api/v1/reviews', { token: admin.token })).json.data.reviews.find((r: any) => r.id === two.id).isHidden).toBe(true);

    const unhidden = await server.request(hidePath, { method: 'PATCH', token: admin.token, json: { isHidden: false } });
    expect(unhidden.json.data.review).toMatchObject({ isHidden: false, hiddenReason: null });
    expect(await storedRating(guide.id)).toEqual({ average: 3.5, count: 2 });

    const deleted = await server.request(`/api/v1/reviews/${five.id}`, { method: 'DELETE', token: admin.token });
    expect(deleted.status).toBe(200);
    await expectContract(server, 'DELETE', '/api/v1/reviews/{id}', deleted);
    expect(await storedRating(guide.id)).toEqual({ average: 2, count: 1 });
    expect((await server.request(`/api/v1/reviews/${five.id}`, { method: 'DELETE', token: admin.token })).status).toBe(404);

    const trail = await getDb().select().from(auditLogs).where(and(eq(auditLogs.actorId, adminUser.id), eq(auditLogs.targetType, 'review')));
    expect(trail.map((a) => a.action)).toEqual(['review.hide', 'review.unhide', 'review.delete']);
    expect(trail[0]!.details).toMatchObject({ reason: '不實內容' });

    for (const token of [t.token, (await loginAs(guide)).token]) {
      expect((await server.request('/api/v1/reviews', { token })).status).toBe(403);
      expect((await server.request(hidePath, { method: 'PATCH', token, json: { isHidden: false } })).status).toBe(403);
      expect((await server.request(`/api/v1/reviews/${two.id}`, { method: 'DELETE', token })).status).toBe(403);
    }
    expect((await server.request('/api/v1/reviews')).status).toBe(401);
  });

  it('the rating the factories and the service keep agree with the review rows', async () => {
    const guide = await createGuide();
    const traveler = await createTraveler();
    const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
    await createReview({ orderId: order.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 3 });
    expect(await storedRating(guide.id)).toEqual({ average: 3, count: 1 });
  });

  it('the reviewee gets new_notification on their socket, nobody else', async () => {
    const httpServer = http.createServer();
    const realtime = await attachRealtime(httpServer);
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
    const sockets: Socket[] = [];
    try {
      const { order, t, g } = await completedPair();
      const open = async (token: string) => {
        const s = connect(url, { transports: ['websocket'], reconnection: false, auth: { token } });
        sockets.push(s);
        await new Promise<void>((resolve, reject) => {
          s.once('connect', resolve);
          s.once('connect_error', reject);
        });
        const got: Array<[string, any]> = [];
        s.onAny((event, payload) => got.push([event, payload]));
        return got;
      };
      const [gGot, tGot] = [await open(g.token), await open(t.token)];
      await postReview(order.id, t.token, { rating: 5 });
      await new Promise((r) => setTimeout(r, 300));
      expect(gGot.map(([e]) => e)).toEqual(['new_notification']);
      expect(gGot[0]![1].notification).toMatchObject({ type: 'order.reviewed', link: `/orders/${order.id}`, isRead: false });
      expect(tGot).toEqual([]);
    } finally {
      for (const s of sockets) s.close();
      await realtime.close();
      await new Promise((resolve) => httpServer.close(resolve));
    }
  });
});

/*
 * Issue 21: the guide's stored figures under concurrent writes. PGlite runs one transaction at a time, so only
 * PostgreSQL can show a race; there every round is a fresh guide, many writes at once, then the stored figures are
 * compared with an aggregate over the review rows that count (traveler reviews, not hidden).
 */
describe(`the guide's stored rating under concurrent writes (${testDriver})`, () => {
  const rounds = testDriver === 'pg' ? 20 : 1;
  const travelersPerRound = 12;

  async function aggregateRating(guideId: number) {
    const [row] = await getDb()
      .select({ average: sql<number | null>`round(avg(${reviews.rating})::numeric, 1)::float`, count: sql<number>`count(*)::int` })
      .from(reviews)
      .where(and(eq(reviews.revieweeId, guideId), eq(reviews.role, 'traveler'), eq(reviews.isHidden, false)));
    return { average: row!.average, count: row!.count };
  }

  /** A guide with `n` travelers, each holding a completed order (on its own day) and a bearer token. */
  async function guideWithTravelers(n: number) {
    const guide = await createGuide();
    return {
      guide,
      parties: await Promise.all(
        Array.from({ length: n }, async (_, i) => {
          const traveler = await createTraveler();
          const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, date: addDays(todayInTaipei(), -1 - i) });
          return { traveler, order, token: (await loginAs(traveler)).token };
        }),
      ),
    };
  }

  it(`${travelersPerRound} travelers reviewing one guide at once: the stored figures count every review (${rounds} round(s))`, async () => {
    const wrong: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const { guide, parties } = await guideWithTravelers(travelersPerRound);
      const answers = await Promise.all(parties.map((p, i) => postReview(p.order.id, p.token, { rating: (i % 5) + 1 })));
      expect(answers.map((r) => r.status)).toEqual(parties.map(() => 201));
      const [stored, actual] = [await storedRating(guide.id), await aggregateRating(guide.id)];
      expect(actual.count).toBe(travelersPerRound);
      if (stored.average !== actual.average || stored.count !== actual.count) {
        wrong.push(`round ${round}: stored ${stored.average}/${stored.count}, reviews ${actual.average}/${actual.count}`);
      }
    }
    expect(wrong, `${wrong.length}/${rounds} rounds wrong`).toEqual([]);
  }, 240_000);

  it(`admins hiding, showing and deleting reviews while travelers write new ones: the figures follow (${rounds} round(s))`, async () => {
    const admin = await loginAs(await createUser({ type: 'admin' }));
    const wrong: string[] = [];
    for (let round = 0; round < rounds; round++) {
      const { guide, parties } = await guideWithTravelers(12);
      // Six reviews exist already (two hidden); six travelers write theirs while an admin moderates the six.
      const existing = [];
      for (const [i, p] of parties.slice(0, 6).entries()) {
        existing.push(
          await createReview({ orderId: p.order.id, reviewerId: p.traveler.id, revieweeId: guide.id, role: 'traveler', rating: i < 3 ? 1 : 5, isHidden: i >= 4, hiddenReason: i >= 4 ? '測試' : null }),
        );
      }
      // The factory keeps the figures as the service does (hidden ones left out): the start is right.
      expect(await storedRating(guide.id)).toEqual(await aggregateRating(guide.id));
      const moderation = [
        server.request(`/api/v1/reviews/${existing[0]!.id}/hide`, { method: 'PATCH', token: admin.token, json: { isHidden: true, hiddenReason: '不實內容' } }),
        server.request(`/api/v1/reviews/${existing[1]!.id}/hide`, { method: 'PATCH', token: admin.token, json: { isHidden: true, hiddenReason: '不實內容' } }),
        server.request(`/api/v1/reviews/${existing[2]!.id}`, { method: 'DELETE', token: admin.token }),
        server.request(`/api/v1/reviews/${existing[3]!.id}`, { method: 'DELETE', token: admin.token }),
        server.request(`/api/v1/reviews/${existing[4]!.id}/hide`, { method: 'PATCH', token: admin.token, json: { isHidden: false } }),
        server.request(`/api/v1/reviews/${existing[5]!.id}/hide`, { method: 'PATCH', token: admin.token, json: { isHidden: false } }),
      ];
      const writes = parties.slice(6).map((p, i) => postReview(p.order.id, p.token, { rating: (i % 5) + 1 }));
      const answers = await Promise.all([...moderation, ...writes]);
      expect(answers.map((r) => r.status)).toEqual([...moderation.map(() => 200), ...writes.map(() => 201)]);
      const [stored, actual] = [await storedRating(guide.id), await aggregateRating(guide.id)];
      // 6 new + the two shown again; two deleted, two hidden.
      expect(actual.count).toBe(8);
      if (stored.average !== actual.average || stored.count !== actual.count) {
        wrong.push(`round ${round}: stored ${stored.average}/${stored.count}, reviews ${actual.average}/${actual.count}`);
      }
    }
    expect(wrong, `${wrong.length}/${rounds} rounds wrong`).toEqual([]);
  }, 240_000);
});
