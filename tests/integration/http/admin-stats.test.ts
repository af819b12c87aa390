import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { guideViewCounts } from '~db/schema';
import { todayInTaipei } from '~/lib/dates';
import { ORDER_STATUSES, type OrderStatus } from '~/lib/order-status';
import { createGuide, createOrder, createReview, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * /admin/stats and GET /api/v1/admin/stats (issue 22) over real HTTP: admins only; every figure equals what this
 * test counts itself from the rows it inserted (Taiwan days computed here as UTC + 8 h, rows placed at 23:30 and
 * 00:30 Taiwan time on both ends of the period); guide page and booking form views are counted, except robots',
 * admins' and the guide's own.
 */
useTestDatabase();
const server = useTestServer();

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FROM = '2025-06-10';
const TO = '2025-07-01';

/** The Taiwan day of an instant, worked out without the database: Taiwan is UTC+8 all year. */
const taipeiDay = (iso: string) => new Date(Date.parse(iso) + 8 * 3_600_000).toISOString().slice(0, 10);
const inPeriod = (iso: string) => taipeiDay(iso) >= FROM && taipeiDay(iso) <= TO;
const mondayOf = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
};

interface SeedOrder {
  at: string;
  guide: 'a' | 'b' | 'c';
  status: OrderStatus;
  price: number;
  deleted?: boolean;
}
const ORDERS: SeedOrder[] = [
  { at: '2025-06-09T15:59:59Z', guide: 'a', status: 'pending', price: 900 }, // 06-09 23:59:59 Taiwan: the day before
  { at: '2025-06-09T16:00:00Z', guide: 'a', status: 'pending', price: 1000 }, // 06-10 00:00: the first instant
  { at: '2025-06-10T15:30:00Z', guide: 'a', status: 'confirmed', price: 1100 }, // 06-10 23:30
  { at: '2025-06-10T16:30:00Z', guide: 'a', status: 'cancelled', price: 1200 }, // 06-11 00:30, no value
  { at: '2025-06-11T03:00:00Z', guide: 'b', status: 'completed', price: 3000 },
  { at: '2025-06-11T04:00:00Z', guide: 'b', status: 'refunded', price: 2500 }, // no value
  { at: '2025-06-11T05:00:00Z', guide: 'b', status: 'completed', price: 2000, deleted: true }, // not counted
  { at: '2025-06-30T15:30:00Z', guide: 'c', status: 'completed', price: 1500 }, // 06-30 23:30
  { at: '2025-06-30T16:30:00Z', guide: 'c', status: 'pending', price: 1700 }, // 07-01 00:30: July
  { at: '2025-07-01T15:59:59Z', guide: 'b', status: 'confirmed', price: 1800 }, // 07-01 23:59:59: the last instant
  { at: '2025-07-01T16:00:00Z', guide: 'b', status: 'confirmed', price: 1900 }, // 07-02 00:00: after
];

const USERS = [
  { at: '2025-06-15T15:30:00Z', type: 'traveler' as const }, // Sunday 06-15 23:30 Taiwan: the week of 06-09
  { at: '2025-06-15T16:30:00Z', type: 'traveler' as const }, // Monday 06-16 00:30: the week of 06-16
  { at: '2025-06-15T16:30:00Z', type: 'guide' as const },
  { at: '2025-06-20T02:00:00Z', type: 'traveler' as const, archived: true }, // not counted
  { at: '2025-06-09T15:00:00Z', type: 'guide' as const }, // 06-09 23:00: before the period
  { at: '2025-07-01T15:30:00Z', type: 'admin' as const }, // 07-01 23:30: the last day
];

async function seed() {
  const guides = {
    a: await createGuide({ city: 'taipei', name: '台北導遊' }),
    b: await createGuide({ city: 'tainan', name: '台南導遊' }),
    c: await createGuide({ city: 'hualien', name: '花蓮導遊' }),
  };
  const traveler = await createTraveler();
  const orders = [];
  for (const [i, o] of ORDERS.entries()) {
    orders.push(
      await createOrder({
        travelerId: traveler.id,
        guideId: guides[o.guide].id,
        // Each order a slot of its own (the double-booking index).
        date: `2025-08-${String(i + 1).padStart(2, '0')}`,
        status: o.status,
        totalPrice: o.price,
        createdAt: new Date(o.at),
        deletedAt: o.deleted ? new Date(o.at) : null,
      }),
    );
  }
  for (const u of USERS) {
    await createUser({ type: u.type, registerDate: new Date(u.at), deletedAt: 'archived' in u ? new Date() : null, ...(u.type === 'guide' ? { guideStatus: 'active' } : {}) });
  }
  // Reviews: travelers' visible ones in the period count; a hidden one, a guide's review of a traveler and one
  // written after the period do not.
  const completed = orders.filter((o) => o.status === 'completed' && !o.deletedAt);
  const review = (orderId: number, guideId: number, rating: number, at: string, extra: Record<string, unknown> = {}) =>
    createReview({ orderId, reviewerId: traveler.id, revieweeId: guideId, role: 'traveler', rating, createdAt: new Date(at), ...extra });
  await review(completed[0]!.id, completed[0]!.guideId, 5, '2025-06-12T02:00:00Z');
  await review(completed[1]!.id, completed[1]!.guideId, 4, '2025-07-01T15:30:00Z');
  const other = await createOrder({ travelerId: traveler.id, guideId: guides.a.id, date: '2025-09-01', status: 'completed', createdAt: new Date('2025-05-01T00:00:00Z') });
  await review(other.id, guides.a.id, 2, '2025-06-20T02:00:00Z', { isHidden: true, hiddenReason: 'spam' });
  await review(other.id, guides.a.id, 1, '2025-07-01T16:30:00Z', { reviewerId: (await createTraveler()).id });
  await createReview({ orderId: completed[0]!.id, reviewerId: completed[0]!.guideId, revieweeId: traveler.id, role: 'guide', rating: 3, createdAt: new Date('2025-06-12T03:00:00Z') });
  return { guides };
}

/** What the statistics must say, counted here from the seed lists. */
function expected(guideCity: Record<'a' | 'b' | 'c', string>) {
  const bookings = ORDERS.filter((o) => !o.deleted && inPeriod(o.at));
  const valued = bookings.filter((o) => o.status !== 'cancelled' && o.status !== 'refunded');
  const perDay = new Map<string, { bookings: number; grossValue: number }>();
  for (const o of bookings) {
    const day = perDay.get(taipeiDay(o.at)) ?? { bookings: 0, grossValue: 0 };
    day.bookings += 1;
    if (valued.includes(o)) day.grossValue += o.price;
    perDay.set(taipeiDay(o.at), day);
  }
  const perMonth = (month: string) => ({
    month,
    bookings: bookings.filter((o) => taipeiDay(o.at).startsWith(month)).length,
    grossValue: valued.filter((o) => taipeiDay(o.at).startsWith(month)).reduce((s, o) => s + o.price, 0),
  });
  const byStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, bookings.filter((o) => o.status === s).length]));
  const perGuide = (g: 'a' | 'b' | 'c') => bookings.filter((o) => o.guide === g).length;
  const newUsers = USERS.filter((u) => !('archived' in u) && inPeriod(u.at));
  const weeks = new Map<string, Record<string, number>>();
  for (const u of newUsers) {
    const week = mondayOf(taipeiDay(u.at));
    const row = weeks.get(week) ?? { traveler: 0, guide: 0, admin: 0 };
    row[u.type]! += 1;
    weeks.set(week, row);
  }
  return { bookings, valued, perDay, perMonth, byStatus, perGuide, newUsers, weeks, guideCity };
}

describe(`/admin/stats and GET /api/v1/admin/stats (${testDriver})`, () => {
  it('are refused to visitors, travelers and guides', async () => {
    expect((await server.request('/admin/stats', { redirect: 'manual' })).status).toBe(302);
    const api = await server.request('/api/v1/admin/stats');
    expect(api.status).toBe(401);
    expect(api.json.code).toBe('UNAUTHORIZED');
    for (const user of [await createTraveler(), await createGuide()]) {
      const { cookie, token } = await loginAs(user);
      expect((await server.request('/admin/stats', { cookie })).status).toBe(403);
      const refused = await server.request('/api/v1/admin/stats', { token });
      expect(refused.status).toBe(403);
      expect(refused.json.code).toBe('FORBIDDEN');
    }
  });

  it('equal the counts made here, over Taiwan days, on the page and through the API', async () => {
    const { guides } = await seed();
    const admin = await createUser({ type: 'admin' });
    const { cookie, token } = await loginAs(admin);
    const want = expected({ a: 'taipei', b: 'tainan', c: 'hualien' });

    const res = await server.request(`/api/v1/admin/stats?from=${FROM}&to=${TO}`, { token });
    expect(res.status).toBe(200);
    const stats = res.json.data;
    expect(stats.range).toEqual({ from: FROM, to: TO, days: 22, preset: null });

    // Per day: every day of the period, the seeded ones with their counts, the rest zero.
    expect(stats.bookingsPerDay).toHaveLength(22);
    expect(stats.bookingsPerDay[0].day).toBe(FROM);
    expect(stats.bookingsPerDay.at(-1).day).toBe(TO);
    for (const row of stats.bookingsPerDay) {
      expect(row, row.day).toEqual({ day: row.day, ...(want.perDay.get(row.day) ?? { bookings: 0, grossValue: 0 }) });
    }
    // The boundaries, spelled out: 06-10 has its 00:00 and 23:30 orders, 06-11 its 00:30 one, 07-01 its 00:30 and 23:59:59 ones.
    expect(stats.bookingsPerDay.find((d: { day: string }) => d.day === '2025-06-10').bookings).toBe(2);
    expect(stats.bookingsPerDay.find((d: { day: string }) => d.day === '2025-07-01').bookings).toBe(2);

    expect(stats.grossPerMonth).toEqual([want.perMonth('2025-06'), want.perMonth('2025-07')]);
    expect(stats.totals).toEqual({
      bookings: want.bookings.length,
      grossValue: want.valued.reduce((s, o) => s + o.price, 0),
      newUsers: want.newUsers.length,
    });
    expect(stats.totals.bookings).toBe(8);
    expect(stats.ordersByStatus).toEqual(want.byStatus);

    expect(stats.topGuides).toEqual(
      (['b', 'a', 'c'] as const)
        .map((g) => ({ guideId: guides[g].id, name: guides[g].name, bookings: want.perGuide(g) }))
        .sort((x, y) => y.bookings - x.bookings || x.guideId - y.guideId),
    );
    expect(stats.topCities).toEqual(
      (['a', 'b', 'c'] as const).map((g) => ({ city: want.guideCity[g], bookings: want.perGuide(g) })).sort((x, y) => y.bookings - x.bookings || x.city.localeCompare(y.city)),
    );

    // Weeks from Monday: the period starts on a Tuesday (06-10), so the first week is that of 06-09.
    expect(stats.newUsersPerWeek.map((w: { week: string }) => w.week)).toEqual(['2025-06-09', '2025-06-16', '2025-06-23', '2025-06-30']);
    for (const row of stats.newUsersPerWeek) {
      expect(row, row.week).toEqual({ week: row.week, ...(want.weeks.get(row.week) ?? { traveler: 0, guide: 0, admin: 0 }) });
    }
    expect(want.weeks.get('2025-06-09')).toEqual({ traveler: 1, guide: 0, admin: 0 });

    expect(stats.ratingDistribution).toEqual([
      { rating: 1, count: 0 },
      { rating: 2, count: 0 },
      { rating: 3, count: 0 },
      { rating: 4, count: 1 },
      { rating: 5, count: 1 },
    ]);
    expect(stats.funnel).toEqual({ guidePageViews: 0, bookingFormViews: 0, orders: want.bookings.length, completed: want.byStatus.completed });

    // The page shows the same numbers, in its tables.
    const page = await server.request(`/admin/stats?from=${FROM}&to=${TO}`, { cookie, headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-testid="chart-bookings-per-day"');
    expect(page.text).toMatch(new RegExp(`data-testid="total-bookings">${want.bookings.length}<`));
    expect(page.text).toContain('台南導遊 (#');
    expect((page.text.match(/<svg class="chart"/g) ?? []).length).toBe(9);
  });

  it('counts guide page and booking form views, not robots’, admins’ or the guide’s own', async () => {
    const guide = await createGuide();
    const traveler = await createTraveler();
    const admin = await createUser({ type: 'admin' });
    const [asTraveler, asAdmin, asGuide] = await Promise.all([loginAs(traveler), loginAs(admin), loginAs(guide)]);
    const view = async (path: string, cookie?: string, agent = BROWSER) => {
      const res = await server.request(path, { cookie, headers: { 'user-agent': agent } });
      expect(res.status, path).toBe(200);
    };
    await view(`/guides/${guide.id}`);
    await view(`/guides/${guide.id}`, asTraveler.cookie);
    await view(`/guides/${guide.id}`, undefined, 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)');
    await view(`/guides/${guide.id}`, asAdmin.cookie);
    await view(`/guides/${guide.id}`, asGuide.cookie);
    await view(`/booking/${guide.id}`, asTraveler.cookie);
    await view(`/booking/${guide.id}`, undefined, 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) bingbot/2.0');
    await view(`/booking/${guide.id}`, asAdmin.cookie);

    // A guide the public may not see: the page answers 404 and nothing is counted.
    const suspended = await createGuide({ guideStatus: 'suspended' });
    expect((await server.request(`/guides/${suspended.id}`, { headers: { 'user-agent': BROWSER } })).status).toBe(404);

    const today = todayInTaipei();
    expect(await getDb().select().from(guideViewCounts)).toHaveLength(2);
    expect(await getDb().select().from(guideViewCounts)).toEqual(
      expect.arrayContaining([
        { guideId: guide.id, day: today, kind: 'guide_page', count: 2 },
        { guideId: guide.id, day: today, kind: 'booking_form', count: 1 },
      ]),
    );
    const res = await server.request('/api/v1/admin/stats?range=7d', { token: asAdmin.token });
    expect(res.status).toBe(200);
    expect(res.json.data.range).toMatchObject({ to: today, days: 7, preset: '7d' });
    expect(res.json.data.funnel).toMatchObject({ guidePageViews: 2, bookingFormViews: 1 });
  });

  it('refuses a period that ends before it starts, with the typed dates kept', async () => {
    const { cookie, token } = await loginAs(await createUser({ type: 'admin' }));
    const api = await server.request('/api/v1/admin/stats?from=2025-06-10&to=2025-06-01', { token });
    expect(api.status).toBe(400);
    expect(api.json.code).toBe('VALIDATION_ERROR');
    const page = await server.request('/admin/stats?from=2025-06-10&to=2025-06-01', { cookie, headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(400);
    expect(page.text).toContain('The end date must not be before the start date.');
    expect(page.text).toContain('value="2025-06-10"');
  });
});
