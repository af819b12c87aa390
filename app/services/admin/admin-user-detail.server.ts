import { and, count, desc, eq, isNull, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { auditLogs, sessions, users } from '~db/schema';
import { recordAudit } from '../platform/audit.server';
import { sendVerificationCode } from '../accounts/email-codes.server';
import { AppError } from '../platform/errors.server';
import { refreshGuideSearchText } from '../catalogue/guides.server';
import { listUserOrders } from '../booking/orders.server';
import { listUserReviews } from '../booking/reviews.server';
import { revokeUserSessions } from '../accounts/sessions.server';
import { assertAdmin, assertNotAdminAccount, toAdminUser } from '../accounts/user-admin.server';
import { userIdParam, type UserRow } from '../accounts/users.server';
import type { AuditEntryView } from '~/lib/audit-details';
import { toAuditEntryView } from './audit-log.server';

/*
 * Issue 22: one account's admin page (/admin/users/:id) — what it shows and the actions beside the moderation
 * ones of user-admin.server.ts (end every session, resend the verification mail, change the role). Each
 * function checks that the actor is an admin and audits its change in the change's transaction.
 */


/** How many audit rows the user page shows (the full trail is /admin/logs). */
export const USER_AUDIT_LIMIT = 50;

/** Audit rows about this account or done by it, newest first. */
async function userAuditTrail(userId: number, db: Database): Promise<AuditEntryView[]> {
  const actor = alias(users, 'actor');
  const rows = await db
    .select({ entry: auditLogs, actorName: actor.name })
    .from(auditLogs)
    .leftJoin(actor, eq(actor.id, auditLogs.actorId))
    .where(or(and(eq(auditLogs.targetType, 'user'), eq(auditLogs.targetId, String(userId))), eq(auditLogs.actorId, userId)))
    .orderBy(desc(auditLogs.at), desc(auditLogs.id))
    .limit(USER_AUDIT_LIMIT);
  return rows.map(({ entry, actorName }) => toAuditEntryView(entry, actorName));
}

/** /admin/users/:id: the account (archived ones too), its orders, reviews both ways, live sessions and audit trail. */
export async function getUserForAdmin(actor: Pick<UserRow, 'id' | 'type'>, userId: number, db: Database = getDb()) {
  assertAdmin(actor);
  const id = userIdParam(userId);
  const [row] = await db.select().from(users).where(eq(users.id, id));
  if (!row) throw new AppError('USER_NOT_FOUND');
  const [orders, reviews, [live], audit] = await Promise.all([
    listUserOrders(id, undefined, db),
    listUserReviews(id, db),
    db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt), sql`${sessions.expiresAt} > now()`)),
    userAuditTrail(id, db),
  ]);
  return { user: toAdminUser(row), orders, reviews, liveSessions: live?.n ?? 0, audit };
}

/** Ends every session and token of an account now (its sockets drop too); audited with how many ended. */
export async function endUserSessions(actor: UserRow, userId: number, db: Database = getDb()): Promise<number> {
  assertAdmin(actor);
  const id = userIdParam(userId);
  let ended = 0;
  await db.transaction(async (tx) => {
    const [target] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!target) throw new AppError('USER_NOT_FOUND');
    const [before] = await tx
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
    ended = before?.n ?? 0;
    await revokeUserSessions(id, tx);
    await recordAudit(
      { actorId: actor.id, action: 'user.sessions_end', targetType: 'user', targetId: id, details: { name: target.name, email: target.email, sessions: ended } },
      tx,
    );
  });
  return ended;
}

/**
 * Mails a new verification code to an account whose address is not verified yet (ALREADY_VERIFIED otherwise;
 * 429 RESEND_COOLDOWN within a minute of the last code). The audit row follows the mail: a code that could
 * not be sent is not recorded as sent.
 */
export async function resendVerificationFor(actor: UserRow, userId: number, db: Database = getDb()): Promise<void> {
  assertAdmin(actor);
  const id = userIdParam(userId);
  const [target] = await db.select().from(users).where(eq(users.id, id));
  if (!target) throw new AppError('USER_NOT_FOUND');
  if (target.isEmailVerified) throw new AppError('ALREADY_VERIFIED');
  if (target.deletedAt || target.blockedAt) throw new AppError('INVALID_TRANSITION', { messageKey: 'admin.errors.lockedAccount' });
  await sendVerificationCode(target, db);
  await recordAudit({ actorId: actor.id, action: 'user.verification_resend', targetType: 'user', targetId: id, details: { email: target.email } }, db);
}

/**
 * Makes a traveler a guide or a guide a traveler. Admin accounts keep their role (FORBIDDEN, admin.errors.adminAccount,
 * assertNotAdminAccount), and nobody is made an admin here (FORBIDDEN, admin.errors.roleFixed). A new guide starts
 * in good standing and enters keyword search.
 */
export async function changeUserRole(actor: UserRow, userId: number, role: 'traveler' | 'guide', db: Database = getDb()): Promise<UserRow> {
  assertAdmin(actor);
  const id = userIdParam(userId);
  if ((role as string) !== 'traveler' && (role as string) !== 'guide') throw new AppError('FORBIDDEN', { messageKey: 'admin.errors.roleFixed' });
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!current) throw new AppError('USER_NOT_FOUND');
    assertNotAdminAccount(current);
    if (current.deletedAt) throw new AppError('USER_NOT_FOUND');
    if (current.type === role) return current;
    const now = new Date();
    const [updated] = (await tx
      .update(users)
      .set({ type: role, guideStatus: role === 'guide' ? (current.guideStatus ?? 'active') : current.guideStatus, updatedAt: now })
      .where(eq(users.id, id))
      .returning()) as [UserRow];
    if (role === 'guide') await refreshGuideSearchText(tx, id);
    await recordAudit(
      { actorId: actor.id, action: 'user.role_change', targetType: 'user', targetId: id, details: { name: current.name, from: current.type, to: role } },
      tx,
    );
    return updated;
  });
}
