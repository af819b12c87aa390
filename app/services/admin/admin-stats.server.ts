import { sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { guideViewCounts, users, type GUIDE_VIEW_KINDS } from '~db/schema';
import { ACCOUNT_TYPES, type AccountType } from '~/lib/account-types';
import { todayInTaipei } from '~/lib/dates';
import { ORDER_STATUSES, type OrderStatus } from '~/lib/order-status';
import {
  daysBetween,
  DEFAULT_STATS_PRESET,
  eachDay,
  eachMonth,
  eachWeek,
  presetRange,
  type StatsPreset,
  type StatsRange,
} from '~/lib/stats-range';
import type { AdminStats, StatsQuery } from '~/schemas/admin-stats';
import { now as clockNow } from '../platform/clock.server';
import { publishableGuide } from '../catalogue/guide-publishable.server';
import { assertAdmin } from '../accounts/user-admin.server';
import type { UserRow } from '../accounts/users.server';

/**
 * The marketplace's statistics (issue 22, docs/decisions/025): /admin/stats and GET /api/v1/admin/stats both call
 * `adminStats`. Everything is counted by PostgreSQL over Taiwan days (Asia/Taipei; the period's days are whole
 * Taiwan days, both ends included); the code here only fills the days, weeks and months without rows with zeros.
 *
 * The meanings, the same as the /admin dashboard's (admin-dashboard.server.ts):
 * - a booking is an order made in the period (its created_at) and not deleted; its gross value counts only the
 *   orders that were not cancelled or refunded; "orders by status" is those bookings by their status now;
 * - new users: accounts registered in the period and not archived, by role and Taiwan week (from Monday);
 * - ratings: travelers' visible reviews of guides written in the period;
 * - funnel: guide page views → booking form views (counted by recordGuideView below) → bookings → of those, the
 *   ones completed.
 */

/** The period a query asks for, resolved against today in Taiwan. */
export function resolveStatsRange(query: StatsQuery, now: Date = clockNow()): StatsRange & { preset: StatsPreset | null } {
  if (query.from && query.to) return { from: query.from, to: query.to, preset: null };
  const preset = query.range ?? DEFAULT_STATS_PRESET;
  return { ...presetRange(preset, todayInTaipei(now)), preset };
}

interface Rows<T> {
  rows: T[];
}
const rowsOf = async <T>(query: Promise<unknown>): Promise<T[]> => ((await query) as Rows<T>).rows;

export async function adminStats(
  actor: Pick<UserRow, 'type'> | undefined,
  query: StatsQuery,
  { db = getDb(), now = clockNow() }: { db?: Database; now?: Date } = {},
): Promise<AdminStats> {
  assertAdmin(actor);
  const range = resolveStatsRange(query, now);
  // Half-open instants of the period: from 00:00 of its first Taiwan day to 00:00 after its last.
  const start = sql`(${range.from}::date::timestamp at time zone 'Asia/Taipei')`;
  const end = sql`((${range.to}::date + 1)::timestamp at time zone 'Asia/Taipei')`;
  const inPeriod = (column: SQL) => sql`${column} >= ${start} and ${column} < ${end}`;
  const taipeiDay = (column: SQL) => sql`(${column} at time zone 'Asia/Taipei')::date`;
  const kept = sql`o.status not in ('cancelled', 'refunded')`;
  const bookings = sql`orders o where o.deleted_at is null and ${inPeriod(sql`o.created_at`)}`;

  type Part = { part: 'day' | 'month' | 'status' | 'guide' | 'city'; key: string | null; label: string | null; n: number; gross: number };
  const [dayRows, guideRows, userRows, ratingRows, viewRows] = await Promise.all([
    // The period's orders hash-aggregated by Taiwan day and status (at most days × 5 rows; migration 0018's
    // expression statistics tell the planner so), then summed per day, month and status in the same statement.
    rowsOf<Part>(
      db.execute(sql`
        with a as materialized (
          select ${taipeiDay(sql`o.created_at`)} as day, o.status, count(*)::int as n,
                 coalesce(sum(o.total_price) filter (where ${kept}), 0)::float8 as gross
          from ${bookings}
          group by 1, 2
        )
        select 'day' as part, to_char(day, 'YYYY-MM-DD') as key, null as label, sum(n)::int as n, sum(gross)::float8 as gross from a group by day
        union all
        select 'month', to_char(date_trunc('month', day), 'YYYY-MM'), null, sum(n)::int, sum(gross)::float8 from a group by 2
        union all
        select 'status', status, null, sum(n)::int, 0 from a group by status`),
    ),
    // And by guide (a second scan, in parallel on PostgreSQL): the ten guides and the ten cities with the most.
    rowsOf<Part>(
      db.execute(sql`
        with t as materialized (select o.guide_id, count(*)::int as n from ${bookings} group by o.guide_id)
        (select 'guide' as part, t.guide_id::text as key, g.name as label, t.n, 0 as gross from t join users g on g.id = t.guide_id order by t.n desc, t.guide_id limit 10)
        union all
        (select 'city', g.city, null, sum(t.n)::int, 0 from t join users g on g.id = t.guide_id group by g.city order by 4 desc, g.city nulls last limit 10)`),
    ),
    rowsOf<{ week: string; type: AccountType; n: number }>(
      db.execute(sql`
        select to_char(date_trunc('week', u.register_date at time zone 'Asia/Taipei'), 'YYYY-MM-DD') as week, u.type, count(*)::int as n
        from users u
        where u.deleted_at is null and ${inPeriod(sql`u.register_date`)}
        group by 1, 2`),
    ),
    rowsOf<{ rating: number; n: number }>(
      db.execute(sql`
        select r.rating, count(*)::int as n
        from reviews r
        where r.role = 'traveler' and not r.is_hidden and ${inPeriod(sql`r.created_at`)}
        group by r.rating`),
    ),
    rowsOf<{ guide_page: number; booking_form: number }>(
      db.execute(sql`
        select coalesce(sum(v.count) filter (where v.kind = 'guide_page'), 0)::float8 as guide_page,
               coalesce(sum(v.count) filter (where v.kind = 'booking_form'), 0)::float8 as booking_form
        from ${guideViewCounts} v
        where v.day between ${range.from}::date and ${range.to}::date`),
    ),
  ]);

  const byDay = new Map<string, { n: number; gross: number }>();
  const byMonth = new Map<string, { n: number; gross: number }>();
  const ordersByStatus = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  const topGuides: AdminStats['topGuides'] = [];
  const topCities: AdminStats['topCities'] = [];
  for (const row of [...dayRows, ...guideRows]) {
    const n = Number(row.n);
    if (row.part === 'day') byDay.set(row.key!, { n, gross: Number(row.gross) });
    else if (row.part === 'month') byMonth.set(row.key!, { n, gross: Number(row.gross) });
    else if (row.part === 'status') ordersByStatus[row.key as OrderStatus] = n;
    else if (row.part === 'guide') topGuides.push({ guideId: Number(row.key), name: row.label ?? '', bookings: n });
    else topCities.push({ city: row.key, bookings: n });
  }
  // union all keeps each branch's rows but not their order across branches: the top lists are sorted again here.
  topGuides.sort((x, y) => y.bookings - x.bookings || x.guideId - y.guideId);
  topCities.sort((x, y) => y.bookings - x.bookings || (x.city === null ? 1 : y.city === null ? -1 : x.city < y.city ? -1 : 1));
  const weeks = new Map<string, Record<AccountType, number>>();
  for (const week of eachWeek(range)) weeks.set(week, { traveler: 0, guide: 0, admin: 0 });
  for (const row of userRows) {
    const week = weeks.get(row.week);
    if (week && (ACCOUNT_TYPES as readonly string[]).includes(row.type)) week[row.type] = row.n;
  }
  const bookingsPerDay = eachDay(range).map((day) => ({ day, bookings: byDay.get(day)?.n ?? 0, grossValue: byDay.get(day)?.gross ?? 0 }));
  const totalBookings = bookingsPerDay.reduce((sum, d) => sum + d.bookings, 0);
  const views = (kind: (typeof GUIDE_VIEW_KINDS)[number]) => Number(viewRows[0]?.[kind] ?? 0);
  return {
    range: { from: range.from, to: range.to, days: daysBetween(range.from, range.to), preset: range.preset },
    totals: {
      bookings: totalBookings,
      grossValue: bookingsPerDay.reduce((sum, d) => sum + d.grossValue, 0),
      newUsers: userRows.reduce((sum, r) => sum + r.n, 0),
    },
    bookingsPerDay,
    grossPerMonth: eachMonth(range).map((month) => ({ month, bookings: byMonth.get(month)?.n ?? 0, grossValue: byMonth.get(month)?.gross ?? 0 })),
    newUsersPerWeek: [...weeks].map(([week, counts]) => ({ week, ...counts })),
    ordersByStatus,
    topCities,
    topGuides,
    ratingDistribution: [1, 2, 3, 4, 5].map((rating) => ({ rating, count: ratingRows.find((r) => Number(r.rating) === rating)?.n ?? 0 })),
    funnel: {
      guidePageViews: views('guide_page'),
      bookingFormViews: views('booking_form'),
      orders: totalBookings,
      completed: ordersByStatus.completed,
    },
  };
}

/**
 * Counts one view of a guide's page or booking form on today's Taiwan day: one upsert, and nothing when the id is
 * not a guide the public may see (the page answers 404 then). Callers decide which views count
 * (app/http/views.server.ts) and never wait on a failure.
 */
export async function recordGuideView(
  guideId: number,
  kind: (typeof GUIDE_VIEW_KINDS)[number],
  { db = getDb(), now = clockNow() }: { db?: Database; now?: Date } = {},
): Promise<void> {
  await db.execute(sql`
    insert into ${guideViewCounts} (guide_id, day, kind, count)
    select ${users.id}, ${todayInTaipei(now)}::date, ${kind}, 1 from ${users} where ${users.id} = ${guideId} and ${publishableGuide}
    on conflict (guide_id, day, kind) do update set count = ${guideViewCounts}.count + 1`);
}
