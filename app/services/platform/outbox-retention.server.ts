import { sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';

/**
 * How long the outbox keeps what it delivered (issue 31, docs/decisions/036). A sent row is a mail with its code
 * or a push with a chat excerpt: once delivered it only serves someone looking into a complaint ("I never got the
 * mail"), so it goes after a week; a failed row, kept for the operator to look into, after a month. Pending rows
 * are never purged: they are still to be sent. The periodic job `purgeOutbox` (jobs.server.ts) runs this.
 */
export const OUTBOX_SENT_KEPT_DAYS = 7;
export const OUTBOX_FAILED_KEPT_DAYS = 30;
/** Rows deleted per run at most: the job runs inside its claim (decision 024), so it stays short; a backlog goes over several runs. */
export const OUTBOX_PURGE_BATCH = 5_000;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes sent rows older than OUTBOX_SENT_KEPT_DAYS (by when they were sent) and failed rows older than
 * OUTBOX_FAILED_KEPT_DAYS (by when they were queued), oldest first, at most `batch` of them. Real time, not the
 * order rules' clock (app/services/platform/clock.server.ts): `sent_at` and `created_at` are the database's own time.
 */
export async function purgeDeliveredOutbox(db: Database = getDb(), options: { batch?: number; at?: Date } = {}): Promise<{ sent: number; failed: number }> {
  const at = options.at ?? new Date();
  const sentBefore = new Date(at.getTime() - OUTBOX_SENT_KEPT_DAYS * DAY_MS);
  const failedBefore = new Date(at.getTime() - OUTBOX_FAILED_KEPT_DAYS * DAY_MS);
  const result = await db.execute(sql`
    with gone as (
      delete from outbox where id in (
        select id from outbox
        where (status = 'sent' and coalesce(sent_at, created_at) < ${sentBefore.toISOString()}::timestamptz)
           or (status = 'failed' and created_at < ${failedBefore.toISOString()}::timestamptz)
        order by id
        limit ${options.batch ?? OUTBOX_PURGE_BATCH}
      )
      returning status
    )
    select count(*) filter (where status = 'sent')::int as sent, count(*) filter (where status = 'failed')::int as failed from gone`);
  const [counts] = (result as unknown as { rows: Array<{ sent: number; failed: number }> }).rows;
  return { sent: Number(counts?.sent ?? 0), failed: Number(counts?.failed ?? 0) };
}
