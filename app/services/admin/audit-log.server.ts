import { and, count, desc, eq, like, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { auditLogs, users } from '~db/schema';
import type { AuditEntryView } from '~/lib/audit-details';
import { containsPattern } from '~/lib/search-text';
import { AUDIT_PAGE_SIZE, type AuditQuery } from '~/schemas/admin-logs';
import { paginate } from '../catalogue/guides.server';
import { partyCondition } from '../booking/order-filters.server';
import { assertAdmin } from '../accounts/user-admin.server';
import type { UserRow } from '../accounts/users.server';

/*
 * Reading the audit log (/admin/logs, issue 22). Read-only by design: the product has no way to change or delete
 * an entry (audit.server.ts only inserts).
 */

/** The one definition of the audit log filters (issue 22): /admin/logs and the audit log CSV export. */
export function auditConditions(query: Omit<AuditQuery, 'page'>): SQL | undefined {
  // "user." is every user action; anything else is one action.
  const action = query.action
    ? query.action.endsWith('.')
      ? like(auditLogs.action, `${containsPattern(query.action).slice(1)}`)
      : eq(auditLogs.action, query.action)
    : undefined;
  // The actor by name, e-mail or number (issue 35); a user who matches nothing finds no entry.
  const actor = query.actor ? partyCondition(users, query.actor) : undefined;
  return and(
    query.actorId ? eq(auditLogs.actorId, query.actorId) : undefined,
    actor ? sql`${auditLogs.actorId} in (select ${users.id} from ${users} where ${actor})` : undefined,
    action,
    query.targetType ? eq(auditLogs.targetType, query.targetType) : undefined,
    query.targetId ? eq(auditLogs.targetId, query.targetId) : undefined,
    query.from ? sql`${auditLogs.at} >= (${query.from}::date)::timestamp at time zone 'Asia/Taipei'` : undefined,
    query.to ? sql`${auditLogs.at} < ((${query.to}::date)::timestamp at time zone 'Asia/Taipei') + interval '1 day'` : undefined,
  );
}

export async function listAuditLog(actor: Pick<UserRow, 'type'>, query: AuditQuery, db: Database = getDb()) {
  assertAdmin(actor);
  const who = alias(users, 'actor');
  const where = auditConditions(query);
  const [rows, [total], actions] = await Promise.all([
    db
      .select({ entry: auditLogs, actorName: who.name })
      .from(auditLogs)
      .leftJoin(who, eq(who.id, auditLogs.actorId))
      .where(where)
      .orderBy(desc(auditLogs.at), desc(auditLogs.id))
      .limit(AUDIT_PAGE_SIZE)
      .offset((query.page - 1) * AUDIT_PAGE_SIZE),
    db.select({ n: count() }).from(auditLogs).where(where),
    // The actions that occur, for the filter's choices.
    db.selectDistinct({ action: auditLogs.action }).from(auditLogs).orderBy(auditLogs.action).limit(200),
  ]);
  return {
    entries: rows.map(({ entry, actorName }) => toAuditEntryView(entry, actorName)),
    pagination: paginate(query.page, AUDIT_PAGE_SIZE, total?.n ?? 0),
    actions: actions.map((a) => a.action),
  };
}

/** An audit row with its actor's name, as the admin's pages read it. */
export function toAuditEntryView(entry: typeof auditLogs.$inferSelect, actorName: string | null): AuditEntryView {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    action: entry.action,
    actorId: entry.actorId,
    actorName: actorName ?? null,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: (entry.details as Record<string, unknown> | null) ?? null,
  };
}
