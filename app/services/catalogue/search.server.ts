import { and, asc, count, desc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import { getDb } from '~db/client';
import { availabilitySlots, users } from '~db/schema';
import { CITY_ALIASES, CITY_CODES } from '~/lib/cities';
import { bookingHorizon } from '~/lib/time-slots';
import { CITY_NAME_GAP, cityTerm, containsPattern, namesContaining, normaliseSearchText, searchTerms } from '~/lib/search-text';
import type { GuideSearch, Suggestion, SuggestionQuery } from '~/schemas/guide-search';
import type { GuideCard } from '~/schemas/guide-card';
import { cachedCatalogueRead } from './catalogue-cache.server';
import { bookableSlotCondition } from './availability.server';
import { now as clockNow } from '../platform/clock.server';
import { publishableGuide } from './guide-publishable.server';
import { guideCardColumns, paginate, toCards, type Pagination } from './guides.server';

/* Guide search (issue 9): one service for /guides and GET /api/v1/guides. */

function searchWhere(search: GuideSearch, now: Date): SQL {
  const conditions: (SQL | undefined)[] = [publishableGuide];
  if (search.city) conditions.push(eq(users.city, search.city));
  if (search.language) conditions.push(sql`${users.language} @> array[${search.language}]::text[]`);
  if (search.minPrice !== undefined) conditions.push(gte(users.price, search.minPrice));
  if (search.maxPrice !== undefined) conditions.push(lte(users.price, search.maxPrice));
  if (search.minRating !== undefined && search.minRating > 0) conditions.push(gte(users.ratingAverage, search.minRating));
  for (const term of searchTerms(search.keyword)) conditions.push(keywordCondition(term));
  if (search.date) {
    const slot = search.timeSlot ? eq(availabilitySlots.timeSlot, search.timeSlot) : undefined;
    conditions.push(
      sql`exists (select 1 from ${availabilitySlots} where ${availabilitySlots.guideId} = ${users.id}
        and ${availabilitySlots.date} = ${search.date} and ${and(bookableSlotCondition(now), slot)})`,
    );
  }
  return and(...conditions)!;
}

/**
 * One term of `searchTerms`, as `matchesKeyword` (app/lib/search-text.ts) reads it: the term anywhere in the
 * normalised text, or, for a term naming a city, any of that city's names where it is not part of another
 * city's name (Taipei finds what 台北 finds, and not New Taipei's ニュータイペイ or 'new taipei').
 */
function keywordCondition(term: string): SQL {
  const city = cityTerm(term);
  if (!city) return textContains(term);
  return or(
    ...city.names.map((name) => {
      const hiding = namesContaining(city, name);
      if (hiding.length === 0) return textContains(name);
      // The index finds the candidates; the other cities' names are then taken out, in the same order as in JS.
      const rest = hiding.reduce<SQL>((text, other) => sql`replace(${text}, ${other}, ${CITY_NAME_GAP})`, sql`${users.searchText}`);
      return and(textContains(name), sql`${rest} like ${containsPattern(name)} escape '\\'`)!;
    }),
  )!;
}

/**
 * A word anywhere in the normalised text. The pg_trgm GIN index serves `like` from 3 characters on; a word of
 * exactly 2 characters (台北, 美食) has no trigram, so the stored bigrams' GIN index finds it (a 2-character
 * word is in the text exactly when it is one of its bigrams). One character stays a plain scan.
 */
function textContains(term: string): SQL {
  const like = sql`${users.searchText} like ${containsPattern(term)} escape '\\'`;
  return [...term].length === 2 ? and(sql`${users.searchBigrams} @> array[${term}]::text[]`, like)! : like;
}

/** Every order ends with the id, so equal prices or ratings never make a guide repeat or vanish between pages. */
function searchOrder(sort: GuideSearch['sort']): SQL[] {
  switch (sort) {
    case 'oldest':
      return [asc(users.registerDate), asc(users.id)];
    case 'price_asc':
      return [asc(users.price), asc(users.id)];
    case 'price_desc':
      return [desc(users.price), asc(users.id)];
    case 'rating_desc':
      return [sql`${users.ratingAverage} desc nulls last`, desc(users.ratingCount), asc(users.id)];
    case 'rating_asc':
      return [sql`${users.ratingAverage} asc nulls last`, asc(users.ratingCount), asc(users.id)];
    default:
      return [desc(users.registerDate), desc(users.id)];
  }
}

export interface GuideSearchResult {
  guides: GuideCard[];
  pagination: Pagination;
}

/**
 * One page of publishable guides matching the search. A page past the end is empty, with the true
 * `totalPages` (the /guides page redirects to the last page; the API answers the empty page).
 */
export function searchGuides(search: GuideSearch, options: { locale?: string } = {}): Promise<GuideSearchResult> {
  const locale = options.locale ?? 'zh-TW';
  // Cards say which day is next bookable and the date filter finds bookable slots, so the answer depends on which
  // slots still take bookings: the horizon changes at each slot's cutoff and is part of the key.
  const now = clockNow();
  const key = `search:${locale}:${bookingHorizon(now).key}:${JSON.stringify(search)}`;
  return cachedCatalogueRead(key, () => runSearch(search, locale, now));
}

async function runSearch(search: GuideSearch, locale: string, now: Date): Promise<GuideSearchResult> {
  const db = getDb();
  const where = searchWhere(search, now);
  // One pass over the matches gives the page and the total (a separate count(*) ran the whole match twice).
  const rows = await db
    .select({ ...guideCardColumns(), total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(users)
    .where(where)
    .orderBy(...searchOrder(search.sort))
    .limit(search.limit)
    .offset((search.page - 1) * search.limit);
  // A page past the end has no row to carry the total: count on its own (only then).
  const total =
    rows[0]?.total ?? (search.page > 1 ? ((await db.select({ total: count() }).from(users).where(where))[0]?.total ?? 0) : 0);
  return {
    guides: await toCards(
      rows.map(({ total: _total, ...row }) => row),
      locale,
    ),
    pagination: paginate(search.page, search.limit, total),
  };
}

/** City names people type, normalised, with the city they name (for suggestions). */
const CITY_SUGGESTIONS = CITY_CODES.flatMap((code) =>
  [code.replace(/_/gu, ' '), ...CITY_ALIASES[code]].map((alias) => ({ code, key: normaliseSearchText(alias) })),
);

/**
 * Suggestions under the keyword box (SPEC §5): guide names and cities that contain what was typed.
 * A blank query gives none. City labels are written by the caller's translator (`cityName`).
 */
export async function suggest(query: SuggestionQuery, cityName: (code: string) => string): Promise<Suggestion[]> {
  const text = normaliseSearchText(query.query);
  if (!text) return [];
  const out: Suggestion[] = [];
  if (query.type !== 'guide') {
    const seen = new Set<string>();
    for (const c of CITY_SUGGESTIONS) {
      if (seen.has(c.code) || !c.key.includes(text)) continue;
      seen.add(c.code);
      out.push({ type: 'city', id: c.code, value: cityName(c.code), label: cityName(c.code) });
    }
  }
  if (query.type !== 'city') {
    const rows = await getDb()
      .select({ id: users.id, name: users.name, city: users.city })
      .from(users)
      .where(and(publishableGuide, keywordCondition(text)))
      .orderBy(sql`${users.ratingAverage} desc nulls last`, asc(users.id))
      .limit(query.limit * 5);
    // The search text also holds descriptions: keep the guides whose name itself contains the query.
    for (const r of rows.filter((row) => normaliseSearchText(row.name).includes(text))) out.push({ type: 'guide', id: r.id, value: r.name, label: r.city ? `${r.name} · ${cityName(r.city)}` : r.name });
  }
  return out.slice(0, query.limit);
}
