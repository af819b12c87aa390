import crypto from 'node:crypto';
import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { preparedStatement } from '~db/prepared';
import { sessions, users } from '~db/schema';
import { disconnectSessions } from './realtime.server';

/**
 * Sessions (ARCHITECTURE §4): one table for cookie sessions and bearer tokens, so logout or blocking
 * revokes both. A session is valid while it is not revoked, not expired, and its user is neither blocked
 * nor archived. Web sessions roll: each use pushes the expiry to 30 days from now.
 */
export const SESSION_DAYS = 30;
const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000;
/** Touch the row at most this often, so a busy page does not write on every request. */
const ROLL_EVERY_MS = 60 * 60 * 1000;

export type SessionKind = 'web' | 'api';
export type SessionUser = typeof users.$inferSelect;
export interface ActiveSession {
  id: string;
  kind: SessionKind;
  expiresAt: Date;
  /** The expiry moved on this request: the web cookie must be sent again with the new date. */
  rolled: boolean;
  user: SessionUser;
}

export async function createSession(userId: number, kind: SessionKind, db: Database = getDb()) {
  const id = crypto.randomBytes(24).toString('base64url');
  const now = new Date();
  const expiresAt = new Date(now.getTime() + SESSION_MS);
  await db.insert(sessions).values({ id, userId, kind, createdAt: now, expiresAt, lastSeenAt: now });
  return { id, expiresAt };
}

/**
 * Every signed-in request asks this first, so it is a prepared statement (db/prepared.ts): drizzle writing out the
 * two tables' 40 columns was about 0.2 ms a request, and PostgreSQL keeps its plan.
 */
const activeSession = preparedStatement('active_session', (db) =>
  db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('id')),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, sql`${sql.placeholder('now')}::timestamptz`),
        isNull(users.blockedAt),
        isNull(users.deletedAt),
      ),
    ),
);

/** The live session with this id and its user, or undefined. Extends web sessions (rolling expiry). */
export async function getActiveSession(id: string, db: Database = getDb()): Promise<ActiveSession | undefined> {
  const now = new Date();
  const [row] = await activeSession(db, { id, now: now.toISOString() });
  if (!row) return undefined;
  let expiresAt = row.session.expiresAt;
  let rolled = false;
  if (row.session.kind === 'web' && now.getTime() - row.session.lastSeenAt.getTime() > ROLL_EVERY_MS) {
    expiresAt = new Date(now.getTime() + SESSION_MS);
    rolled = true;
    await db.update(sessions).set({ lastSeenAt: now, expiresAt }).where(eq(sessions.id, id));
  }
  return { id: row.session.id, kind: row.session.kind, expiresAt, rolled, user: row.user };
}

export async function revokeSession(id: string, db: Database = getDb()): Promise<void> {
  await db.update(sessions).set({ revokedAt: new Date() }).where(and(eq(sessions.id, id), isNull(sessions.revokedAt)));
  disconnectSessions([id]);
}

/** Ends every session of a user (blocking, archiving); their open sockets are dropped too. */
export async function revokeUserSessions(userId: number, db: Database = getDb()): Promise<void> {
  const revoked = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  disconnectSessions(revoked.map((s) => s.id));
}

/** Housekeeping: forget sessions that ended more than a day ago. */
export async function pruneSessions(db: Database = getDb()): Promise<number> {
  const cutoff = new Date(Date.now() - 24 * 60 * 60 * 1000);
  const stale = await db.select({ id: sessions.id }).from(sessions).where(lt(sessions.expiresAt, cutoff));
  if (stale.length) await db.delete(sessions).where(inArray(sessions.id, stale.map((s) => s.id)));
  return stale.length;
}
