import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { orders } from '~db/schema';
import { containsPattern, normaliseSearchText, VARIANTS } from '~/lib/search-text';
import type { AdminOrderFilters } from '~/schemas/admin-orders';

/*
 * The one definition of the admin order filters (issue 22): /admin/orders, GET /api/v1/orders for admins and
 * the orders CSV export all build their WHERE here, from the same parsed query (app/schemas/admin-orders.ts).
 * Callers join the traveler and the guide (aliases of users) and pass them in.
 */

/** A users alias (`alias(users, 'traveler')`): its columns go into SQL as they are. */
export type PartyTable = { id: unknown; name: unknown; email: unknown };
type Person = PartyTable;

const VARIANT_FROM = Object.keys(VARIANTS).join('');
const VARIANT_TO = Object.values(VARIANTS).join('');
const normalised = (column: SQL) => sql`translate(lower(normalize(${column}, NFKC)), ${VARIANT_FROM}, ${VARIANT_TO})`;

/** A party filter: a user number, or words that must all be in the name or e-mail (also the audit log's actor filter). */
export function partyCondition(person: Person, term: string): SQL | undefined {
  if (/^\d{1,9}$/.test(term.trim())) return sql`${person.id} = ${Number(term.trim())}`;
  const words = normaliseSearchText(term).split(' ').filter(Boolean).slice(0, 8);
  if (words.length === 0) return undefined;
  const name = normalised(sql`${person.name}`);
  const email = normalised(sql`${person.email}`);
  return and(...words.map((w) => sql`(${name} like ${containsPattern(w)} or ${email} like ${containsPattern(w)})`));
}

/** The start of a Taiwan day as a timestamp. */
const taipeiDayStart = (day: string) => sql`(${day}::date)::timestamp at time zone 'Asia/Taipei'`;

/** The orders matching the filters; deleted orders only with `deleted=only`, never otherwise. */
export function orderFilterConditions(query: Partial<AdminOrderFilters>, parties: { traveler: PartyTable; guide: PartyTable }): SQL | undefined {
  return and(
    query.deleted === 'only' ? isNotNull(orders.deletedAt) : isNull(orders.deletedAt),
    query.status ? eq(orders.status, query.status) : undefined,
    query.id ? eq(orders.id, query.id) : undefined,
    query.tourFrom ? sql`${orders.date} >= ${query.tourFrom}::date` : undefined,
    query.tourTo ? sql`${orders.date} <= ${query.tourTo}::date` : undefined,
    query.createdFrom ? sql`${orders.createdAt} >= ${taipeiDayStart(query.createdFrom)}` : undefined,
    query.createdTo ? sql`${orders.createdAt} < ${taipeiDayStart(query.createdTo)} + interval '1 day'` : undefined,
    query.guide ? partyCondition(parties.guide, query.guide) : undefined,
    query.traveler ? partyCondition(parties.traveler, query.traveler) : undefined,
  );
}
