/*
 * The guide search's plain parts, shared by the page (in the browser) and the schema (app/schemas/guide-search.ts):
 * kept apart from zod so the search page's browser code stays small (issue 8: first-load JS).
 */
import { TIME_SLOTS } from './time-slots';

export const GUIDE_SEARCH_PAGE_SIZE = 10;
export const GUIDE_SORTS = ['newest', 'oldest', 'price_asc', 'price_desc', 'rating_desc', 'rating_asc'] as const;
export type GuideSort = (typeof GUIDE_SORTS)[number];
/** The search form's slots: the one list of app/lib/time-slots.ts. */
export const SEARCH_TIME_SLOTS = TIME_SLOTS;

/** The filters of a search (what narrows the list), without sort and paging. */
export const FILTER_KEYS = ['keyword', 'city', 'language', 'minPrice', 'maxPrice', 'minRating', 'date', 'timeSlot'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

/** The search as URL parameters in a fixed order, defaults left out: the same search always writes the same link. */
export function searchParamsOf(search: Partial<Record<string, unknown>>, overrides: Partial<Record<string, string | number | undefined>> = {}): URLSearchParams {
  const merged: Record<string, unknown> = { ...search, ...overrides };
  const params = new URLSearchParams();
  for (const key of [...FILTER_KEYS, 'sort', 'page', 'limit'] as const) {
    const value = merged[key];
    if (value === undefined || value === null || value === '') continue;
    if (key === 'sort' && value === 'newest') continue;
    if (key === 'page' && Number(value) === 1) continue;
    if (key === 'limit' && Number(value) === GUIDE_SEARCH_PAGE_SIZE) continue;
    params.set(key, String(value));
  }
  return params;
}

/** The filters in use, for the history and the no-results message. */
export function activeFilters(search: Partial<Record<FilterKey, unknown>>): FilterKey[] {
  return FILTER_KEYS.filter((k) => search[k] !== undefined && search[k] !== '');
}
