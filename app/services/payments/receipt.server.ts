import { and, desc, eq, inArray } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { orders, payments, users } from '~db/schema';
import { getConfig } from '~/env.server';
import { isLocale, type Locale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime, formatTourDayLong } from '~/lib/dates';
import { formatNtd } from '~/lib/money';
import type { Viewer } from '../platform/access.server';
import { AppError } from '../platform/errors.server';
import { enqueueMail } from '../platform/mail.server';
import { PAID_AT_SOME_POINT } from './order-payments.server';
import { orderPaymentHistory, type PaymentHistoryItem } from './order-payment-history.server';
import { slotWithHours } from '~/lib/time-slots';

/**
 * An order's receipt (issue 32): what was paid for and how much, for its traveler (and admins) to keep or print,
 * and the same words mailed to the traveler in their language once the card is charged.
 */
export interface Receipt {
  orderId: number;
  date: string;
  timeSlot: string;
  numberOfPeople: number;
  guideName: string;
  travelerName: string;
  amount: number;
  paid: number;
  refunded: number;
  /** When the card was charged (null while it is only authorised). */
  paidAt: string | null;
  authorisedAt: string | null;
  provider: string;
  providerReference: string | null;
  refunds: PaymentHistoryItem[];
}

async function readReceipt(db: Database, orderId: number) {
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  const [row] = await db
    .select({ order: orders, traveler, guideName: guide.name })
    .from(orders)
    .innerJoin(traveler, eq(traveler.id, orders.travelerId))
    .innerJoin(guide, eq(guide.id, orders.guideId))
    .where(eq(orders.id, orderId));
  if (!row) return null;
  // The attempt that was paid (a declined or expired attempt before it has nothing to show).
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, [...PAID_AT_SOME_POINT])))
    .orderBy(desc(payments.id))
    .limit(1);
  if (!payment) return null;
  const history = await orderPaymentHistory(orderId, db);
  const receipt: Receipt = {
    orderId,
    date: row.order.date,
    timeSlot: row.order.timeSlot,
    numberOfPeople: row.order.numberOfPeople,
    guideName: row.guideName,
    travelerName: row.traveler.name,
    amount: payment.amount,
    paid: payment.capturedAmount,
    refunded: payment.refundedAmount,
    paidAt: payment.capturedAt?.toISOString() ?? null,
    authorisedAt: payment.authorisedAt?.toISOString() ?? null,
    provider: payment.provider,
    providerReference: payment.providerTradeNo,
    refunds: history.filter((h) => h.kind === 'refunded'),
  };
  return { receipt, order: row.order, traveler: row.traveler };
}

/**
 * The receipt of an order for its traveler or an admin. Anyone else, an order never paid (a free tour, or not
 * paid yet) and a deleted order (to its traveler) are NOT_FOUND: a receipt does not say whether an order exists.
 */
export async function orderReceipt(viewer: Viewer, orderId: number, db: Database = getDb()): Promise<Receipt> {
  const found = await readReceipt(db, orderId);
  if (!found) throw new AppError('NOT_FOUND');
  const isAdmin = viewer.type === 'admin';
  if (!isAdmin && (viewer.id !== found.order.travelerId || found.order.deletedAt)) throw new AppError('NOT_FOUND');
  return found.receipt;
}

export const receiptPath = (orderId: number) => `/orders/${orderId}/receipt`;

/** The receipt as plain-text mail lines, in `locale` (the mail; the page has its own layout of the same words). */
export async function receiptMailText(receipt: Receipt, recipientName: string, locale: Locale) {
  const t = await getFixedT(locale);
  const ntd = (n: number) => formatNtd(n, locale);
  const lines = [
    t('mail.receipt.greeting', { name: recipientName }),
    '',
    t('mail.receipt.body', { id: receipt.orderId }),
    '',
    `${t('mail.receipt.order')}: #${receipt.orderId}`,
    `${t('mail.receipt.tour')}: ${t('mail.receipt.tourWith', { guide: receipt.guideName })}`,
    `${t('mail.receipt.when')}: ${formatTourDayLong(receipt.date, locale)} ${slotWithHours(t, receipt.timeSlot)}`,
    `${t('mail.receipt.people')}: ${receipt.numberOfPeople}`,
    `${t('mail.receipt.paid')}: ${ntd(receipt.paid)}`,
    ...(receipt.refunded > 0 ? [`${t('mail.receipt.refunded')}: ${ntd(receipt.refunded)}`] : []),
    ...(receipt.paidAt ? [`${t('mail.receipt.paidAt')}: ${formatTaipeiDateTime(receipt.paidAt, locale)}`] : []),
    `${t('mail.receipt.reference')}: ${receipt.providerReference ?? '—'}`,
    `${t('mail.receipt.platform')}: ${t('mail.receipt.platformName')}`,
    '',
    t('mail.receipt.link'),
    new URL(receiptPath(receipt.orderId), getConfig().PUBLIC_URL).toString(),
    '',
    t('mail.receipt.signature'),
  ];
  return { subject: t('mail.receipt.subject', { id: receipt.orderId, amount: ntd(receipt.paid) }), text: lines.join('\n') };
}

/**
 * Queues the receipt mail to the order's traveler, in their language (the payment lane, in the transaction that
 * recorded the capture: the mail goes exactly when the charge is recorded). Nothing for an order with no charge.
 */
export async function enqueueReceiptMail(tx: Database, orderId: number): Promise<void> {
  const found = await readReceipt(tx, orderId);
  if (!found || found.receipt.paid === 0) return;
  const locale: Locale = isLocale(found.traveler.locale) ? found.traveler.locale : 'zh-TW';
  const { subject, text } = await receiptMailText(found.receipt, found.traveler.name, locale);
  await enqueueMail({ to: found.traveler.email, subject, text }, tx);
}
