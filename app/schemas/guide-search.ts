import { z } from 'zod';
import { CITY_CODES, normaliseCity } from '~/lib/cities';
import { LANGUAGE_CODES, normaliseLanguage } from '~/lib/languages';
import {
  activeFilters,
  FILTER_KEYS,
  GUIDE_SEARCH_PAGE_SIZE,
  GUIDE_SORTS,
  searchParamsOf,
  SEARCH_TIME_SLOTS,
  type FilterKey,
  type GuideSort,
} from '~/lib/guide-search-params';
import { INPUT_SCHEMA, optional, textField, wholeNumber } from './field-rules';

export { activeFilters, FILTER_KEYS, GUIDE_SEARCH_PAGE_SIZE, GUIDE_SORTS, searchParamsOf, SEARCH_TIME_SLOTS, type FilterKey, type GuideSort };

/**
 * The guide search (SPEC §2 guide search, §7 GET /api/v1/guides, §9 page size 10, max 100): one schema read by
 * the /guides page (from its URL, a plain GET form) and by GET /api/v1/guides, so a search can be shared as a
 * link and gives the same guides on both.
 *
 * - Empty values (`?city=&keyword=`, as a GET form sends them) count as absent; unknown parameters are ignored.
 * - A city or language may be written as a name in any of the three languages (台北, Taipei, 日本語).
 * - `limit` above 100 is clamped to 100; a value that is not a whole number ≥ 1 is a VALIDATION_ERROR.
 * - `timeSlot` narrows `date`; without a date it is ignored.
 */
export const GUIDE_SEARCH_MAX_LIMIT = 100;
export const GUIDE_SEARCH_MAX_PAGE = 100_000;
export const KEYWORD_MAX = 100;



const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (v: string) => {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
};

export const guideSearchSchema = z
  .object({
    city: optional(
      z.preprocess((v) => normaliseCity(v) ?? v, z.enum(CITY_CODES, { error: 'validation.cityUnknown' })),
    ).meta({ [INPUT_SCHEMA]: { type: 'string', description: 'a city code or a city name in zh-TW, en or ja' } }),
    language: optional(
      z.preprocess((v) => normaliseLanguage(v) ?? v, z.enum(LANGUAGE_CODES, { error: 'validation.languageUnknown' })),
    ).meta({ [INPUT_SCHEMA]: { type: 'string', description: 'a language code, BCP 47 tag or name' } }),
    minPrice: optional(wholeNumber(0, 1_000_000)),
    maxPrice: optional(wholeNumber(0, 1_000_000)),
    minRating: optional(
      z.coerce
        .number({ error: 'validation.invalid' })
        .min(0, { error: 'validation.invalid' })
        .max(5, { error: 'validation.invalid' })
        // Ratings are kept as `real`: a double like 5e-158 is out of its range (a 500, issue 21); hundredths suffice.
        .transform((v) => Math.round(v * 100) / 100),
    ),
    keyword: optional(
      textField('validation.invalid')
        .normalize('NFKC')
        .trim()
        .max(KEYWORD_MAX, { error: 'search.validation.keywordTooLong' }),
    ),
    date: optional(
      z
        .string({ error: 'search.validation.date' })
        .trim()
        .refine((v) => ISO_DATE.test(v) && isRealDate(v), { error: 'search.validation.date' }),
    ),
    timeSlot: optional(z.enum(SEARCH_TIME_SLOTS, { error: 'validation.invalid' })),
    sort: optional(z.enum(GUIDE_SORTS, { error: 'validation.invalid' })).transform((v) => v ?? 'newest'),
    page: optional(wholeNumber(1, GUIDE_SEARCH_MAX_PAGE)).transform((v) => v ?? 1),
    limit: optional(wholeNumber(1, Number.MAX_SAFE_INTEGER)).transform((v) =>
      Math.min(v ?? GUIDE_SEARCH_PAGE_SIZE, GUIDE_SEARCH_MAX_LIMIT),
    ),
  })
  .superRefine((v, ctx) => {
    if (v.minPrice !== undefined && v.maxPrice !== undefined && v.maxPrice < v.minPrice) {
      ctx.addIssue({ code: 'custom', path: ['maxPrice'], message: 'search.validation.priceRange' });
    }
  })
  .transform((v) => (v.date ? v : { ...v, timeSlot: undefined }));

export type GuideSearchInput = z.input<typeof guideSearchSchema>;
export type GuideSearch = z.output<typeof guideSearchSchema>;

/** Suggestions under the keyword box (GET /api/v1/guides/suggestions, SPEC §5; §9 default 10). */
export const SUGGESTION_TYPES = ['all', 'guide', 'city'] as const;
export const suggestionQuerySchema = z.object({
  type: optional(z.enum(SUGGESTION_TYPES, { error: 'validation.invalid' })).transform((v) => v ?? 'all'),
  query: z
    .preprocess((v) => (v === undefined || v === null ? '' : v), textField('validation.invalid').normalize('NFKC').trim().max(KEYWORD_MAX, { error: 'search.validation.keywordTooLong' })),
  limit: optional(wholeNumber(1, Number.MAX_SAFE_INTEGER)).transform((v) => Math.min(v ?? 10, 20)),
});
export type SuggestionQuery = z.output<typeof suggestionQuerySchema>;

export interface Suggestion {
  type: 'guide' | 'city';
  /** What the keyword box gets when it is chosen. */
  value: string;
  label: string;
  /** The guide's id or the city code. */
  id: number | string;
}
