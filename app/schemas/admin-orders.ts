import { z } from 'zod';
import { ORDER_STATUS_VALUES, orderListQuerySchema } from './orders';

/**
 * /admin/orders (issue 22): the list's filters, read from the URL of a plain GET form. Empty values count as
 * absent; dates are Taiwan days (YYYY-MM-DD); `guide` and `traveler` match a name or e-mail (CJK-aware, like the
 * user search) or are a user number; `deleted=only` lists the deleted orders instead. 20 a page (SPEC §9).
 */
export const ADMIN_ORDER_PAGE_SIZE = 20;

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());
const day = z.iso.date({ error: 'validation.invalid' });
const whole = (max: number) =>
  z.coerce.number({ error: 'validation.invalid' }).int({ error: 'validation.invalid' }).min(1, { error: 'validation.invalid' }).max(max, { error: 'validation.invalid' });

/** The filters alone: the list page, GET /api/v1/orders (admins) and the CSV export read these same fields. */
export const adminOrderFilterSchema = z.object({
  status: optional(z.enum(ORDER_STATUS_VALUES, { error: 'validation.invalid' })),
  tourFrom: optional(day),
  tourTo: optional(day),
  createdFrom: optional(day),
  createdTo: optional(day),
  guide: optional(z.string().trim().max(100, { error: 'validation.invalid' })),
  traveler: optional(z.string().trim().max(100, { error: 'validation.invalid' })),
  id: optional(z.preprocess((v) => (typeof v === 'string' ? v.replace(/^#/, '') : v), whole(2_147_483_647))),
  deleted: optional(z.literal('only', { error: 'validation.invalid' })),
});
export type AdminOrderFilters = z.output<typeof adminOrderFilterSchema>;

/** The date ranges of the filters, each as its first and last day. */
export const ORDER_FILTER_RANGES = [
  ['tourFrom', 'tourTo'],
  ['createdFrom', 'createdTo'],
] as const;

/**
 * A date range typed backwards (from after to) is refused, with the message on the range's end (issue 35: it
 * silently found nothing): the page says so next to the fields and keeps what was typed; the API and the export
 * answer 400 naming the field. Days are YYYY-MM-DD, so text order is date order. Applied to each finished schema
 * (a refined zod object cannot be extended).
 */
export function rangesInOrder<S extends z.ZodType<Partial<Record<(typeof ORDER_FILTER_RANGES)[number][number], string | undefined>>>>(schema: S): S {
  return schema.superRefine((query, ctx) => {
    for (const [from, to] of ORDER_FILTER_RANGES) {
      const [start, end] = [query[from], query[to]];
      if (start && end && start > end) ctx.addIssue({ code: 'custom', path: [to], message: 'admin.orders.errors.rangeReversed' });
    }
  }) as S;
}

export const adminOrderQuerySchema = rangesInOrder(
  adminOrderFilterSchema.extend({
    page: optional(whole(100_000)).transform((v) => v ?? 1),
  }),
);
export type AdminOrderQuery = z.output<typeof adminOrderQuerySchema>;

/**
 * GET /api/v1/orders: page, limit and status for everyone; an admin may also filter as /admin/orders does
 * (a traveler's or guide's own view ignores the admin filters).
 */
export const orderApiQuerySchema = rangesInOrder(orderListQuerySchema.extend(adminOrderFilterSchema.omit({ status: true }).shape));
export type OrderApiQuery = z.output<typeof orderApiQuerySchema>;

/** The admin's actions on an order (one form each); the destructive ones ask first (`confirmed=yes`). */
export const ADMIN_ORDER_INTENTS = ['cancel', 'refund', 'delete', 'restore'] as const;
export type AdminOrderIntent = (typeof ADMIN_ORDER_INTENTS)[number];
export const ORDER_REASON_MAX = 500;
export const ORDER_NOTE_MAX = 2000;

export const adminOrderActionSchema = z.discriminatedUnion('intent', [
  // Cancelling and refunding move money (issue 32): each says why, kept in the audit log.
  z.object({
    intent: z.enum(['cancel', 'refund']),
    reason: z.string({ error: 'validation.requiredFields' }).trim().min(1, { error: 'validation.requiredFields' }).max(ORDER_REASON_MAX, { error: 'validation.invalid' }),
    confirmed: z.string().optional(),
  }),
  z.object({ intent: z.enum(['delete', 'restore'], { error: 'validation.invalid' }), confirmed: z.string().optional() }),
  z.object({
    intent: z.literal('note'),
    body: z.string({ error: 'validation.requiredFields' }).trim().min(1, { error: 'validation.requiredFields' }).max(ORDER_NOTE_MAX, { error: 'validation.invalid' }),
  }),
]);
export type AdminOrderAction = z.output<typeof adminOrderActionSchema>;
