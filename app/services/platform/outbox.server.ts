import { Placeholder, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import type { OUTBOX_KINDS } from '~db/schema';

/**
 * The outbox (decision 017): what a change must tell the world outside the database (a mail now, a web push
 * later) is written as a row in the transaction of the change, and sent by the worker
 * (outbox-worker.server.ts) after the commit. So a slow or broken SMTP server never slows or fails a booking,
 * a change that rolls back sends nothing, and a failed send is tried again.
 */
export type OutboxKind = (typeof OUTBOX_KINDS)[number];

/** NOTIFY channel that wakes the workers; PostgreSQL delivers it when the enqueuing transaction commits. */
export const OUTBOX_CHANNEL = 'outbox_due';

/**
 * Writes one job in the caller's transaction (or on its own) and wakes every listening worker at commit.
 * One statement: the booking path pays one round trip for its mail.
 */
export async function enqueue(kind: OutboxKind, payload: Record<string, unknown>, db: Database = getDb()): Promise<void> {
  await db.execute(sql`with job as (${outboxJob(kind, payload)} returning id) select ${wakeOutboxWorkers} from job`);
}

/**
 * The insert of one job, for a statement that writes several things at once (a WITH item: see
 * notifications.server `writeNotification`). That statement must also select `wakeOutboxWorkers`.
 */
export function outboxJob(kind: OutboxKind, payload: Record<string, unknown> | Placeholder): SQL {
  // A placeholder (db/prepared.ts) is filled with the payload's JSON text when the statement runs.
  const json = payload instanceof Placeholder ? payload : JSON.stringify(payload);
  return sql`insert into outbox (kind, payload) values (${kind}, ${json}::jsonb)`;
}

/**
 * Queues a job once per `dedupeKey` (a payment action: `order:{id}:{action}`), in the caller's transaction: a
 * second enqueue with the same key, from a retried request or a second instance, is a no-op. Says whether it queued.
 */
export async function enqueueOnce(kind: OutboxKind, dedupeKey: string, payload: Record<string, unknown>, db: Database = getDb()): Promise<boolean> {
  const result = (await db.execute(
    sql`with job as (insert into outbox (kind, payload, dedupe_key) values (${kind}, ${JSON.stringify(payload)}::jsonb, ${dedupeKey})
      on conflict (dedupe_key) do nothing returning id) select ${wakeOutboxWorkers} from job`,
  )) as unknown as { rows: unknown[] };
  return result.rows.length > 0;
}

/** Wakes the listening workers when the statement's transaction commits (PostgreSQL holds a NOTIFY until then). */
export const wakeOutboxWorkers: SQL = sql`pg_notify(${OUTBOX_CHANNEL}, '')`;
