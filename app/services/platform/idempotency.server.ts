import { createHash } from 'node:crypto';
import { and, desc, eq, gt, lt, lte, ne } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { idempotencyKeys } from '~db/schema';
import { AppError } from './errors.server';

/**
 * Idempotency keys (issue 33, docs/decisions/042): a keyed write runs once; the same request sent again gets the
 * first answer back. The key is reserved with one INSERT … ON CONFLICT DO NOTHING (its own statement, no
 * transaction held across the work), the work runs, then the answer is stored. A duplicate that arrives while the
 * first still runs waits for its answer (polling the row) and replays it; after `waitMs` it is told 409.
 *
 * Times are the real time, never the orders' clock (the end-to-end server moves that one).
 */

/** How long a first answer is kept and replayed. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** A 'running' row older than this is a crashed request's: another request with the key may take it over. */
export const IDEMPOTENCY_LEASE_MS = 60 * 1000;
/** How long a duplicate waits for the first request's answer before it is told 409 IDEMPOTENCY_IN_PROGRESS. */
const WAIT_MS = 10 * 1000;
const POLL_MS = 50;

/** 1–255 visible ASCII characters (the header draft leaves the form to the server; Stripe allows 255). */
const KEY_FORMAT = /^[\x21-\x7e]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return KEY_FORMAT.test(key);
}

/** A key as given in a header or a form, or VALIDATION_ERROR naming `field`. */
export function checkIdempotencyKey(key: string, field: string): string {
  if (!isValidIdempotencyKey(key)) {
    throw new AppError('VALIDATION_ERROR', { fieldErrors: { [field]: ['errors.idempotencyKeyInvalid'] } });
  }
  return key;
}

export function requestHash(...parts: Array<string | Uint8Array>): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(part);
    hash.update('\u0000');
  }
  return hash.digest('hex');
}

export interface IdempotencyScope {
  userId: number;
  method: string;
  /** The path (and search) the request was sent to. */
  path: string;
  key: string;
}

export interface StoredAnswer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

export type Reservation = { kind: 'reserved'; id: number } | { kind: 'replay'; answer: StoredAnswer };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Reserves the key for this request, or finds the first answer to replay. Throws 422 IDEMPOTENCY_KEY_REUSED for
 * another request under the same key and 409 IDEMPOTENCY_IN_PROGRESS when the first still runs after `waitMs`.
 */
export async function reserveIdempotencyKey(
  scope: IdempotencyScope,
  hash: string,
  options: { waitMs?: number; db?: Database } = {},
): Promise<Reservation> {
  const db = options.db ?? getDb();
  const deadline = Date.now() + (options.waitMs ?? WAIT_MS);
  const where = and(
    eq(idempotencyKeys.userId, scope.userId),
    eq(idempotencyKeys.method, scope.method),
    eq(idempotencyKeys.path, scope.path),
    eq(idempotencyKeys.key, scope.key),
  );
  for (;;) {
    const at = new Date();
    const [inserted] = await db
      .insert(idempotencyKeys)
      .values({ ...scope, requestHash: hash, state: 'running', lockedAt: at, expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_MS) })
      .onConflictDoNothing()
      .returning({ id: idempotencyKeys.id });
    if (inserted) return { kind: 'reserved', id: inserted.id };

    const [row] = await db.select().from(idempotencyKeys).where(where);
    if (!row) continue; // released (or cleaned) between the two statements: try the insert again
    if (row.expiresAt <= at) {
      // Past its 24 hours but not yet cleaned: the key is free again.
      await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, row.id), lte(idempotencyKeys.expiresAt, at)));
      continue;
    }
    if (row.requestHash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    if (row.state === 'done' && row.status !== null && row.body !== null) {
      return { kind: 'replay', answer: { status: row.status, body: row.body, headers: row.headers ?? {} } };
    }
    if (row.lockedAt.getTime() <= at.getTime() - IDEMPOTENCY_LEASE_MS) {
      // The request that reserved it died without an answer: take the reservation over (one taker wins).
      const [taken] = await db
        .update(idempotencyKeys)
        .set({ lockedAt: at })
        .where(and(eq(idempotencyKeys.id, row.id), eq(idempotencyKeys.state, 'running'), eq(idempotencyKeys.lockedAt, row.lockedAt)))
        .returning({ id: idempotencyKeys.id });
      if (taken) return { kind: 'reserved', id: taken.id };
      continue;
    }
    if (Date.now() >= deadline) throw new AppError('IDEMPOTENCY_IN_PROGRESS', { retryAfter: 1 });
    await sleep(POLL_MS);
  }
}

/** Stores the answer of a reserved key: from now on the same request replays it. */
export async function completeIdempotencyKey(id: number, answer: StoredAnswer, db: Database = getDb()): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ state: 'done', status: answer.status, body: answer.body, headers: answer.headers })
    .where(and(eq(idempotencyKeys.id, id), ne(idempotencyKeys.state, 'done')));
}

/** Frees a reserved key without an answer (a server error, a refusal worth retrying): a retry runs again. */
export async function releaseIdempotencyKey(id: number, db: Database = getDb()): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, 'running')));
}

/**
 * The key of the caller's last answered submission of a web form at `path` within `withinMs`, if any: the form
 * page hands it out again, so the browser's back button and a second submit of the same form replay that answer.
 */
export async function recentFormKey(userId: number, path: string, withinMs: number, db: Database = getDb()): Promise<string | undefined> {
  const [row] = await db
    .select({ key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.method, 'POST'),
        eq(idempotencyKeys.path, path),
        eq(idempotencyKeys.state, 'done'),
        gt(idempotencyKeys.createdAt, new Date(Date.now() - withinMs)),
      ),
    )
    .orderBy(desc(idempotencyKeys.createdAt), desc(idempotencyKeys.id))
    .limit(1);
  return row?.key;
}

/** The periodic clean-up (app/services/jobs/jobs.server.ts): keys past their 24 hours. */
export async function deleteExpiredIdempotencyKeys(tx: Database, at: Date = new Date()): Promise<{ idempotencyKeys: number }> {
  const gone = await tx.delete(idempotencyKeys).where(lt(idempotencyKeys.expiresAt, at)).returning({ id: idempotencyKeys.id });
  return { idempotencyKeys: gone.length };
}
