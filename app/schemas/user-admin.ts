import { z } from 'zod';
import { ACCOUNT_TYPES } from '~/lib/account-types';
import { optional, wholeNumber } from './field-rules';

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
/** The account types a list filters on: every kind (app/lib/account-types.ts). */
export const LISTED_USER_TYPES = ACCOUNT_TYPES;
/**
 * The SPEC's user status labels, as the admin screens derive them (docs/decisions/020-admin-user-states.md):
 * suspended = blocked; inactive = not blocked, email never verified; active = not blocked, email verified.
 */
export const ACCOUNT_STATES = ['active', 'inactive', 'suspended'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];
/** The roles an admin may give: never admin (an admin account is made outside the product). */
export const ASSIGNABLE_ROLES = ['traveler', 'guide'] as const;


export const userListQuerySchema = z.object({
  page: optional(wholeNumber(1, USER_LIST_MAX_PAGE)).transform((v) => v ?? 1),
  limit: optional(wholeNumber(1, Number.MAX_SAFE_INTEGER)).transform((v) =>
    Math.min(v ?? USER_LIST_PAGE_SIZE, USER_LIST_MAX_LIMIT),
  ),
  sortBy: optional(z.enum(USER_SORT_FIELDS, { error: 'validation.invalid' })).transform((v) => v ?? 'registerDate'),
  sortOrder: optional(z.enum(SORT_ORDERS, { error: 'validation.invalid' })).transform((v) => v ?? 'desc'),
  type: optional(z.enum(LISTED_USER_TYPES, { error: 'validation.invalid' })),
  status: optional(z.enum(ACCOUNT_STATES, { error: 'validation.invalid' })),
  search: optional(z.string({ error: 'validation.invalid' }).trim().max(100, { error: 'validation.invalid' })),
});

/** What the schema reads (raw search params). */
export type UserListQueryInput = z.input<typeof userListQuerySchema>;
/** What the services get: every default filled in. */
export type UserListQuery = z.output<typeof userListQuerySchema>;

/** The list pages' sort choices (a subset of USER_SORT_FIELDS: registration, last login, name). */
export const USER_PAGE_SORTS = ['registerDate', 'lastLogin', 'name'] as const;

/**
 * The actions of /admin/users/:id, one form each (intent). `role` goes with changeRole; `confirmed=yes` is the
 * second press of a destructive one (ConfirmDialog; without JS the first press answers the confirmation step).
 */
export const ADMIN_USER_INTENTS = ['block', 'unblock', 'archive', 'restore', 'endSessions', 'resendVerification', 'changeRole'] as const;
export type AdminUserIntent = (typeof ADMIN_USER_INTENTS)[number];
/** The actions that ask first. */
export const CONFIRMED_USER_INTENTS: readonly AdminUserIntent[] = ['block', 'archive', 'endSessions', 'changeRole'];

export const adminUserActionSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.enum(['block', 'unblock', 'archive', 'restore', 'endSessions', 'resendVerification'], { error: 'validation.invalid' }),
    confirmed: z.string().optional(),
  }),
  z.object({
    intent: z.literal('changeRole'),
    role: z.enum(ASSIGNABLE_ROLES, { error: 'validation.invalid' }),
    confirmed: z.string().optional(),
  }),
]);
export type AdminUserAction = z.output<typeof adminUserActionSchema>;
