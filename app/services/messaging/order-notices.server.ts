import { getDb, type Database } from '~db/client';
import { getConfig } from '~/env.server';
import { isLocale, type Locale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { formatNtd } from '~/lib/money';
import { formatTourDayLong } from '~/lib/dates';
import { wordNotice } from './notice-wording.server';
import { writeNotification, type NewNotification, type NotificationRow } from './notifications.server';
import { emitToUser } from '../platform/realtime.server';
import type { UserRow } from '../accounts/users.server';

/**
 * What an order's change tells the other party (issue 10 "Everyone is told"): a notification row and a mail in
 * the recipient's own language (and a web push to each of their browsers), all written in the transaction of the change (`recordOrderNotice`; the mail
 * leaves through the outbox after the commit, decision 017), then the socket events to the recipient's room
 * (`deliverOrderNotices`, after the commit).
 * Keys: app/locales/<lang>/orders.json `notices.<kind>` and `mail.*`.
 */
export type OrderNoticeKind = 'booked' | 'confirmed' | 'declined' | 'cancelled' | 'completionMarked' | 'completed' | 'refunded' | 'deleted' | 'restored' | 'reviewed' | 'paymentExpired';

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
  /** Where and how to meet, given by the guide on confirming ('confirmed'). */
  meetingPoint?: string;
  guidePhone?: string;
}

/** The facts a notice tells about an order, from the order's row and the names of who is involved. */
export function orderNoticeFacts(
  order: Pick<OrderNoticeFacts, 'id' | 'status' | 'date' | 'timeSlot' | 'numberOfPeople' | 'totalPrice'>,
  names: { traveler: string; guide: string; actor: string },
  extra: Pick<OrderNoticeFacts, 'rating' | 'meetingPoint' | 'guidePhone'> = {},
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
  notification: NotificationRow;
}

const localeOf = (user: Pick<UserRow, 'locale'>): Locale => (isLocale(user.locale) ? user.locale : 'zh-TW');

async function words(recipient: Recipient, kind: OrderNoticeKind, order: OrderNoticeFacts) {
  const locale = localeOf(recipient);
  const t = await getFixedT(locale);
  return { t, ...wordNotice(t, locale, `order.${kind}`, { ...order }) };
}

/** The notice of an order's news to one recipient, worded in their language (with its mail). */
export async function orderNotice(recipient: Recipient, kind: OrderNoticeKind, order: OrderNoticeFacts): Promise<NewNotification> {
  const { t, title, body } = await words(recipient, kind, order);
  const path = `/orders/${order.id}`;
  const link = new URL(path, getConfig().PUBLIC_URL).toString();
  // A confirmation's mail says where to meet and whom to call: the traveler may read only their mail on the day.
  const meeting =
    kind === 'confirmed' && order.meetingPoint && order.guidePhone
      ? ['', t('orders.mail.meetingPoint', { place: order.meetingPoint }), t('orders.mail.guidePhone', { phone: order.guidePhone })]
      : [];
  const text = [t('orders.mail.greeting', { name: recipient.name }), '', body, ...meeting, '', link, '', t('orders.mail.signature')].join('\n');
  return {
    userId: recipient.id,
    type: `order.${kind}`,
    title,
    body,
    params: { ...order },
    link: path,
    mail: { to: recipient.email, subject: t('orders.mail.subject', { title }), text },
  };
}

/** Writes the notification and queues its mail and pushes for one recipient: one statement in the caller's transaction. */
export async function recordOrderNotice(
  recipient: Recipient,
  kind: OrderNoticeKind,
  order: OrderNoticeFacts,
  db: Database = getDb(),
): Promise<PendingNotice> {
  const notification = await writeNotification(await orderNotice(recipient, kind, order), db);
  return { recipient, kind, order, notification };
}

/** After the commit: the socket events to each recipient's room (their mail is already in the outbox). */
export function deliverOrderNotices(pending: readonly PendingNotice[]): void {
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
}
