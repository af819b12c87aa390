import { getDb, type Database } from '~db/client';
import { auditLogs } from '~db/schema';
import type { AuditAction } from '~/lib/audit-actions';

export type { AuditAction } from '~/lib/audit-actions';

/**
 * The audit trail (ARCHITECTURE §4 audit_logs): who did what to which record, for /admin/logs. Written in
 * the same transaction as the change it describes, so a rolled-back change leaves no trace and a committed
 * one always has its row.
 */
/**
 * The actions that record an admin seeing what is private to others (issue 31), not a change: exports, reading a
 * conversation they take no part in, opening an ID document.
 */
export const READ_AUDIT_ACTIONS = [
  'export.users',
  'export.orders',
  'export.reviews',
  'export.logs',
  'export.payouts',
  'chat.read',
  'id_verification.document_view',
] as const satisfies readonly AuditAction[];

export interface AuditEntry {
  /** The person who acted; null for the system (seed, scheduled jobs). */
  actorId: number | null;
  action: AuditAction;
  targetType?: string;
  targetId?: string | number;
  details?: Record<string, unknown>;
}

export async function recordAudit(entry: AuditEntry, db: Database = getDb()): Promise<void> {
  await db.insert(auditLogs).values({
    actorId: entry.actorId,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId === undefined ? null : String(entry.targetId),
    details: entry.details ?? null,
  });
}
