import { and, desc, eq, lt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { auditLogs, orders, reviews, users } from '~db/schema';
import type { AuditQuery } from '~/schemas/admin-logs';
import type { AdminOrderFilters } from '~/schemas/admin-orders';
import type { UserListQuery } from '~/schemas/user-admin';
import { recordAudit } from '../platform/audit.server';
import { auditConditions } from './audit-log.server';
import { orderFilterConditions } from '../booking/order-filters.server';
import { reviewSearchCondition, reviewTables } from '../booking/reviews.server';
import { assertAdmin, userListConditions } from '../accounts/user-admin.server';
import type { UserRow } from '../accounts/users.server';

/*
 * The admin CSV exports (issue 22, docs/decisions/027-csv-exports.md): users, orders, reviews and the audit log,
 * with the very filters of their list pages (the same WHERE builders). Each export is read from the database a
 * page of EXPORT_PAGE_ROWS at a time by keyset on the id (newest first: `id < last id of the previous page`), so
 * neither the database nor this process ever holds the whole result, and a row written meanwhile cannot shift a
 * page (no OFFSET). app/http/csv.server.ts turns the pages into the streamed file.
 *
 * The admin check runs when the export is asked for, before the first byte; the pages are read lazily.
 * Each export asked for is audited then (issue 31): `export.<kind>` by the admin, with the filters it applied.
 */

export const EXPORT_PAGE_ROWS = 1000;

export type CsvCell = string | number | boolean | null;
export type CsvRecord = Record<string, CsvCell>;

/**
 * What a column's codes mean (issue 35): the file shows the label the admin sees on the pages, in the admin's
 * language (app/http/csv.server.ts looks them up); ids and numbers stay as they are, for machines.
 */
export type CsvValueKind = 'orderStatus' | 'timeSlot' | 'city' | 'role' | 'accountState' | 'yesNo' | 'reviewRole' | 'auditAction' | 'auditTarget';

export interface CsvExport {
  /** File name stem and the i18n group of the column headers (`exports.columns.<kind>.<column>`). */
  kind: 'users' | 'orders' | 'reviews' | 'logs' | 'payouts';
  columns: readonly string[];
  /** The columns written as labels instead of codes. */
  labels?: Readonly<Record<string, CsvValueKind>>;
  /** Where the column headers are when not under `exports.columns.<kind>` (the finance area's are in `admin`). */
  headerPrefix?: string;
  pages: () => AsyncGenerator<CsvRecord[]>;
}

type Exporter = Pick<UserRow, 'id' | 'type'>;

/** Records who asked for which export with which filters (the values given; absent ones left out). */
export async function audited(actor: Exporter, exp: CsvExport, filters: Record<string, unknown>, db: Database): Promise<CsvExport> {
  const given = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  await recordAudit({ actorId: actor.id, action: `export.${exp.kind}`, details: { filters: given } }, db);
  return exp;
}

/** A timestamp as Taiwan wall-clock text, the way a spreadsheet reads a date (the header says the zone). */
const taipei = (column: unknown) => sql<string | null>`to_char(${column} at time zone 'Asia/Taipei', 'YYYY-MM-DD HH24:MI:SS')`;

/** Reads `page(cursor)` until a short page: the cursor is the last id read. */
export async function* keyset<R extends { id: number }>(page: (before: SQL | undefined) => Promise<R[]>, idColumn: unknown): AsyncGenerator<R[]> {
  let last: number | undefined;
  for (;;) {
    const rows = await page(last === undefined ? undefined : lt(idColumn as typeof orders.id, last));
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_PAGE_ROWS) return;
    last = rows[rows.length - 1]!.id;
  }
}

const USER_COLUMNS = ['id', 'name', 'email', 'type', 'state', 'emailVerified', 'idVerified', 'city', 'registered', 'lastLogin', 'blocked', 'archived'] as const;

/** Users (not archived, or archived with `archived`), filtered as /admin/users; sorting does not apply (id order). */
export async function exportUsers(
  actor: Exporter,
  filters: Pick<UserListQuery, 'type' | 'status' | 'search'>,
  archived = false,
  db: Database = getDb(),
): Promise<CsvExport> {
  assertAdmin(actor);
  const where = userListConditions(archived, filters);
  const exp: CsvExport = {
    kind: 'users',
    columns: USER_COLUMNS,
    labels: { type: 'role', state: 'accountState', emailVerified: 'yesNo', idVerified: 'yesNo', city: 'city' },
    pages: () =>
      keyset(
        (before) =>
          db
            .select({
              id: users.id,
              name: users.name,
              email: users.email,
              type: users.type,
              state: sql<string>`case when ${users.blockedAt} is not null then 'suspended' when ${users.isEmailVerified} then 'active' else 'inactive' end`,
              emailVerified: users.isEmailVerified,
              idVerified: users.isIdVerified,
              city: users.city,
              registered: taipei(users.registerDate),
              lastLogin: taipei(users.lastLogin),
              blocked: taipei(users.blockedAt),
              archived: taipei(users.deletedAt),
            })
            .from(users)
            .where(and(where, before))
            .orderBy(desc(users.id))
            .limit(EXPORT_PAGE_ROWS),
        users.id,
      ),
  };
  return audited(actor, exp, { ...filters, archived: archived ? 'only' : undefined }, db);
}

const ORDER_COLUMNS = [
  'id', 'status', 'date', 'timeSlot', 'people', 'total', 'travelerId', 'traveler', 'travelerEmail', 'guideId', 'guide', 'guideEmail', 'created', 'deleted',
] as const;

/** Orders filtered as /admin/orders. */
export async function exportOrders(actor: Exporter, filters: Partial<AdminOrderFilters>, db: Database = getDb()): Promise<CsvExport> {
  assertAdmin(actor);
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  const where = orderFilterConditions(filters, { traveler, guide });
  const exp: CsvExport = {
    kind: 'orders',
    columns: ORDER_COLUMNS,
    labels: { status: 'orderStatus', timeSlot: 'timeSlot' },
    pages: () =>
      keyset(
        (before) =>
          db
            .select({
              id: orders.id,
              status: orders.status,
              date: orders.date,
              timeSlot: orders.timeSlot,
              people: orders.numberOfPeople,
              total: orders.totalPrice,
              travelerId: orders.travelerId,
              traveler: traveler.name,
              travelerEmail: traveler.email,
              guideId: orders.guideId,
              guide: guide.name,
              guideEmail: guide.email,
              created: taipei(orders.createdAt),
              deleted: taipei(orders.deletedAt),
            })
            .from(orders)
            .innerJoin(traveler, eq(traveler.id, orders.travelerId))
            .innerJoin(guide, eq(guide.id, orders.guideId))
            .where(and(where, before))
            .orderBy(desc(orders.id))
            .limit(EXPORT_PAGE_ROWS),
        orders.id,
      ),
  };
  return audited(actor, exp, filters, db);
}

const REVIEW_COLUMNS = ['id', 'orderId', 'rating', 'comment', 'role', 'reviewerId', 'reviewer', 'revieweeId', 'reviewee', 'hidden', 'hiddenReason', 'created'] as const;

/** Reviews (hidden ones too) matching the /admin/reviews search. */
export async function exportReviews(actor: Exporter, filters: { keyword?: string }, db: Database = getDb()): Promise<CsvExport> {
  assertAdmin(actor);
  const { reviewer, reviewee } = reviewTables;
  const where = reviewSearchCondition(filters);
  const exp: CsvExport = {
    kind: 'reviews',
    columns: REVIEW_COLUMNS,
    labels: { role: 'reviewRole', hidden: 'yesNo' },
    pages: () =>
      keyset(
        (before) =>
          db
            .select({
              id: reviews.id,
              orderId: reviews.orderId,
              rating: reviews.rating,
              comment: reviews.comment,
              role: reviews.role,
              reviewerId: reviews.reviewerId,
              reviewer: reviewer.name,
              revieweeId: reviews.revieweeId,
              reviewee: reviewee.name,
              hidden: reviews.isHidden,
              hiddenReason: reviews.hiddenReason,
              created: taipei(reviews.createdAt),
            })
            .from(reviews)
            .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId))
            .innerJoin(reviewee, eq(reviewee.id, reviews.revieweeId))
            .where(and(where, before))
            .orderBy(desc(reviews.id))
            .limit(EXPORT_PAGE_ROWS),
        reviews.id,
      ),
  };
  return audited(actor, exp, filters, db);
}

const LOG_COLUMNS = ['id', 'at', 'action', 'actorId', 'actor', 'targetType', 'targetId', 'ip', 'details'] as const;

/** Audit log entries filtered as /admin/logs; `details` as JSON text, the client address (logins) on its own. */
export async function exportAuditLog(actor: Exporter, filters: Omit<AuditQuery, 'page'>, db: Database = getDb()): Promise<CsvExport> {
  assertAdmin(actor);
  const who = alias(users, 'actor');
  const where = auditConditions(filters);
  const exp: CsvExport = {
    kind: 'logs',
    columns: LOG_COLUMNS,
    labels: { action: 'auditAction', targetType: 'auditTarget' },
    pages: () =>
      keyset(
        (before) =>
          db
            .select({
              id: auditLogs.id,
              at: taipei(auditLogs.at),
              action: auditLogs.action,
              actorId: auditLogs.actorId,
              actor: who.name,
              targetType: auditLogs.targetType,
              targetId: auditLogs.targetId,
              ip: sql<string | null>`${auditLogs.details} ->> 'ip'`,
              details: sql<string | null>`${auditLogs.details}::text`,
            })
            .from(auditLogs)
            .leftJoin(who, eq(who.id, auditLogs.actorId))
            .where(and(where, before))
            .orderBy(desc(auditLogs.id))
            .limit(EXPORT_PAGE_ROWS),
        auditLogs.id,
      ),
  };
  return audited(actor, exp, filters, db);
}
