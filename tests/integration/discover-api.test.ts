import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { favorites, orders, reviews, users } from '~db/schema';
import { bayesianRating } from '~/lib/rating';
import { refreshGuideRating } from '~/services/catalogue/ratings.server';
import { topRatedGuides } from '~/services/catalogue/trending.server';
import { loginAs } from '../support/api';
import { createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import { addDays } from '~/lib/dates';
import { useTestServer, type TestResponse } from '../support/http-server';
import { expectContract } from '../support/openapi';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Discovery part B over real HTTP (issue 9): favorites (API and the heart's form), trending, recommendations,
 * recent bookings and orders, the role homes and the home page. One database for the file: tests that count
 * across the whole site (trending, top guides) look only at guides they made, or at relative order.
 */
useTestDatabase();
const server = useTestServer();

const form = (values: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(values).map(([k, v]) => [k, String(v)])).toString();
const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };

function expectApi(res: TestResponse, status: number, label = '') {
  expect(res.status, `${label} ${res.text.slice(0, 300)}`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.json?.success).toBe(status < 400);
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

let pastTours = 0;

/** `n` completed orders of `guideId` by fresh travelers, each reviewed with `ratings[i % length]`. */
async function reviewGuide(guideId: number, ratings: number[], n = ratings.length, createdAt = daysAgo(200)) {
  const db = getDb();
  for (let i = 0; i < n; i++) {
    const t = await createTraveler();
    const [o] = await db
      .insert(orders)
      // A day of its own for each order: a completed tour keeps its slot.
      .values({ travelerId: t.id, guideId, date: addDays('2024-01-01', pastTours++), timeSlot: 'morning', totalPrice: 1000, status: 'completed', createdAt })
      .returning();
    await db.insert(reviews).values({ orderId: o!.id, reviewerId: t.id, revieweeId: guideId, role: 'traveler', rating: ratings[i % ratings.length]! });
  }
  // What the review service does in the same transaction: the guide's stored figures follow.
  await refreshGuideRating(db, guideId);
}

describe(`favorites API (${testDriver})`, () => {
  it('adding twice keeps one favorite and answers the same record (201, then 200)', async () => {
    const me = await createTraveler();
    const guide = await createGuide();
    const { token } = await loginAs(me);
    const first = await server.request('/api/v1/favorites', { method: 'POST', token, json: { targetType: 'guide', targetId: guide.id } });
    expectApi(first, 201);
    await expectContract(server, 'POST', '/api/v1/favorites', first);
    expect(first.json.data.favorite).toMatchObject({ userId: me.id, targetType: 'guide', targetId: guide.id });
    const second = await server.request('/api/v1/favorites', { method: 'POST', token, json: { targetId: String(guide.id) } });
    expectApi(second, 200);
    await expectContract(server, 'POST', '/api/v1/favorites', second);
    expect(second.json.data.favorite.id).toBe(first.json.data.favorite.id);
    const [row] = await getDb().select({ n: count() }).from(favorites).where(eq(favorites.userId, me.id));
    expect(row!.n).toBe(1);

    const list = await server.request('/api/v1/favorites', { token });
    expectApi(list, 200);
    await expectContract(server, 'GET', '/api/v1/favorites', list);
    expect(list.json.data.favorites).toHaveLength(1);
    expect(list.json.data.favorites[0].guide).toMatchObject({ id: guide.id, name: guide.name });
    expect(list.json.data.pagination).toMatchObject({ page: 1, total: 1, totalPages: 1 });
  });

  it('refuses unknown and unpublishable guides, travelers and bad ids', async () => {
    const me = await createTraveler();
    const { token } = await loginAs(me);
    const unpublishable = await Promise.all([
      createGuide({ isEmailVerified: false }),
      createGuide({ blockedAt: new Date() }),
      createGuide({ deletedAt: new Date() }),
      createGuide({ description: null }),
      createGuide({ city: null }),
      createGuide({ language: [] }),
      createGuide({ guideStatus: 'suspended' }),
    ]);
    const traveler = await createTraveler();
    for (const id of [...unpublishable.map((g) => g.id), traveler.id, 2_000_000_000]) {
      const res = await server.request('/api/v1/favorites', { method: 'POST', token, json: { targetType: 'guide', targetId: id } });
      expectApi(res, 404, `guide ${id}`);
      expect(res.json.code).toBe('GUIDE_NOT_FOUND');
    }
    for (const body of [{ targetId: 'abc' }, { targetType: 'city', targetId: 1 }, {}]) {
      const res = await server.request('/api/v1/favorites', { method: 'POST', token, json: body });
      expectApi(res, 400, JSON.stringify(body));
    }
    const anonymous = await server.request('/api/v1/favorites', { method: 'POST', json: { targetId: 1 } });
    expectApi(anonymous, 401);
  });

  it('own favorites only: another person’s list and delete are refused; an admin may do both', async () => {
    const [me, other] = [await createTraveler(), await createTraveler()];
    const admin = await createUser({ type: 'admin' });
    const guide = await createGuide();
    const [mine, theirs, adminSession] = [await loginAs(me), await loginAs(other), await loginAs(admin)];
    const created = await server.request('/api/v1/favorites', { method: 'POST', token: mine.token, json: { targetId: guide.id } });
    const favoriteId = created.json.data.favorite.id as number;

    expectApi(await server.request(`/api/v1/favorites?userId=${me.id}`, { token: theirs.token }), 403);
    const del = await server.request(`/api/v1/favorites/${favoriteId}`, { method: 'DELETE', token: theirs.token });
    expectApi(del, 403);
    expect(del.json.code).toBe('FORBIDDEN');
    await expectContract(server, 'DELETE', '/api/v1/favorites/{id}', del);

    const adminList = await server.request(`/api/v1/favorites?userId=${me.id}`, { token: adminSession.token });
    expectApi(adminList, 200);
    expect(adminList.json.data.favorites.map((f: { id: number }) => f.id)).toEqual([favoriteId]);
    expectApi(await server.request('/api/v1/favorites?userId=2000000000', { token: adminSession.token }), 404);

    const ownDelete = await server.request(`/api/v1/favorites/${favoriteId}`, { method: 'DELETE', token: mine.token });
    expectApi(ownDelete, 200);
    await expectContract(server, 'DELETE', '/api/v1/favorites/{id}', ownDelete);
    const again = await server.request(`/api/v1/favorites/${favoriteId}`, { method: 'DELETE', token: mine.token });
    expectApi(again, 404);
    expect(again.json.code).toBe('NOT_FOUND');
    await expectContract(server, 'DELETE', '/api/v1/favorites/{id}', again);
    expectApi(await server.request('/api/v1/favorites/abc', { method: 'DELETE', token: mine.token }), 404);
  });

  it('a guide who stops being listed stays in the list with guide null, so it can be removed', async () => {
    const me = await createTraveler();
    const guide = await createGuide();
    const { token } = await loginAs(me);
    await server.request('/api/v1/favorites', { method: 'POST', token, json: { targetId: guide.id } });
    await getDb().update(users).set({ blockedAt: new Date() }).where(eq(users.id, guide.id));
    const list = await server.request('/api/v1/favorites', { token });
    expect(list.json.data.favorites[0]).toMatchObject({ targetId: guide.id, guide: null });
  });
});

describe(`a guide's own profile is no favorite (issue 21) (${testDriver})`, () => {
  it('POST /api/v1/favorites and the /favorites action refuse it (403, translated); no heart on the own page; old rows do not trend', async () => {
    const guide = await createGuide();
    const { token, cookie } = await loginAs(guide);
    const own = async () => (await getDb().select().from(favorites).where(and(eq(favorites.userId, guide.id), eq(favorites.targetId, guide.id)))).length;

    for (const [language, message] of [
      ['zh-TW', '無法收藏自己的導遊頁面'],
      ['en', 'You cannot add your own guide profile to your favorites'],
      ['ja', '自分のガイドページはお気に入りに追加できません'],
    ] as const) {
      const res = await server.request('/api/v1/favorites', {
        method: 'POST',
        token,
        headers: { 'accept-language': language },
        json: { targetType: 'guide', targetId: guide.id },
      });
      expectApi(res, 403, language);
      expect(res.json).toMatchObject({ code: 'FORBIDDEN', message });
      await expectContract(server, 'POST', '/api/v1/favorites', res);
    }

    // The heart's form, with JS off (back with an error toast) and with JS (the status and the message).
    for (const intent of ['toggle', 'add']) {
      const back = await server.request('/favorites', {
        method: 'POST',
        cookie,
        headers: formHeaders,
        body: form({ intent, guideId: guide.id, redirectTo: `/guides/${guide.id}` }),
      });
      expect(back.status, intent).toBe(302);
      expect(back.headers.get('location')).toBe(`/guides/${guide.id}`);
      expect(back.headers.get('set-cookie')).toMatch(/toast=/);
    }
    const json = await server.request('/favorites', {
      method: 'POST',
      cookie,
      headers: formHeaders,
      body: form({ intent: 'toggle', guideId: guide.id, redirectTo: '/', respond: 'json' }),
    });
    expect(json.status).toBe(403);
    expect(json.text).toContain('無法收藏自己的導遊頁面');
    expect(await own()).toBe(0);

    // Someone else may keep the guide; the guide may keep another guide.
    const other = await createGuide();
    expectApi(await server.request('/api/v1/favorites', { method: 'POST', token, json: { targetId: other.id } }), 201);
    const fan = await loginAs(await createTraveler());
    expectApi(await server.request('/api/v1/favorites', { method: 'POST', token: fan.token, json: { targetId: guide.id } }), 201);

    // The guide's page offers the heart to others, not to the guide.
    const heart = `action="/favorites"`;
    expect((await server.request(`/guides/${guide.id}`, { cookie })).text).not.toContain(heart);
    expect((await server.request(`/guides/${guide.id}`, { cookie: fan.cookie })).text).toContain(heart);
    expect((await server.request(`/guides/${guide.id}`)).text).toContain(heart);

    // A self-favorite written before the rule (straight into the table) does not raise the guide's trending score.
    await getDb().insert(favorites).values({ userId: guide.id, targetId: guide.id });
    const trending = await server.request('/api/v1/guides/trending?limit=50');
    expect(trending.json.data.guides.find((g: { id: number }) => g.id === guide.id)).toMatchObject({ favorites: 1, score: 1 });
    // …and the heart takes it away: a toggle removes an existing one.
    const removed = await server.request('/favorites', {
      method: 'POST',
      cookie,
      headers: formHeaders,
      body: form({ intent: 'toggle', guideId: guide.id, redirectTo: '/', respond: 'json' }),
    });
    expect(removed.status).toBe(200);
    expect(await own()).toBe(0);
  });
});

describe(`the heart's form: POST /favorites (${testDriver})`, () => {
  it('toggles with JS off: redirects back to redirectTo with a toast; a second toggle removes', async () => {
    const me = await createTraveler();
    const guide = await createGuide();
    const { cookie } = await loginAs(me);
    const post = (values: Record<string, string | number>) =>
      server.request('/favorites', { method: 'POST', cookie, headers: formHeaders, body: form(values) });
    const added = await post({ intent: 'toggle', guideId: guide.id, redirectTo: `/guides/${guide.id}` });
    expect(added.status).toBe(302);
    expect(added.headers.get('location')).toBe(`/guides/${guide.id}`);
    expect(added.headers.get('set-cookie')).toMatch(/toast=/);
    const has = async () =>
      (await getDb().select().from(favorites).where(and(eq(favorites.userId, me.id), eq(favorites.targetId, guide.id)))).length;
    expect(await has()).toBe(1);
    const removed = await post({ intent: 'toggle', guideId: guide.id, redirectTo: '/' });
    expect(removed.headers.get('location')).toBe('/');
    expect(await has()).toBe(0);

    // Another site as redirectTo falls back to /favorites.
    const offsite = await post({ intent: 'toggle', guideId: guide.id, redirectTo: '//evil.example/x' });
    expect(offsite.headers.get('location')).toBe('/favorites');
    // remove from /favorites
    const removeIt = await post({ intent: 'remove', guideId: guide.id, redirectTo: '/favorites' });
    expect(removeIt.status).toBe(302);
    expect(await has()).toBe(0);
  });

  it('with JS (respond=json) answers { favorited } instead of redirecting; errors carry their status', async () => {
    const me = await createTraveler();
    const guide = await createGuide();
    const { cookie } = await loginAs(me);
    const res = await server.request('/favorites', {
      method: 'POST',
      cookie,
      headers: { ...formHeaders },
      body: form({ intent: 'toggle', guideId: guide.id, redirectTo: '/', respond: 'json' }),
    });
    expect(res.status).toBe(200);
    expect(res.text).toContain('favorited');
    const hidden = await createGuide({ blockedAt: new Date() });
    const refused = await server.request('/favorites', {
      method: 'POST',
      cookie,
      headers: formHeaders,
      body: form({ intent: 'toggle', guideId: hidden.id, redirectTo: '/' }),
    });
    expect(refused.status).toBe(302);
    expect(refused.headers.get('location')).toBe('/');
    expect(await getDb().select().from(favorites).where(eq(favorites.targetId, hidden.id))).toHaveLength(0);
  });

  it('a visitor goes to /login and comes back; /favorites itself asks for a login', async () => {
    const guide = await createGuide();
    const res = await server.request('/favorites', {
      method: 'POST',
      headers: { ...formHeaders, origin: server.baseUrl },
      body: form({ intent: 'toggle', guideId: guide.id, redirectTo: `/guides/${guide.id}` }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/login?redirectTo=${encodeURIComponent(`/guides/${guide.id}`)}`);
    const page = await server.request('/favorites');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/login?redirectTo=%2Ffavorites');
  });

  it('/favorites lists the guides with a remove button', async () => {
    const me = await createTraveler();
    const guide = await createGuide({ name: '收藏頁導遊' });
    const { cookie, token } = await loginAs(me);
    await server.request('/api/v1/favorites', { method: 'POST', token, json: { targetId: guide.id } });
    const page = await server.request('/favorites', { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('收藏頁導遊');
    expect(page.text).toContain('name="intent" value="remove"');
  });
});

describe(`Bayesian ranking (${testDriver})`, () => {
  it('4.8 from fifty reviews ranks above 5.0 from one; both above a guide with none', async () => {
    const one = await createGuide({ name: 'one-review' });
    const fifty = await createGuide({ name: 'fifty-reviews' });
    const none = await createGuide({ name: 'no-reviews' });
    await reviewGuide(one.id, [5]);
    await reviewGuide(fifty.id, [5, 5, 5, 5, 4], 50); // average 4.8
    const top = await topRatedGuides(100);
    const ids = top.map((g) => g.id);
    expect(ids.indexOf(fifty.id)).toBeLessThan(ids.indexOf(one.id));
    expect(ids.indexOf(one.id)).toBeLessThan(ids.indexOf(none.id));
    expect(top.find((g) => g.id === fifty.id)).toMatchObject({ averageRating: 4.8, reviewCount: 50 });
    // The order is the lib function's order.
    const scores = top.map((g) => bayesianRating(g.averageRating, g.reviewCount));
    expect(bayesianRating(4.8, 50)).toBeGreaterThan(bayesianRating(5, 1));
    expect(scores.length).toBe(top.length);
  });

  it('the home page shows the featured guides and a search form to /guides', async () => {
    const page = await server.request('/');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<form[^>]*method="get"[^>]*action="\/guides"/);
    expect(page.text).toContain('name="keyword"');
    expect(page.text).toContain('data-testid="featured-guides"');
  });
});

describe(`trending (${testDriver})`, () => {
  it('ranks guides by recent bookings (×2) and favorites, default 10, limit respected, old activity ignored', async () => {
    const guides = [];
    for (let i = 0; i < 12; i++) guides.push(await createGuide({ city: 'penghu', name: `trend-${i}` }));
    const fans = [];
    for (let i = 0; i < 3; i++) fans.push(await createTraveler());
    // guides[0]: 2 recent bookings (4); guides[1]: 3 favorites (3); others: 1 favorite each.
    await createOrder({ travelerId: fans[0]!.id, guideId: guides[0]!.id, date: '2031-01-01' });
    await createOrder({ travelerId: fans[1]!.id, guideId: guides[0]!.id, date: '2031-01-02' });
    for (const f of fans) await getDb().insert(favorites).values({ userId: f.id, targetId: guides[1]!.id });
    for (const g of guides.slice(2)) await getDb().insert(favorites).values({ userId: fans[0]!.id, targetId: g.id });
    // Old activity does not count; an unlisted guide never appears.
    const stale = await createGuide({ city: 'penghu' });
    await getDb().insert(favorites).values({ userId: fans[0]!.id, targetId: stale.id, createdAt: daysAgo(90) });
    const hidden = await createGuide({ city: 'penghu', blockedAt: new Date() });
    for (const f of fans) await getDb().insert(favorites).values({ userId: f.id, targetId: hidden.id });

    const res = await server.request('/api/v1/guides/trending');
    expectApi(res, 200);
    await expectContract(server, 'GET', '/api/v1/guides/trending', res);
    expect(res.json.data.type).toBe('guides');
    const list = res.json.data.guides as Array<{ id: number; score: number; bookings: number; favorites: number }>;
    expect(list).toHaveLength(10);
    expect(list[0]).toMatchObject({ id: guides[0]!.id, bookings: 2, favorites: 0, score: 4 });
    expect(list[1]).toMatchObject({ id: guides[1]!.id, bookings: 0, favorites: 3, score: 3 });
    expect(list.map((g) => g.id)).not.toContain(hidden.id);
    expect(list.map((g) => g.id)).not.toContain(stale.id);
    for (let i = 1; i < list.length; i++) expect(list[i - 1]!.score).toBeGreaterThanOrEqual(list[i]!.score);

    const three = await server.request('/api/v1/guides/trending?type=guides&limit=3');
    expect(three.json.data.guides).toHaveLength(3);
    const big = await server.request('/api/v1/guides/trending?limit=1000');
    expect(big.status).toBe(200);
    expectApi(await server.request('/api/v1/guides/trending?limit=0'), 400);
    expectApi(await server.request('/api/v1/guides/trending?type=planets'), 400);

    const cities = await server.request('/api/v1/guides/trending?type=cities&limit=5');
    expectApi(cities, 200);
    await expectContract(server, 'GET', '/api/v1/guides/trending', cities);
    const penghu = (cities.json.data.cities as Array<{ city: string; score: number; guideCount: number; bookings: number }>).find((c) => c.city === 'penghu');
    // 4 + 3 + 10 × 1 from the listed penghu guides; the blocked guide's favorites do not count.
    expect(penghu).toMatchObject({ score: 17, bookings: 2 });
    expect(penghu!.guideCount).toBeGreaterThanOrEqual(13);
    expect(cities.json.data.cities.length).toBeLessThanOrEqual(5);
  });
});

describe(`recommendations and recent lists (${testDriver})`, () => {
  it('never recommends a booked guide; suggests the city and language of booked and favorited guides, best rated first', async () => {
    const me = await createTraveler();
    const booked = await createGuide({ city: 'kaohsiung', language: ['hak'] });
    const sameCityGood = await createGuide({ city: 'kaohsiung', language: ['hak'] });
    const sameCityBetter = await createGuide({ city: 'kaohsiung', language: ['hak'] });
    const favCityGuide = await createGuide({ city: 'taitung', language: ['ja'] });
    const sameAsFav = await createGuide({ city: 'taitung', language: ['ja'] });
    await reviewGuide(sameCityGood.id, [4], 3);
    await reviewGuide(sameCityBetter.id, [5], 10);
    await reviewGuide(booked.id, [5], 20);
    await createOrder({ travelerId: me.id, guideId: booked.id, status: 'cancelled', date: '2031-05-05' });
    await getDb().insert(favorites).values({ userId: me.id, targetId: favCityGuide.id });
    const { token } = await loginAs(me);
    const res = await server.request(`/api/v1/travelers/${me.id}/recommendations`, { token });
    expectApi(res, 200);
    await expectContract(server, 'GET', '/api/v1/travelers/{id}/recommendations', res);
    const recs = res.json.data.recommendations as Array<{ id: number; reason: string }>;
    const ids = recs.map((r) => r.id);
    expect(ids).not.toContain(booked.id);
    expect(ids).toContain(sameAsFav.id);
    expect(ids.indexOf(sameCityBetter.id)).toBeLessThan(ids.indexOf(sameCityGood.id));
    expect(recs.find((r) => r.id === sameCityBetter.id)!.reason).toMatch(/city|language/);
    expect(recs.length).toBeLessThanOrEqual(10);
  });

  it('a new traveler gets the top-rated guides', async () => {
    const fresh = await createTraveler();
    const { token } = await loginAs(fresh);
    const res = await server.request(`/api/v1/travelers/${fresh.id}/recommendations?limit=5`, { token });
    expectApi(res, 200);
    const recs = res.json.data.recommendations as Array<{ id: number; reason: string }>;
    expect(recs).toHaveLength(5);
    expect(recs.every((r) => r.reason === 'top_rated')).toBe(true);
    expect(recs.map((r) => r.id)).toEqual((await topRatedGuides(5)).map((g) => g.id));
  });

  it('recent bookings and recent orders: default 5, newest first, self or admin only', async () => {
    const me = await createTraveler();
    const other = await createTraveler();
    const guide = await createGuide();
    const otherGuide = await createGuide();
    const admin = await createUser({ type: 'admin' });
    for (let i = 0; i < 7; i++) {
      await createOrder({ travelerId: me.id, guideId: guide.id, date: `2031-06-0${i + 1}`, createdAt: daysAgo(10 - i) });
    }
    const [mine, theirs, guideSession, otherGuideSession, adminSession] = [
      await loginAs(me),
      await loginAs(other),
      await loginAs(guide),
      await loginAs(otherGuide),
      await loginAs(admin),
    ];

    const bookings = await server.request(`/api/v1/travelers/${me.id}/recent-bookings`, { token: mine.token });
    expectApi(bookings, 200);
    await expectContract(server, 'GET', '/api/v1/travelers/{id}/recent-bookings', bookings);
    expect(bookings.json.data.bookings).toHaveLength(5);
    expect(bookings.json.data.bookings[0].date).toBe('2031-06-07');
    expect(bookings.json.data.bookings[0].guide).toMatchObject({ id: guide.id, name: guide.name });
    const two = await server.request(`/api/v1/travelers/${me.id}/recent-bookings?limit=2`, { token: adminSession.token });
    expect(two.json.data.bookings).toHaveLength(2);
    expectApi(await server.request(`/api/v1/travelers/${me.id}/recent-bookings`, { token: theirs.token }), 403);
    expectApi(await server.request(`/api/v1/travelers/${me.id}/recommendations`, { token: theirs.token }), 403);
    expectApi(await server.request(`/api/v1/travelers/${me.id}/recent-bookings`), 401);
    const notTraveler = await server.request(`/api/v1/travelers/${guide.id}/recent-bookings`, { token: adminSession.token });
    expectApi(notTraveler, 404);
    expect(notTraveler.json.code).toBe('TRAVELER_NOT_FOUND');

    const orders = await server.request(`/api/v1/guides/${guide.id}/recent-orders`, { token: guideSession.token });
    expectApi(orders, 200);
    await expectContract(server, 'GET', '/api/v1/guides/{id}/recent-orders', orders);
    expect(orders.json.data.orders).toHaveLength(5);
    expect(orders.json.data.orders[0]).toMatchObject({ date: '2031-06-07', traveler: { id: me.id } });
    expectApi(await server.request(`/api/v1/guides/${guide.id}/recent-orders?limit=3`, { token: adminSession.token }), 200);
    const forbidden = await server.request(`/api/v1/guides/${guide.id}/recent-orders`, { token: otherGuideSession.token });
    expectApi(forbidden, 403);
    await expectContract(server, 'GET', '/api/v1/guides/{id}/recent-orders', forbidden);
    expectApi(await server.request(`/api/v1/guides/${guide.id}/recent-orders`, { token: mine.token }), 403);
    const travelerId = await server.request(`/api/v1/guides/${me.id}/recent-orders`, { token: adminSession.token });
    expectApi(travelerId, 404);
    expect(travelerId.json.code).toBe('GUIDE_NOT_FOUND');
  });

  it('/traveler shows spending, recent bookings and recommendations; /guide shows the ID lock until verified', async () => {
    const me = await createTraveler();
    const guide = await createGuide({ name: '最近訂單導遊' });
    await createOrder({ travelerId: me.id, guideId: guide.id, status: 'confirmed', totalPrice: 3456, date: '2031-07-01' });
    const { cookie } = await loginAs(me);
    const page = await server.request('/traveler', { cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="recent-bookings"');
    expect(page.text).toContain('最近訂單導遊');
    expect(page.text).toContain('data-testid="recommendations"');
    expect(page.text).toMatch(/3,456/);

    const unverified = await createGuide({ isIdVerified: false });
    const center = await server.request('/guide', { cookie: (await loginAs(unverified)).cookie });
    expect(center.status).toBe(200);
    expect(center.text).toContain('data-testid="id-lock"');
    expect(center.text).toContain('href="/id-verification"');
    const verified = await server.request('/guide', { cookie: (await loginAs(guide)).cookie });
    expect(verified.text).not.toContain('data-testid="id-lock"');
    expect(verified.text).toContain('href="/guide-availability"');
  });
});
