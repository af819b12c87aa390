import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { favorites, users } from '~db/schema';
import { getDb } from '~db/client';
import { parseConfig } from '~/env.server';
import { getFixedT, localeCookie } from '~/i18n/i18n.server';
import { roleHome } from '~/http/session.server';
import { roleHomePath } from '~/lib/roles';
import * as connectionTest from '~/routes/_debug+/connection-test';
import { callRoute, loginAs } from '../support/api';
import { createCompletedOrder, createGuide, createOrder, createReview, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer } from '../support/http-server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The role home pages, the debug pages' guard and the language preference, over real HTTP: statuses and
 * headers off the response, the numbers off the HTML a browser gets (zh-TW).
 */
useTestDatabase();
const server = useTestServer();

const ZH = { 'accept-language': 'zh-TW' };

type Login = Awaited<ReturnType<typeof loginAs>>;
const people: Record<'traveler' | 'guide' | 'admin' | 'fresh', { id: number; login: Login }> = {} as never;
/** The traveler's live orders with the guide, by status. */
const orderIds: Record<'pending' | 'confirmed' | 'completed', number> = {} as never;

beforeAll(async () => {
  const traveler = await createTraveler({ name: '林旅客', locale: 'zh-TW' });
  const guide = await createGuide({ name: '陳導遊' });
  const admin = await createUser({ type: 'admin', name: '管理員' });
  const fresh = await createTraveler({ name: '新旅客', isEmailVerified: false, emailVerifiedAt: null });
  for (const [key, user] of Object.entries({ traveler, guide, admin, fresh })) {
    people[key as keyof typeof people] = { id: user.id, login: await loginAs(user) };
  }
  // The traveler: 3 live orders (one completed and reviewed) + 1 deleted, 2 favorites, 1 review given.
  orderIds.pending = (await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2030-01-01' })).id;
  orderIds.confirmed = (await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2030-01-02', status: 'confirmed' })).id;
  await createOrder({ travelerId: traveler.id, guideId: guide.id, date: '2030-01-03', deletedAt: new Date() });
  const done = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, date: '2024-05-01' });
  orderIds.completed = done.id;
  await createReview({ orderId: done.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 4 });
  const other = await createGuide();
  await getDb()
    .insert(favorites)
    .values([
      { userId: traveler.id, targetId: guide.id },
      { userId: traveler.id, targetId: other.id },
    ]);
});

// --- Reading the HTML a browser gets -------------------------------------------------------------------

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]!);
/** Text without tags (React's `<!-- -->` separators included), decoded. */
const plain = (html: string) => decode(html.replace(/<[^>]*>/g, ''));

/** The text of the element carrying `data-testid="…"` (its nested tags removed), or undefined. */
function byTestId(html: string, testId: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]*\\bdata-testid="${testId}"[^>]*>([\\s\\S]*?)</\\1>`).exec(html);
  return match ? plain(match[2]!) : undefined;
}

/** A number shown on a role home page (`<span class="stat-value" data-testid="…">`). */
function stat(html: string, testId: string): number {
  const text = byTestId(html, testId);
  if (text === undefined) throw new Error(`no stat ${testId} in the page`);
  return Number(text);
}

/** The label → number pairs of a `<dl data-testid="…">` count list. */
function counts(html: string, testId: string): Record<string, number> {
  const match = new RegExp(`<dl[^>]*\\bdata-testid="${testId}"[^>]*>([\\s\\S]*?)</dl>`).exec(html);
  if (!match) throw new Error(`no list ${testId} in the page`);
  // A label may be a link to the filtered list.
  return Object.fromEntries([...match[1]!.matchAll(/<dt>([\s\S]*?)<\/dt><dd>([^<]*)<\/dd>/g)].map((m) => [plain(m[1]!), Number(m[2])]));
}

const heading = (html: string) => plain(/<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '');
const title = (html: string) => plain(/<title>([\s\S]*?)<\/title>/.exec(html)?.[1] ?? '');

const page = (path: string, login?: Login) => server.request(path, { cookie: login?.cookie, headers: ZH });

describe(`role homes (${testDriver})`, () => {
  it('share one pure helper for where each role lands', () => {
    expect(['admin', 'guide', 'traveler', undefined].map((t) => roleHomePath(t as never))).toEqual(['/admin', '/guide', '/traveler', '/']);
    expect(roleHome('guide')).toBe('/guide');
  });

  it('/traveler: anonymous → login and back; another role → 403; a traveler sees real counts', async () => {
    const anonymous = await page('/traveler');
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/login?redirectTo=%2Ftraveler');

    for (const role of ['guide', 'admin'] as const) {
      const wrong = await page('/traveler', people[role].login);
      expect(wrong.status, role).toBe(403);
      expect(wrong.headers.get('content-type'), role).toMatch(/^text\/html/);
    }

    const home = await page('/traveler', people.traveler.login);
    expect(home.status).toBe(200);
    expect(title(home.text)).toMatch(/^旅客主頁 \| /);
    expect(heading(home.text)).toBe('旅客主頁');
    expect(home.text).toContain('<p class="dashboard-intro">歡迎回來，林旅客！</p>');
    expect(byTestId(home.text, 'verify-reminder')).toBeUndefined();
    expect([stat(home.text, 'stat-orders'), stat(home.text, 'stat-favorites'), stat(home.text, 'stat-reviews')]).toEqual([3, 2, 1]);

    const unverified = await page('/traveler', people.fresh.login);
    expect(unverified.status).toBe(200);
    expect(byTestId(unverified.text, 'verify-reminder')).toBeDefined();
    expect([stat(unverified.text, 'stat-orders'), stat(unverified.text, 'stat-favorites'), stat(unverified.text, 'stat-reviews')]).toEqual([0, 0, 0]);
  });

  it('/guide: only guides; the guide center counts their orders and visible reviews', async () => {
    const anonymous = await page('/guide');
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/login?redirectTo=%2Fguide');
    expect((await page('/guide', people.traveler.login)).status).toBe(403);

    const center = await server.request('/guide', { token: people.guide.login.token, headers: ZH });
    expect(center.status).toBe(200);
    expect(stat(center.text, 'stat-pending')).toBe(1);
    expect(stat(center.text, 'stat-completed')).toBe(1);
    expect(byTestId(center.text, 'stat-rating')).toMatch(/^4\.0/);
    expect(stat(center.text, 'stat-reviews')).toBe(1);
    // Newest first, the deleted order left out.
    const recent = /<ul class="recent-orders" data-testid="recent-orders">([\s\S]*?)<\/ul>/.exec(center.text)?.[1] ?? '';
    const items = [...recent.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    expect(items.map((item) => Number(/href="\/orders\/(\d+)"/.exec(item)?.[1]))).toEqual([orderIds.completed, orderIds.confirmed, orderIds.pending]);
    expect(items.map((item) => /(\d{4})年(\d{1,2})月(\d{1,2})日/.exec(plain(item))!.slice(1).join('-'))).toEqual(['2024-5-1', '2030-1-2', '2030-1-1']);
    expect(plain(items[0]!)).toContain(' · 林旅客');
    expect(items[0]).toContain('<span class="status-pill status-completed">');
  });

  it('/guide/:id still shows a guide’s public page next to /guide', async () => {
    const profile = await page(`/guide/${people.guide.id}`);
    expect(profile.status).toBe(200);
    expect(/<h1 id="guide-name">([^<]*)<\/h1>/.exec(profile.text)?.[1]).toBe('陳導遊');
  });

  it('/admin: only admins; counts users by type, what awaits review and orders by status', async () => {
    const anonymous = await page('/admin');
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toBe('/login?redirectTo=%2Fadmin');
    expect((await page('/admin', people.guide.login)).status).toBe(403);
    await createGuide({ isIdVerified: false });

    const dashboard = await page('/admin', people.admin.login);
    expect(dashboard.status).toBe(200);
    expect(counts(dashboard.text, 'users-by-type')).toMatchObject({ 旅客: 2, 導遊: 3, 管理員: 1 });
    // The total is the sum of the three queues shown beside it (issue 35: reported messages were left out).
    expect(stat(dashboard.text, 'stat-awaiting-review')).toBe(
      stat(dashboard.text, 'stat-pending-id') + stat(dashboard.text, 'stat-pending-photos') + stat(dashboard.text, 'stat-reported-messages'),
    );
    expect(counts(dashboard.text, 'orders-by-status')).toEqual({ 待確認: 1, 已確認: 1, 已完成: 1, 已取消: 0, 已退款: 0 });
  });
});

describe(`debug pages (${testDriver})`, () => {
  const CONFIG_KEY = Symbol.for('lvyou.config');
  const g = globalThis as Record<symbol, unknown>;
  const original = g[CONFIG_KEY];
  afterEach(() => {
    g[CONFIG_KEY] = original;
  });
  /** The configuration the server reads (shared through globalThis) with another NODE_ENV. */
  const runAs = (mode: 'production' | 'development') => {
    g[CONFIG_KEY] = parseConfig({ ...process.env, NODE_ENV: mode });
  };

  it('in production only admins get in; everyone else gets a 404', async () => {
    runAs('production');
    expect((await page('/dev/users')).status).toBe(404);
    expect((await page('/dev/users', people.traveler.login)).status).toBe(404);
    expect((await page('/dev/users', people.guide.login)).status).toBe(404);
    expect((await page('/dev/users', people.admin.login)).status).toBe(200);
  });

  it('in development anyone logged in gets in; visitors are sent to log in', async () => {
    runAs('development');
    const visitor = await page('/dev/users');
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get('location')).toBe('/login?redirectTo=%2Fdev%2Fusers');
    expect((await page('/dev/users', people.traveler.login)).status).toBe(200);
  });

  it('/dev/users lists every account with its flags (test mode behaves like development)', async () => {
    await getDb().update(users).set({ blockedAt: new Date() }).where(eq(users.id, people.fresh.id));
    try {
      const list = await page('/dev/users', people.traveler.login);
      expect(list.status).toBe(200);
      const body = /<table[^>]*data-testid="dev-users"[^>]*>[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(list.text)?.[1] ?? '';
      // id, name, email, type, then the flags: email verified, ID verified, blocked, archived (class flag-yes /
      // flag-bad when set, muted when not).
      const rows = [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((m) => {
        const cells = [...m[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]!);
        const set = (cell: string) => !/class="muted"/.test(cell);
        return { id: Number(cells[0]), type: plain(cells[3]!), isEmailVerified: set(cells[4]!), blocked: set(cells[6]!) };
      });
      const total = await getDb().$count(users);
      expect(rows).toHaveLength(total);
      expect(rows.find((r) => r.id === people.fresh.id)).toMatchObject({ type: '旅客', isEmailVerified: false, blocked: true });
      expect(rows.find((r) => r.id === people.admin.id)).toMatchObject({ type: '管理員', blocked: false });
      // Nothing of a password reaches the page, neither the table nor the data it was rendered from.
      expect(list.text).not.toContain('passwordHash');
      expect(list.text).not.toContain('$argon2');
      const visitor = await page('/dev/users');
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get('location')).toBe('/login?redirectTo=%2Fdev%2Fusers');
    } finally {
      await getDb().update(users).set({ blockedAt: null }).where(eq(users.id, people.fresh.id));
    }
  });

  it('/dev/users and /connection-test under NODE_ENV=production: 404 for a traveler, 200 for an admin', async () => {
    runAs('production');
    for (const path of ['/dev/users', '/connection-test']) {
      expect((await page(path, people.traveler.login)).status, path).toBe(404);
      expect((await page(path)).status, path).toBe(404);
      expect((await page(path, people.admin.login)).status, path).toBe(200);
    }
    const test = await page('/connection-test', people.admin.login);
    expect(test.text).toMatch(/<p class="status-ok" data-testid="server-status">伺服器正常，資料庫有回應/);
    // Whose realtime room the page's script joins (not shown until it connects): the loader's answer.
    const loaded = await callRoute(connectionTest.loader, { path: '/connection-test', cookie: people.admin.login.cookie });
    expect(loaded.json).toMatchObject({ database: { ok: true }, userId: people.admin.id });
  });
});

describe(`language preference (${testDriver})`, () => {
  const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
  /** The header's language or theme form, posted with JS off. */
  const post = (fields: Record<string, string>, login?: Login) =>
    server.request('/preferences', {
      method: 'POST',
      origin: server.baseUrl,
      cookie: login?.cookie,
      headers: formHeaders,
      body: new URLSearchParams(fields).toString(),
    });
  const cookieLocale = (headers: Headers) =>
    localeCookie.parse(headers.getSetCookie().find((c) => c.startsWith('preferred-language='))?.split(';')[0] ?? null);
  const localeOf = async (id: number) =>
    (await getDb().select({ locale: users.locale }).from(users).where(eq(users.id, id)))[0]!.locale;

  it('stores a logged-in person’s language on their account (mail follows it) and sets the cookie', async () => {
    const answer = await post({ intent: 'locale', locale: 'ja', redirectTo: '/traveler' }, people.traveler.login);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/traveler');
    expect(await cookieLocale(answer.headers)).toBe('ja');
    expect(await localeOf(people.traveler.id)).toBe('ja');

    // A theme change leaves it alone; a refused value changes nothing.
    const theme = await post({ intent: 'theme', theme: 'dark' }, people.traveler.login);
    expect(theme.status).toBe(302);
    expect(await localeOf(people.traveler.id)).toBe('ja');
    const refused = await post({ intent: 'locale', locale: 'fr' }, people.traveler.login);
    expect(refused.status).toBe(400);
    expect(refused.headers.getSetCookie()).toEqual([]);
    const t = await getFixedT(new Request(`${server.baseUrl}/preferences`, { headers: { cookie: people.traveler.login.cookie } }));
    expect(refused.text).toContain(`<section class="error-page" role="alert"><h1>${t('errors.invalidPreference')}</h1>`);
    expect(await localeOf(people.traveler.id)).toBe('ja');

    expect((await post({ intent: 'locale', locale: 'en' }, people.traveler.login)).status).toBe(302);
    expect(await localeOf(people.traveler.id)).toBe('en');
  });

  it('only touches the account of the person logged in; visitors just get the cookie', async () => {
    const before = await getDb().select({ id: users.id, locale: users.locale }).from(users);
    const answer = await post({ intent: 'locale', locale: 'ja', redirectTo: '/' });
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/');
    expect(await cookieLocale(answer.headers)).toBe('ja');
    expect(await getDb().select({ id: users.id, locale: users.locale }).from(users)).toEqual(before);

    expect((await post({ intent: 'locale', locale: 'en' }, people.guide.login)).status).toBe(302);
    const after = await getDb().select({ id: users.id, locale: users.locale }).from(users);
    const changed = after.filter((row) => before.find((b) => b.id === row.id)?.locale !== row.locale);
    expect(changed).toEqual([{ id: people.guide.id, locale: 'en' }]);
  });
});
