import { z } from 'zod';

/**
 * Query of the admin user lists (SPEC §7 Users: GET /api/v1/users?page&limit&sortBy&sortOrder&type&search,
 * GET /api/v1/users/archived/list; §9 user list page size 20, max 100). Shared by the API routes and the
 * /admin/users pages, which read it from the URL's search params.
 *
 * - Empty values (`?type=&search=`, as a plain HTML GET form sends them) count as absent.
 * - Unknown parameters (the client's cache-busting `_t`, `r`, ...) are ignored.
 * - A limit above 100 is clamped to 100 (the answer's `pagination.limit` says what was used), so a client
 *   asking for "everything" still gets a page; a value that is not a whole number ≥ 1 (limit=0, page=abc),
 *   an unknown sortBy/sortOrder/type is a 400 VALIDATION_ERROR naming the field.
 */
export const USER_LIST_PAGE_SIZE = 20;
export const USER_LIST_MAX_LIMIT = 100;
/** Beyond this, a page number is a typo, not a page: it would only make the database skip rows. */
export const USER_LIST_MAX_PAGE = 100_000;

export const USER_SORT_FIELDS = ['registerDate', 'name', 'email', 'lastLogin', 'type', 'id'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];
export const SORT_ORDERS = ['asc', 'desc'] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
/** The account types (same list as db/schema USER_TYPES; repeated here so the browser bundle stays small). */
export const LISTED_USER_TYPES = ['traveler', 'guide', 'admin'] as const;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema.optional());

const wholeNumber = (max: number) =>
  z.coerce
    .number({ error: 'validation.invalid' })
    .int({ error: 'validation.invalid' })
    .min(1, { error: 'validation.invalid' })
    .max(max, { error: 'validation.invalid' });

export const userListQuerySchema = z.object({
  page: optional(wholeNumber(USER_LIST_MAX_PAGE)).transform((v) => v ?? 1),
  limit: optional(wholeNumber(Number.MAX_SAFE_INTEGER)).transform((v) =>
    Math.min(v ?? USER_LIST_PAGE_SIZE, USER_LIST_MAX_LIMIT),
  ),
  sortBy: optional(z.enum(USER_SORT_FIELDS, { error: 'validation.invalid' })).transform((v) => v ?? 'registerDate'),
  sortOrder: optional(z.enum(SORT_ORDERS, { error: 'validation.invalid' })).transform((v) => v ?? 'desc'),
  type: optional(z.enum(LISTED_USER_TYPES, { error: 'validation.invalid' })),
  search: optional(z.string({ error: 'validation.invalid' }).trim().max(100, { error: 'validation.invalid' })),
});

/** What the schema reads (raw search params). */
export type UserListQueryInput = z.input<typeof userListQuerySchema>;
/** What the services get: every default filled in. */
export type UserListQuery = z.output<typeof userListQuerySchema>;
