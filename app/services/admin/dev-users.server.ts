import { eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import type { DevCreateUserInput, DevUpdateUserInput } from '~/schemas/dev-users';
import { normaliseEmail } from '~/lib/email';
import type { Viewer } from '../platform/access.server';
import { recordAudit } from '../platform/audit.server';
import { listUsersForDebug } from '../booking/dashboards.server';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from '../platform/errors.server';
import { refreshGuideSearchText } from '../catalogue/guides.server';
import { hashPassword } from '../accounts/passwords.server';
import { revokeUserSessions } from '../accounts/sessions.server';
import { recordAgreementAtSignUp } from '../accounts/terms.server';
import { userIdParam, type UserRow } from '../accounts/users.server';

/**
 * The debug calls of SPEC §7 Dev (issue 24; who may call them: app/http/debug.server.ts,
 * docs/decisions/030-debug-routes.md). They make test accounts quickly: no code mail, the address verified and
 * the terms agreed unless told otherwise. No call creates an admin, changes one, makes one, or deletes one: an
 * admin target is 403 FORBIDDEN. Every write is in the audit log under `dev.user.*`, with who made it.
 */

function toDevUser(u: Pick<UserRow, 'id' | 'name' | 'email' | 'type' | 'isEmailVerified' | 'isIdVerified' | 'blockedAt' | 'deletedAt'>) {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    type: u.type,
    isEmailVerified: u.isEmailVerified,
    isIdVerified: u.isIdVerified,
    blocked: Boolean(u.blockedAt),
    archived: Boolean(u.deletedAt),
  };
}
export type DevUser = ReturnType<typeof toDevUser>;

export async function devListUsers(db: Database = getDb()): Promise<DevUser[]> {
  return (await listUsersForDebug(500, db)).map(toDevUser);
}

export async function devCreateUser(actor: Viewer, input: DevCreateUserInput, db: Database = getDb()): Promise<DevUser> {
  const passwordHash = await hashPassword(input.password);
  try {
    const created = await db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const now = new Date();
      const [row] = (await tx
        .insert(users)
        .values({
          type: input.type,
          name: input.name,
          email: normaliseEmail(input.email),
          passwordHash,
          isEmailVerified: input.isEmailVerified,
          emailVerifiedAt: input.isEmailVerified ? now : null,
          ...(input.type === 'guide' ? { guideStatus: 'active' as const } : {}),
        })
        .returning()) as [UserRow];
      if (input.agreeToTerms) await recordAgreementAtSignUp(row.id, undefined, tx, now);
      await recordAudit({ actorId: actor.id, action: 'dev.user.create', targetType: 'user', targetId: row.id, details: { email: row.email, type: row.type } }, tx);
      return row;
    });
    if (created.type === 'guide') await refreshGuideSearchText(db, created.id);
    return toDevUser(created);
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('EMAIL_TAKEN', { fieldErrors: { email: ['errors.codes.EMAIL_TAKEN'] } });
    throw error;
  }
}

/** The account a dev call may touch: it exists and is not an admin (403). */
export async function devTarget(rawId: string | number | undefined, db: Database = getDb()): Promise<UserRow> {
  const id = userIdParam(rawId);
  const [user] = await db.select().from(users).where(eq(users.id, id));
  if (!user) throw new AppError('USER_NOT_FOUND');
  if (user.type === 'admin') throw new AppError('FORBIDDEN');
  return user;
}

export async function devUpdateUser(actor: Viewer, target: UserRow, input: DevUpdateUserInput, db: Database = getDb()): Promise<DevUser> {
  const now = new Date();
  const [updated] = (await db
    .update(users)
    .set({
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.type !== undefined ? { type: input.type, ...(input.type === 'guide' && !target.guideStatus ? { guideStatus: 'active' as const } : {}) } : {}),
      ...(input.isEmailVerified !== undefined ? { isEmailVerified: input.isEmailVerified, emailVerifiedAt: input.isEmailVerified ? (target.emailVerifiedAt ?? now) : null } : {}),
      ...(input.isIdVerified !== undefined ? { isIdVerified: input.isIdVerified } : {}),
      updatedAt: now,
    })
    .where(eq(users.id, target.id))
    .returning()) as [UserRow];
  await recordAudit({ actorId: actor.id, action: 'dev.user.update', targetType: 'user', targetId: target.id, details: { ...input } }, db);
  if (updated.type === 'guide') await refreshGuideSearchText(db, updated.id);
  return toDevUser(updated);
}

/** Archives the account (as the admin's delete does: orders and reviews keep their people); its sessions end. */
export async function devDeleteUser(actor: Viewer, target: UserRow, db: Database = getDb()): Promise<DevUser> {
  const now = new Date();
  const [updated] = (await db
    .update(users)
    .set({ deletedAt: target.deletedAt ?? now, updatedAt: now })
    .where(eq(users.id, target.id))
    .returning()) as [UserRow];
  await recordAudit({ actorId: actor.id, action: 'dev.user.delete', targetType: 'user', targetId: target.id, details: { email: target.email } }, db);
  await revokeUserSessions(target.id, db);
  return toDevUser(updated);
}
