import { z } from 'zod';
import { daysBetween, STATS_MAX_DAYS, STATS_PRESETS } from '~/lib/stats-range';

/**
 * /admin/stats and GET /api/v1/admin/stats (issue 22): the period, from the URL of a plain GET form or an API
 * query. `range` is one of the presets (7d, 30d, 90d, year); `from` and `to` are Taiwan days (YYYY-MM-DD, both
 * included; one without the other is refused) and, when given, win over `range`. Nothing given: the last 30
 * days. A period that ends before it starts, or is longer than two years, is refused on `to`.
 */
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());
const day = z.iso.date({ error: 'validation.invalid' });

export const statsQuerySchema = z
  .object({
    range: optional(z.enum(STATS_PRESETS, { error: 'validation.invalid' })),
    from: optional(day),
    to: optional(day),
  })
  .superRefine((q, ctx) => {
    if (q.from && !q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'stats.errors.bothDates' });
    if (q.to && !q.from) ctx.addIssue({ code: 'custom', path: ['from'], message: 'stats.errors.bothDates' });
    if (!q.from || !q.to) return;
    if (q.from > q.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'stats.errors.toBeforeFrom' });
    else if (daysBetween(q.from, q.to) > STATS_MAX_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: 'stats.errors.tooLong' });
  });
export type StatsQuery = z.output<typeof statsQuerySchema>;

const count = z.number().int().min(0);
const ntd = z.number().int().min(0).describe('New Taiwan dollars');

export const adminStatsData = z.object({
  range: z.object({ from: z.iso.date(), to: z.iso.date(), days: count, preset: z.enum(STATS_PRESETS).nullable() }),
  totals: z.object({ bookings: count, grossValue: ntd, newUsers: count }),
  bookingsPerDay: z
    .array(z.object({ day: z.iso.date(), bookings: count, grossValue: ntd }))
    .describe('Every Taiwan day of the period: orders made that day (not deleted) and the value of those not cancelled or refunded'),
  grossPerMonth: z.array(z.object({ month: z.string().describe('YYYY-MM'), bookings: count, grossValue: ntd })),
  newUsersPerWeek: z
    .array(z.object({ week: z.iso.date().describe('The Monday that starts the Taiwan week'), traveler: count, guide: count, admin: count }))
    .describe('Accounts registered in the period (not archived), per week and role'),
  ordersByStatus: z
    .object({ pending: count, confirmed: count, completed: count, cancelled: count, refunded: count })
    .describe('Orders made in the period (not deleted) by their status now'),
  topCities: z.array(z.object({ city: z.string().nullable(), bookings: count })).describe('The ten guide cities with the most bookings'),
  topGuides: z.array(z.object({ guideId: z.number().int(), name: z.string(), bookings: count })).describe('The ten guides with the most bookings'),
  ratingDistribution: z.array(z.object({ rating: z.number().int().min(1).max(5), count })).describe('Travelers’ visible reviews of guides written in the period'),
  funnel: z
    .object({ guidePageViews: count, bookingFormViews: count, orders: count, completed: count })
    .describe('Guide page views → booking form views → orders made → of those, completed (views counted by the product, docs/decisions/025)'),
});
export type AdminStats = z.output<typeof adminStatsData>;
