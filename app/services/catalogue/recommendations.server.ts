import { eq, inArray, or, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { favorites, orders, users } from '~db/schema';
import type { Recommendation } from '~/schemas/discover';
import type { GuideCard } from '~/schemas/guide-card';
import { FALLBACK_LOCALE } from '~/i18n/config';
import { topRatedGuides } from './trending.server';

/*
 * Guides to suggest to a traveler (SPEC §7 GET /api/v1/travelers/{id}/recommendations; issue 9): guides in the
 * cities and speaking the languages of the guides the traveler booked or favorited, best rated first
 * (Bayesian average), never a guide the traveler has already booked (any order, whatever became of it).
 * When those run short (a new traveler has none) the list is filled with the top-rated guides.
 * Who may ask is the caller's check (self or admin).
 */

export async function recommendGuides(
  travelerId: number,
  limit = 10,
  db: Database = getDb(),
  locale: string = FALLBACK_LOCALE,
): Promise<Recommendation[]> {
  const [bookedRows, favoriteRows] = await Promise.all([
    db.selectDistinct({ guideId: orders.guideId }).from(orders).where(eq(orders.travelerId, travelerId)),
    db.select({ guideId: favorites.targetId }).from(favorites).where(eq(favorites.userId, travelerId)),
  ]);
  const booked = bookedRows.map((r) => r.guideId);
  const known = [...new Set([...booked, ...favoriteRows.map((r) => r.guideId)])];
  const tastes = known.length
    ? await db.select({ city: users.city, language: users.language }).from(users).where(inArray(users.id, known))
    : [];
  const cities = [...new Set(tastes.map((t) => t.city).filter((c): c is string => Boolean(c)))];
  const languages = [...new Set(tastes.flatMap((t) => t.language))];

  let matched: GuideCard[] = [];
  if (cities.length || languages.length) {
    const conditions = [
      cities.length ? inArray(users.city, cities) : undefined,
      languages.length ? sql`${users.language} && ${sql`array[${sql.join(languages.map((l) => sql`${l}`), sql`, `)}]::text[]`}` : undefined,
    ].filter(Boolean);
    matched = await topRatedGuides(limit, { exclude: booked, where: or(...conditions) as ReturnType<typeof sql>, locale }, db);
  }
  const result: Recommendation[] = matched.map((g) => {
    const inCity = g.city !== null && cities.includes(g.city);
    const speaks = g.languages.some((l) => languages.includes(l));
    return { ...g, reason: inCity && speaks ? 'city_and_language' : inCity ? 'city' : 'language' };
  });
  if (result.length < limit) {
    const filler = await topRatedGuides(limit - result.length, { exclude: [...booked, ...result.map((g) => g.id)], locale }, db);
    result.push(...filler.map((g) => ({ ...g, reason: 'top_rated' as const })));
  }
  return result;
}
