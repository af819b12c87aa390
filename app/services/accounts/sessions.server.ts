import crypto from 'node:crypto';
import { and, eq, gt, inArray, isNull, lt, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { preparedStatement } from '~db/prepared';
import { pushSubscriptions, sessions, users } from '~db/schema';
import { disconnectSessions } from '../platform/realtime.server';

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
 * The one rule of a live session, for a query that joins `sessions` to its `users` row: not revoked, not expired
 * at `now`, and the user neither blocked nor archived. The request's session, a socket's session and the
 * browsers a push may go to (push.server.ts) all ask this.
 */
export function sessionIsLive(now: Date | SQL): SQL {
  return and(isNull(sessions.revokedAt), gt(sessions.expiresAt, now), isNull(users.blockedAt), isNull(users.deletedAt))!;
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
    .where(and(eq(sessions.id, sql.placeholder('id')), sessionIsLive(sql`${sql.placeholder('now')}::timestamptz`))),
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

/** Which sessions `endSessions` ends: one (a logout), or every one of a user. */
export type SessionsToEnd = { sessionId: string } | { userId: number };

/**
 * The one way sessions end before their time (docs/decisions/035): logout on the web or the API, a password
 * reset, an admin's "end all sessions", block or archive. In `db`'s transaction it marks them revoked and
 * deletes the push subscriptions their browsers made, so no push is queued for them once it commits; then
 * their sockets drop on every instance (through the Redis adapter). When `db` is a transaction that drop comes
 * before the commit: a socket that reconnects in between is caught by the socket server's periodic check
 * (app/http/realtime.server.ts), as is one whose session simply expires. Expired sessions need no call here:
 * the housekeeping job deletes them and their subscriptions with them (on delete cascade), and until then
 * nothing is pushed to them (push.server.ts asks `sessionIsLive`). Returns the ids of the sessions it ended.
 */
export async function endSessions(which: SessionsToEnd, db: Database = getDb()): Promise<string[]> {
  const one = 'sessionId' in which;
  const ended = await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(one ? eq(sessions.id, which.sessionId) : eq(sessions.userId, which.userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  // Every subscription of the ended sessions; for a whole user that is every subscription they have.
  await db.delete(pushSubscriptions).where(one ? eq(pushSubscriptions.sessionId, which.sessionId) : eq(pushSubscriptions.userId, which.userId));
  const ids = ended.map((s) => s.id);
  disconnectSessions(ids);
  return ids;
}

/** Logout: ends this one session (`endSessions`). */
export async function revokeSession(id: string, db: Database = getDb()): Promise<void> {
  await endSessions({ sessionId: id }, db);
}

/** Ends every session of a user (password reset, blocking, archiving, "end all sessions"): `endSessions`. */
export async function revokeUserSessions(userId: number, db: Database = getDb()): Promise<void> {
  await endSessions({ userId }, db);
}

/** Of these session ids, the ones still live (the socket server's periodic check), in one query per thousand. */
export async function liveSessionIds(ids: readonly string[], db: Database = getDb()): Promise<Set<string>> {
  const live = new Set<string>();
  const now = new Date();
  for (let i = 0; i < ids.length; i += 1000) {
    const rows = await db
      .select({ id: sessions.id })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(inArray(sessions.id, ids.slice(i, i + 1000)), sessionIsLive(now)));
    for (const row of rows) live.add(row.id);
  }
  return live;
}

/** Housekeeping: forget sessions that ended more than a day ago. */
export async function pruneSessions(db: Database = getDb()): Promise<number> {
  const cutoff = new Date(Date.now() - 24 * 60 * 60 * 1000);
  const stale = await db.select({ id: sessions.id }).from(sessions).where(lt(sessions.expiresAt, cutoff));
  if (stale.length) await db.delete(sessions).where(inArray(sessions.id, stale.map((s) => s.id)));
  return stale.length;
}
