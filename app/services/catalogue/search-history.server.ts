import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { searchHistory } from '~db/schema';
import { activeFilters, searchParamsOf, type GuideSearch } from '~/schemas/guide-search';

/* A logged-in person's search history (SPEC §4, §9: the last 20, newest first, no duplicates). */

export const SEARCH_HISTORY_SIZE = 20;

export interface SearchHistoryEntry {
  query: string;
  filters: Record<string, string | number>;
  /** The search as a /guides query string (without sort and page). */
  search: string;
  createdAt: string;
}

/** What a search is, for the history: its keyword and filters; sort and page are how it is read, not what. */
function entryOf(search: Partial<GuideSearch>) {
  const filters: Record<string, string | number> = {};
  for (const key of activeFilters(search)) {
    if (key === 'keyword') continue;
    filters[key] = search[key] as string | number;
  }
  const query = search.keyword ?? '';
  const key = searchParamsOf({ keyword: query || undefined, ...filters }).toString();
  return { query, filters, key };
}

/** Records a search (a search with no keyword and no filter is not one); the same search again moves to the top. */
export async function recordSearch(userId: number, search: Partial<GuideSearch>, db: Database = getDb()): Promise<void> {
  const entry = entryOf(search);
  if (!entry.key) return;
  await db.transaction(async (tx) => {
    await tx
      .insert(searchHistory)
      .values({ userId, ...entry })
      .onConflictDoUpdate({ target: [searchHistory.userId, searchHistory.key], set: { createdAt: sql`now()` } });
    const keep = tx
      .select({ id: searchHistory.id })
      .from(searchHistory)
      .where(eq(searchHistory.userId, userId))
      .orderBy(desc(searchHistory.createdAt), desc(searchHistory.id))
      .limit(SEARCH_HISTORY_SIZE);
    await tx.delete(searchHistory).where(and(eq(searchHistory.userId, userId), notInArray(searchHistory.id, keep)));
  });
}

export async function listSearchHistory(userId: number, db: Database = getDb()): Promise<SearchHistoryEntry[]> {
  const rows = await db
    .select()
    .from(searchHistory)
    .where(eq(searchHistory.userId, userId))
    .orderBy(desc(searchHistory.createdAt), desc(searchHistory.id))
    .limit(SEARCH_HISTORY_SIZE);
  return rows.map((r) => ({ query: r.query, filters: r.filters, search: r.key, createdAt: r.createdAt.toISOString() }));
}

export async function clearSearchHistory(userId: number, db: Database = getDb()): Promise<void> {
  await db.delete(searchHistory).where(eq(searchHistory.userId, userId));
}
