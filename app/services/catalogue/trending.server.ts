import { and, desc, eq, gte, isNull, ne, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { favorites, orders, users } from '~db/schema';
import type { TrendingCity, TrendingGuide, TrendingType } from '~/schemas/discover';
import type { GuideCard } from '~/schemas/guide-card';
import { FALLBACK_LOCALE } from '~/i18n/config';
import { publishableGuide } from './guide-publishable.server';
import { bayesianRatingSql } from './guide-visibility.server';
import { guideCardColumns, toCards } from './guides.server';

/*
 * What is popular now (SPEC §7 GET /api/v1/guides/trending?type&limit; issue 9), and the home page's featured
 * guides. Trending counts what happened in the last TRENDING_WINDOW_DAYS: bookings (orders made, not deleted or
 * cancelled) weigh twice as much as favorites added. Only publishable guides appear or count.
 */

export const TRENDING_WINDOW_DAYS = 30;
const BOOKING_WEIGHT = 2;

function windowStart(now: Date) {
  return new Date(now.getTime() - TRENDING_WINDOW_DAYS * 86_400_000);
}

/** Per guide: bookings and favorites in the window (a subquery joined to users). */
function activity(db: Database, since: Date) {
  const recentBookings = db
    .select({ guideId: orders.guideId, n: sql<number>`count(*)::int`.as('bookings') })
    .from(orders)
    .where(and(gte(orders.createdAt, since), isNull(orders.deletedAt), ne(orders.status, 'cancelled')))
    .groupBy(orders.guideId)
    .as('recent_bookings');
  const recentFavorites = db
    .select({ guideId: favorites.targetId, n: sql<number>`count(*)::int`.as('favorites') })
    .from(favorites)
    // A guide's favorite of their own profile (refused since issue 21; older rows may remain) does not count.
    .where(and(eq(favorites.targetType, 'guide'), gte(favorites.createdAt, since), ne(favorites.userId, favorites.targetId)))
    .groupBy(favorites.targetId)
    .as('recent_favorites');
  const bookings = sql<number>`coalesce(${recentBookings.n}, 0)`;
  const favs = sql<number>`coalesce(${recentFavorites.n}, 0)`;
  const score = sql<number>`(coalesce(${recentBookings.n}, 0) * ${sql.raw(String(BOOKING_WEIGHT))} + coalesce(${recentFavorites.n}, 0))`;
  return { recentBookings, recentFavorites, bookings, favs, score };
}

/** What the trending reads take beyond the limit, like topRatedGuides: the card language and the clock (tests). */
export interface TrendingOptions {
  locale?: string;
  now?: Date;
}

export async function trendingGuides(limit: number, options: TrendingOptions = {}, db: Database = getDb()): Promise<TrendingGuide[]> {
  const a = activity(db, windowStart(options.now ?? new Date()));
  const rows = await db
    .select({
      ...guideCardColumns(),
      bookings: a.bookings.mapWith(Number),
      favorites: a.favs.mapWith(Number),
      score: a.score.mapWith(Number),
    })
    .from(users)
    .leftJoin(a.recentBookings, eq(a.recentBookings.guideId, users.id))
    .leftJoin(a.recentFavorites, eq(a.recentFavorites.guideId, users.id))
    .where(and(publishableGuide, sql`${a.score} > 0`))
    .orderBy(desc(a.score), desc(a.bookings), users.id)
    .limit(limit);
  const cards = await toCards(rows, options.locale ?? FALLBACK_LOCALE);
  return rows.map((r, i) => ({ ...cards[i]!, bookings: r.bookings, favorites: r.favorites, score: r.score }));
}

export async function trendingCities(limit: number, options: Pick<TrendingOptions, 'now'> = {}, db: Database = getDb()): Promise<TrendingCity[]> {
  const a = activity(db, windowStart(options.now ?? new Date()));
  const rows = await db
    .select({
      city: sql<string>`${users.city}`,
      guideCount: sql<number>`count(*)::int`.mapWith(Number),
      bookings: sql<number>`sum(${a.bookings})::int`.mapWith(Number),
      favorites: sql<number>`sum(${a.favs})::int`.mapWith(Number),
      score: sql<number>`sum(${a.score})::int`.mapWith(Number),
    })
    .from(users)
    .leftJoin(a.recentBookings, eq(a.recentBookings.guideId, users.id))
    .leftJoin(a.recentFavorites, eq(a.recentFavorites.guideId, users.id))
    .where(publishableGuide)
    .groupBy(users.city)
    .having(sql`sum(${a.score}) > 0`)
    .orderBy(desc(sql`sum(${a.score})`), desc(sql`sum(${a.bookings})`), users.city)
    .limit(limit);
  return rows;
}

export async function getTrending(type: TrendingType, limit: number, options: TrendingOptions = {}, db: Database = getDb()) {
  return type === 'cities'
    ? { type, windowDays: TRENDING_WINDOW_DAYS, cities: await trendingCities(limit, options, db) }
    : { type, windowDays: TRENDING_WINDOW_DAYS, guides: await trendingGuides(limit, options, db) };
}

/**
 * The best-rated publishable guides by the Bayesian average (app/lib/rating.ts), so 5.0 from one review does
 * not beat 4.8 from fifty. Guides without reviews come last. `exclude`: guide ids to leave out.
 */
export async function topRatedGuides(
  limit: number,
  options: { exclude?: readonly number[]; where?: ReturnType<typeof sql>; locale?: string } = {},
  db: Database = getDb(),
): Promise<GuideCard[]> {
  const exclude = options.exclude?.length ? sql`${users.id} not in (${sql.join(options.exclude.map((id) => sql`${id}`), sql`, `)})` : undefined;
  const rows = await db
    .select(guideCardColumns())
    .from(users)
    .where(and(publishableGuide, exclude, options.where))
    .orderBy(desc(bayesianRatingSql()), desc(users.ratingCount), users.id)
    .limit(limit);
  return toCards(rows, options.locale ?? FALLBACK_LOCALE);
}
