import { eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import { AppError } from './errors.server';

type UserRow = typeof users.$inferSelect;

/** The person asking: only their id and role matter for access. */
export type Viewer = Pick<UserRow, 'id' | 'type'>;

/*
 * "Yourself or an admin" (ARCHITECTURE §5: every object-level route checks ownership or role on the server):
 * the one rule for reading and changing an account's own things (profile, stats, avatar, email).
 */

/**
 * The check that needs no database: someone else's id is FORBIDDEN unless the viewer is an admin, whether
 * or not that id exists (ids are not probed this way). Routes call it before reading a large body.
 */
export function assertSelfOrAdminId(viewer: Viewer, targetId: number): void {
  if (viewer.type !== 'admin' && viewer.id !== targetId) throw new AppError('FORBIDDEN');
}

/**
 * The whole rule, answering the target row: FORBIDDEN as above; unknown ids, and archived accounts for anyone
 * but an admin, are USER_NOT_FOUND. Archived accounts are read-only (`write`), even for an admin: they are
 * restored first, then changed.
 */
export async function assertSelfOrAdmin(
  viewer: Viewer,
  targetId: number,
  options: { write?: boolean } = {},
  db: Database = getDb(),
): Promise<UserRow> {
  assertSelfOrAdminId(viewer, targetId);
  const [target] = Number.isSafeInteger(targetId) && targetId > 0 ? await db.select().from(users).where(eq(users.id, targetId)) : [];
  if (!target) throw new AppError('USER_NOT_FOUND');
  if (target.deletedAt && (viewer.type !== 'admin' || options.write)) throw new AppError('USER_NOT_FOUND');
  return target;
}
