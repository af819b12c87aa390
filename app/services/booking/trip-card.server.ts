import { and, asc, eq, gte, isNull } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { orders, users } from '~db/schema';
import { todayInTaipei } from '~/lib/dates';
import { PAID_FOR_STATUSES, type PaymentStatus } from '~/lib/payments';
import type { TimeSlot } from '~/lib/time-slots';
import { blobUrl } from '../platform/blobs.server';
import { now as clockNow } from '../platform/clock.server';
import { latestPayments } from '../payments/order-payments.server';

export interface TripCardEntry {
  orderId: number;
  date: string;
  timeSlot: TimeSlot;
  numberOfPeople: number;
  /** The traveler's own note to the guide. */
  note: string | null;
  totalPrice: number;
  /** Whether the tour is paid for (a card authorised or charged); null for a tour booked without a payment. */
  paid: boolean | null;
  meetingPoint: string | null;
  guidePhone: string | null;
  guide: { id: number; name: string; avatar: string | null; email: string };
  calendarUrl: string;
}

/**
 * The offline trip card (issue 24): the traveler's confirmed tours from today (Taiwan) on, with what is needed
 * to meet the guide. Only the traveler's own orders; a guide's or an admin's card is their bookings as traveler.
 */
export async function tripCard(travelerId: number, db: Database = getDb(), now: Date = clockNow()): Promise<TripCardEntry[]> {
  const rows = await db
    .select({
      orderId: orders.id,
      date: orders.date,
      timeSlot: orders.timeSlot,
      numberOfPeople: orders.numberOfPeople,
      note: orders.note,
      totalPrice: orders.totalPrice,
      meetingPoint: orders.meetingPoint,
      guidePhone: orders.guidePhone,
      guideId: users.id,
      guideName: users.name,
      guideAvatarKey: users.avatarKey,
      guideEmail: users.email,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.guideId))
    .where(
      and(eq(orders.travelerId, travelerId), eq(orders.status, 'confirmed'), isNull(orders.deletedAt), gte(orders.date, todayInTaipei(now))),
    )
    .orderBy(asc(orders.date), asc(orders.id));
  const payments = await latestPayments(rows.map((row) => row.orderId), db);
  return rows.map((row) => ({
    orderId: row.orderId,
    date: row.date,
    timeSlot: row.timeSlot,
    numberOfPeople: row.numberOfPeople,
    note: row.note,
    totalPrice: row.totalPrice,
    paid: paidFor(payments.get(row.orderId)?.status),
    meetingPoint: row.meetingPoint,
    guidePhone: row.guidePhone,
    guide: { id: row.guideId, name: row.guideName, avatar: blobUrl(row.guideAvatarKey), email: row.guideEmail },
    calendarUrl: `/orders/${row.orderId}/calendar.ics`,
  }));
}

/** A confirmed tour's money as the traveler reads it on the card: paid once the card is authorised or charged. */
function paidFor(status: PaymentStatus | undefined): boolean | null {
  if (status === undefined) return null;
  return PAID_FOR_STATUSES.includes(status);
}
