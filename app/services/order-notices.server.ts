import { getDb, type Database } from '~db/client';
import { notifications } from '~db/schema';
import { getConfig } from '~/env.server';
import { isLocale, type Locale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { formatNtd } from '~/lib/money';
import { formatTourDayLong } from '~/lib/tour-dates';
import { sendMail } from './mail.server';
import { emitToUser } from './realtime.server';
import type { UserRow } from './users.server';

/**
 * What an order's change tells the other party (issue 10 "Everyone is told"): a notification row in the
 * recipient's own language, written in the transaction of the change (`recordOrderNotice`), then, after the
 * commit, a mail in that language and the socket events to the recipient's room (`deliverOrderNotices`).
 * Keys: app/locales/<lang>/orders.json `notices.<kind>` and `mail.*`.
 */
export type OrderNoticeKind = 'booked' | 'confirmed' | 'declined' | 'cancelled' | 'completionMarked' | 'completed' | 'refunded' | 'deleted' | 'restored' | 'reviewed';

export type Recipient = Pick<UserRow, 'id' | 'name' | 'email' | 'locale'>;

export interface OrderNoticeFacts {
  id: number;
  status: string;
  date: string;
  timeSlot: string;
  numberOfPeople: number;
  totalPrice: number;
  travelerName: string;
  guideName: string;
  /** Who acted, by name (for "… cancelled"). */
  actorName: string;
  /** Stars given ('reviewed'). */
  rating?: number;
}

/** The facts a notice tells about an order, from the order's row and the names of who is involved. */
export function orderNoticeFacts(
  order: Pick<OrderNoticeFacts, 'id' | 'status' | 'date' | 'timeSlot' | 'numberOfPeople' | 'totalPrice'>,
  names: { traveler: string; guide: string; actor: string },
  extra: Pick<OrderNoticeFacts, 'rating'> = {},
): OrderNoticeFacts {
  return {
    id: order.id,
    status: order.status,
    date: order.date,
    timeSlot: order.timeSlot,
    numberOfPeople: order.numberOfPeople,
    totalPrice: order.totalPrice,
    travelerName: names.traveler,
    guideName: names.guide,
    actorName: names.actor,
    ...extra,
  };
}

export interface PendingNotice {
  recipient: Recipient;
  kind: OrderNoticeKind;
  order: OrderNoticeFacts;
  notification: typeof notifications.$inferSelect;
}

const localeOf = (user: Pick<UserRow, 'locale'>): Locale => (isLocale(user.locale) ? user.locale : 'zh-TW');

async function words(recipient: Recipient, kind: OrderNoticeKind, order: OrderNoticeFacts) {
  const locale = localeOf(recipient);
  const t = await getFixedT(locale);
  const params = {
    id: order.id,
    date: formatTourDayLong(order.date, locale),
    slot: t(`timeSlots.${order.timeSlot}`),
    people: order.numberOfPeople,
    total: formatNtd(order.totalPrice, locale),
    traveler: order.travelerName,
    guide: order.guideName,
    actor: order.actorName,
    rating: order.rating ?? '',
  };
  return { t, title: t(`orders.notices.${kind}.title`, params), body: t(`orders.notices.${kind}.body`, params) };
}

/** Writes the notification for one recipient, in the caller's transaction. */
export async function recordOrderNotice(
  recipient: Recipient,
  kind: OrderNoticeKind,
  order: OrderNoticeFacts,
  db: Database = getDb(),
): Promise<PendingNotice> {
  const { title, body } = await words(recipient, kind, order);
  const [notification] = await db
    .insert(notifications)
    .values({ userId: recipient.id, type: `order.${kind}`, title, body, link: `/orders/${order.id}` })
    .returning();
  return { recipient, kind, order, notification: notification! };
}

/** After the commit: socket events first (instant), then the mail (a failed send never undoes the change). */
export async function deliverOrderNotices(pending: readonly PendingNotice[]): Promise<void> {
  for (const { recipient, kind, order, notification } of pending) {
    // A review leaves the order as it was: only the notification is news.
    if (kind !== 'reviewed') {
      emitToUser(recipient.id, 'order_update', { order: { id: order.id, status: order.status } });
      emitToUser(recipient.id, 'order_status_updated', { orderId: order.id, status: order.status });
    }
    emitToUser(recipient.id, 'new_notification', {
      notification: {
        id: notification.id,
        type: notification.type,
        title: notification.title,
        body: notification.body,
        link: notification.link,
        isRead: false,
        createdAt: notification.createdAt.toISOString(),
      },
    });
  }
  await Promise.all(
    pending.map(async ({ recipient, kind, order }) => {
      try {
        const { t, title, body } = await words(recipient, kind, order);
        const link = new URL(`/orders/${order.id}`, getConfig().PUBLIC_URL).toString();
        const text = [t('orders.mail.greeting', { name: recipient.name }), '', body, '', link, '', t('orders.mail.signature')].join('\n');
        await sendMail({ to: recipient.email, subject: t('orders.mail.subject', { title }), text });
      } catch (error) {
        console.error(`order mail (${kind}) to user ${recipient.id} failed`, error);
      }
    }),
  );
}
