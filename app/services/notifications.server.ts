import { and, count, eq, isNull } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { notifications } from '~db/schema';

/** Notifications (SPEC §3): the header bell shows the unread count. */
export async function countUnread(userId: number, db: Database = getDb()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}
