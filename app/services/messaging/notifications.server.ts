import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { preparedStatement } from '~db/prepared';
import { notifications } from '~db/schema';
import type { TFunction } from 'i18next';
import type { Locale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import type { NotificationListQuery, NotificationView } from '~/schemas/notifications';
import { AppError, idParamOr } from '../platform/errors.server';
import { mailJob, mailPayload, type Mail } from '../platform/mail.server';
import { wordNotice } from './notice-wording.server';
import { wakeOutboxWorkers } from '../platform/outbox.server';
import { pushBody, pushJobs } from './push.server';
import { emitToUser } from '../platform/realtime.server';

/** Notifications (SPEC §3, §4, §7): each person reads, marks and deletes only their own. */
export async function countUnread(userId: number, db: Database = getDb()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

type Row = typeof notifications.$inferSelect;
export type NotificationRow = Row;

export interface NewNotification {
  userId: number;
  type: string;
  title: string;
  body: string;
  /** The facts the words are made of: the row is worded again in the reader's language when shown. */
  params: Record<string, string | number | undefined>;
  link: string;
  /** Also mailed, when given (its words are the caller's). */
  mail?: Mail;
}

/**
 * Writes a notification, queues it as a web push to each of the person's browsers (decision 029) and queues its
 * mail when there is one (decision 017): one statement in the caller's transaction, however many browsers they have.
 * A booking writes one of these per recipient, so its round trips do not grow with what it tells.
 */
export async function writeNotification(notice: NewNotification, db: Database = getDb()): Promise<Row> {
  const [row] = await (notice.mail ? writeNotificationAndMail : writeNotificationOnly)(db, noticeValues(notice));
  return row!.notification;
}

/**
 * The writes of one notice as WITH items of a statement built from placeholders (db/prepared.ts), for
 * `writeNotification` and for a statement that writes more in the same round trip (the booking's order). The
 * statement selects `notification` (from the row written) and `woken` (the NOTIFY: a WITH item nobody selects
 * from would not run); `noticeValues` fills it.
 */
export function noticeWrites(db: Database, withMail: boolean) {
  const value = (name: keyof ReturnType<typeof noticeValues>) => sql.placeholder(name);
  const written = db.$with('notice_written').as(
    db
      .insert(notifications)
      .values({
        userId: value('noticeUserId'),
        type: value('noticeType'),
        title: value('noticeTitle'),
        body: value('noticeBody'),
        params: value('noticeParams'),
        link: value('noticeLink'),
      })
      .returning(),
  );
  const pushes = db
    .$with('notice_pushes', {})
    .as(pushJobs(value('noticeUserId'), { title: value('noticeTitle'), body: value('noticePushBody'), url: value('noticeLink') }));
  const mailed = db.$with('notice_mailed', {}).as(withMail ? mailJob(value('noticeMail')) : sql`select`);
  const notification = {
    id: written.id,
    userId: written.userId,
    type: written.type,
    title: written.title,
    body: written.body,
    params: written.params,
    link: written.link,
    readAt: written.readAt,
    createdAt: written.createdAt,
  };
  return { items: [written, pushes, mailed] as const, written, notification, woken: wakeOutboxWorkers };
}

/** The placeholder values of `noticeWrites` for one notice. */
export function noticeValues(notice: NewNotification) {
  return {
    noticeUserId: notice.userId,
    noticeType: notice.type,
    noticeTitle: notice.title,
    noticeBody: notice.body,
    noticeParams: notice.params,
    noticeLink: notice.link,
    noticePushBody: pushBody(notice.body),
    noticeMail: notice.mail && JSON.stringify(mailPayload(notice.mail)),
  };
}

function notificationStatement(name: string, withMail: boolean) {
  return preparedStatement(name, (db) => {
    const notice = noticeWrites(db, withMail);
    return db
      .with(...notice.items)
      .select({ notification: notice.notification, woken: notice.woken })
      .from(notice.written);
  });
}
const writeNotificationAndMail = notificationStatement('write_notification_and_mail', true);
const writeNotificationOnly = notificationStatement('write_notification', false);

/** A row as the reader sees it: worded from its facts in the reader's language, or its stored words (older rows). */
export function toNotificationView(row: Row, reader?: { t: TFunction; locale: Locale }): NotificationView {
  const words = reader && row.params ? wordNotice(reader.t, reader.locale, row.type, row.params) : { title: row.title, body: row.body };
  return {
    id: row.id,
    type: row.type,
    title: words.title,
    body: words.body,
    link: row.link,
    isRead: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** One page of the user's notifications, worded in `locale` (the reader's language now). */
export async function listNotifications(userId: number, query: NotificationListQuery, locale: Locale, db: Database = getDb()) {
  const where = and(eq(notifications.userId, userId), query.unread ? isNull(notifications.readAt) : undefined);
  const [[totalRow], rows, unreadCount] = await Promise.all([
    db.select({ n: count() }).from(notifications).where(where),
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    countUnread(userId, db),
  ]);
  const reader = { t: await getFixedT(locale), locale };
  const total = totalRow?.n ?? 0;
  const totalPages = Math.ceil(total / query.limit);
  return {
    notifications: rows.map((row) => toNotificationView(row, reader)),
    unreadCount,
    pagination: { page: query.page, limit: query.limit, total, totalPages, hasNext: query.page < totalPages, hasPrev: query.page > 1 },
  };
}

/** One's own notification, or NOT_FOUND (another's is not revealed). */
async function own(userId: number, id: number, db: Database): Promise<Row> {
  const [row] = Number.isSafeInteger(id) && id > 0 ? await db.select().from(notifications).where(eq(notifications.id, id)) : [];
  if (!row || row.userId !== userId) throw new AppError('NOT_FOUND');
  return row;
}

/** A notification id from a URL segment (`/api/v1/notifications/:id`); see idParamOr. */
export const notificationIdParam = (raw: string | undefined): number => idParamOr('NOT_FOUND', raw);

export async function markRead(userId: number, id: number, db: Database = getDb()): Promise<NotificationView> {
  const row = await own(userId, id, db);
  const [updated] = row.readAt
    ? [row]
    : await db.update(notifications).set({ readAt: new Date() }).where(eq(notifications.id, id)).returning();
  emitToUser(userId, 'notification_read', { id, unreadCount: await countUnread(userId, db) });
  return toNotificationView(updated!);
}

export async function markAllRead(userId: number, db: Database = getDb()): Promise<{ updated: number; count: number }> {
  const rows = await db
    .update(notifications)
    .set({ readAt: new Date() })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  emitToUser(userId, 'notification_read', { all: true, unreadCount: 0 });
  return { updated: rows.length, count: 0 };
}

export async function deleteNotification(userId: number, id: number, db: Database = getDb()): Promise<{ id: number }> {
  await own(userId, id, db);
  await db.delete(notifications).where(eq(notifications.id, id));
  emitToUser(userId, 'notification_read', { id, deleted: true, unreadCount: await countUnread(userId, db) });
  return { id };
}
