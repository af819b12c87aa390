import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { favorites, users } from '~db/schema';
import { getDb } from '~db/client';
import { parseConfig } from '~/env.server';
import { localeCookie } from '~/i18n/i18n.server';
import { requireDebugAccess } from '~/http/debug.server';
import { roleHome } from '~/http/auth.server';
import { roleHomePath } from '~/lib/roles';
import * as adminHome from '~/routes/admin._index';
import * as connectionTest from '~/routes/connection-test';
import * as devUsers from '~/routes/dev.users';
import * as guideDetail from '~/routes/guide.$id';
import * as guideHome from '~/routes/guide._index';
import * as preferences from '~/routes/preferences';
import * as travelerHome from '~/routes/traveler';
import { callRoute, loginAs } from '../support/api';
import { createCompletedOrder, createGuide, createOrder, createReview, createTraveler, createUser } from '../support/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/** The role home pages, the debug pages' guard and the language preference, called as Remix calls them. */
useTestDatabase();

type Login = Awaited<ReturnType<typeof loginAs>>;
const people: Record<'traveler' | 'guide' | 'admin' | 'fresh', { id: number; login: Login }> = {} as never;

beforeAll(async () => {
  const traveler = await createTraveler({ name: '林旅客', locale: 'zh-TW' });
  const guide = await createGuide({ name: '陳導遊' });
  const admin = await createUser({ type: 'admin', name: '管理員' });
  const fresh = await createTraveler({ name: '新旅客', isEmailVerified: false, emailVerifiedAt: null });
  for (const [key, user] of Object.entries({ traveler, guide, admin, fresh })) {
    people[key as keyof typeof people] = { id: user.id, login: await loginAs(user) };
  }
  // The traveler: 3 live orders (one completed and reviewed) + 1 deleted, 2 favorites, 1 review given.
  await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2030-01-01' });
  await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2030-01-02', status: 'confirmed' });
  await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2030-01-03', deletedAt: new Date() });
  const done = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, date: '2024-05-01' });
  await createReview({ orderId: done.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 4 });
  const other = await createGuide();
  await getDb()
    .insert(favorites)
    .values([
      { userId: traveler.id, targetId: guide.id },
      { userId: traveler.id, targetId: other.id },
    ]);
});

describe(`role homes (${testDriver})`, () => {
  it('share one pure helper for where each role lands', () => {
    expect(['admin', 'guide', 'traveler', undefined].map((t) => roleHomePath(t as never))).toEqual(['/admin', '/guide', '/traveler', '/']);
    expect(roleHome('guide')).toBe('/guide');
  });

  it('/traveler: anonymous → login and back; another role → 403; a traveler sees real counts', async () => {
    const anonymous = await callRoute(travelerHome.loader, { path: '/traveler' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/login?redirectTo=%2Ftraveler');

    for (const role of ['guide', 'admin'] as const) {
      const wrong = await callRoute(travelerHome.loader, { path: '/traveler', cookie: people[role].login.cookie });
      expect(wrong.status, role).toBe(403);
    }

    const page = await callRoute(travelerHome.loader, { path: '/traveler', cookie: people.traveler.login.cookie });
    expect(page.status).toBe(200);
    expect(page.json).toMatchObject({
      name: '林旅客',
      isEmailVerified: true,
      stats: { orders: 3, favorites: 2, reviewsGiven: 1 },
      title: '旅客主頁',
    });

    const unverified = await callRoute(travelerHome.loader, { path: '/traveler', cookie: people.fresh.login.cookie });
    expect(unverified.json).toMatchObject({ isEmailVerified: false, stats: { orders: 0, favorites: 0, reviewsGiven: 0 } });
  });

  it('/guide: only guides; the guide center counts their orders and visible reviews', async () => {
    expect((await callRoute(guideHome.loader, { path: '/guide' })).headers.get('location')).toBe('/login?redirectTo=%2Fguide');
    expect((await callRoute(guideHome.loader, { path: '/guide', cookie: people.traveler.login.cookie })).status).toBe(403);

    const page = await callRoute(guideHome.loader, { path: '/guide', token: people.guide.login.token });
    expect(page.status).toBe(200);
    expect(page.json.stats).toMatchObject({ pendingOrders: 1, completedOrders: 1, averageRating: 4, reviewCount: 1 });
    // Newest first, the deleted order left out.
    expect(page.json.stats.recentOrders.map((o: { date: string }) => o.date)).toEqual(['2024-05-01', '2030-01-02', '2030-01-01']);
    expect(page.json.stats.recentOrders[0]).toMatchObject({ travelerName: '林旅客', status: 'completed' });
  });

  it('/guide/:id still shows a guide’s public page next to /guide', async () => {
    const page = await callRoute(guideDetail.loader, { path: `/guide/${people.guide.id}`, params: { id: String(people.guide.id) } });
    expect(page.status).toBe(200);
    expect(page.json.guide).toMatchObject({ id: people.guide.id, name: '陳導遊' });
  });

  it('/admin: only admins; counts users by type, pending guides and orders by status', async () => {
    expect((await callRoute(adminHome.loader, { path: '/admin' })).status).toBe(302);
    expect((await callRoute(adminHome.loader, { path: '/admin', cookie: people.guide.login.cookie })).status).toBe(403);
    await createGuide({ guideStatus: 'pending' });

    const page = await callRoute(adminHome.loader, { path: '/admin', cookie: people.admin.login.cookie });
    expect(page.status).toBe(200);
    expect(page.json.stats.usersByType).toEqual({ traveler: 2, guide: 3, admin: 1 });
    expect(page.json.stats.guidesPendingApproval).toBe(1);
    expect(page.json.stats.ordersByStatus).toEqual({ pending: 1, confirmed: 1, completed: 1, cancelled: 0, refunded: 0 });
  });
});

describe(`debug pages (${testDriver})`, () => {
  const CONFIG_KEY = Symbol.for('lvyou.config');
  const g = globalThis as Record<symbol, unknown>;
  const original = g[CONFIG_KEY];
  afterEach(() => {
    g[CONFIG_KEY] = original;
  });

  const request = (login?: Login) =>
    new Request('http://localhost/dev/users', { headers: login ? { cookie: login.cookie } : {} });

  async function outcome(promise: Promise<unknown>): Promise<number | string> {
    try {
      await promise;
      return 'allowed';
    } catch (thrown) {
      if (thrown instanceof Response) return thrown.status;
      throw thrown;
    }
  }

  it('in production only admins get in; everyone else gets a 404', async () => {
    expect(await outcome(requireDebugAccess(request(), 'production'))).toBe(404);
    expect(await outcome(requireDebugAccess(request(people.traveler.login), 'production'))).toBe(404);
    expect(await outcome(requireDebugAccess(request(people.guide.login), 'production'))).toBe(404);
    expect(await outcome(requireDebugAccess(request(people.admin.login), 'production'))).toBe('allowed');
  });

  it('in development anyone logged in gets in; visitors are sent to log in', async () => {
    expect(await outcome(requireDebugAccess(request(), 'development'))).toBe(302);
    expect(await outcome(requireDebugAccess(request(people.traveler.login), 'development'))).toBe('allowed');
  });

  it('/dev/users lists every account with its flags (test mode behaves like development)', async () => {
    await getDb().update(users).set({ blockedAt: new Date() }).where(eq(users.id, people.fresh.id));
    try {
      const page = await callRoute(devUsers.loader, { path: '/dev/users', cookie: people.traveler.login.cookie });
      expect(page.status).toBe(200);
      const rows = page.json.users as { id: number; email: string; type: string; isEmailVerified: boolean; blocked: boolean }[];
      const total = await getDb().$count(users);
      expect(rows).toHaveLength(total);
      expect(rows.find((r) => r.id === people.fresh.id)).toMatchObject({ type: 'traveler', isEmailVerified: false, blocked: true });
      expect(rows.find((r) => r.id === people.admin.id)).toMatchObject({ type: 'admin', blocked: false });
      expect(JSON.stringify(rows)).not.toContain('passwordHash');
      expect((await callRoute(devUsers.loader, { path: '/dev/users' })).status).toBe(302);
    } finally {
      await getDb().update(users).set({ blockedAt: null }).where(eq(users.id, people.fresh.id));
    }
  });

  it('/dev/users and /connection-test under NODE_ENV=production: 404 for a traveler, 200 for an admin', async () => {
    g[CONFIG_KEY] = parseConfig({ ...process.env, NODE_ENV: 'production' });
    for (const route of [devUsers, connectionTest]) {
      expect((await callRoute(route.loader, { path: '/dev/users', cookie: people.traveler.login.cookie })).status).toBe(404);
      expect((await callRoute(route.loader, { path: '/dev/users' })).status).toBe(404);
      expect((await callRoute(route.loader, { path: '/dev/users', cookie: people.admin.login.cookie })).status).toBe(200);
    }
    const test = await callRoute(connectionTest.loader, { path: '/connection-test', cookie: people.admin.login.cookie });
    expect(test.json).toMatchObject({ database: { ok: true }, userId: people.admin.id });
  });
});

describe(`language preference (${testDriver})`, () => {
  const post = (fields: Record<string, string>, login?: Login) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return callRoute(preferences.action, { path: '/preferences', body, cookie: login?.cookie });
  };
  const cookieLocale = (headers: Headers) => localeCookie.parse(headers.get('set-cookie')?.split(';')[0] ?? null);
  const localeOf = async (id: number) =>
    (await getDb().select({ locale: users.locale }).from(users).where(eq(users.id, id)))[0]!.locale;

  it('stores a logged-in person’s language on their account (mail follows it) and sets the cookie', async () => {
    const answer = await post({ intent: 'locale', locale: 'ja', redirectTo: '/traveler' }, people.traveler.login);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/traveler');
    expect(await cookieLocale(answer.headers)).toBe('ja');
    expect(await localeOf(people.traveler.id)).toBe('ja');

    // A theme change leaves it alone; a refused value changes nothing.
    await post({ intent: 'theme', theme: 'dark' }, people.traveler.login);
    expect(await localeOf(people.traveler.id)).toBe('ja');
    expect((await post({ intent: 'locale', locale: 'fr' }, people.traveler.login)).status).toBe(400);
    expect(await localeOf(people.traveler.id)).toBe('ja');

    await post({ intent: 'locale', locale: 'en' }, people.traveler.login);
    expect(await localeOf(people.traveler.id)).toBe('en');
  });

  it('only touches the account of the person logged in; visitors just get the cookie', async () => {
    const before = await getDb().select({ id: users.id, locale: users.locale }).from(users);
    const answer = await post({ intent: 'locale', locale: 'ja', redirectTo: '/' });
    expect(answer.status).toBe(302);
    expect(await cookieLocale(answer.headers)).toBe('ja');
    expect(await getDb().select({ id: users.id, locale: users.locale }).from(users)).toEqual(before);

    await post({ intent: 'locale', locale: 'en' }, people.guide.login);
    const after = await getDb().select({ id: users.id, locale: users.locale }).from(users);
    const changed = after.filter((row) => before.find((b) => b.id === row.id)?.locale !== row.locale);
    expect(changed).toEqual([{ id: people.guide.id, locale: 'en' }]);
  });
});
