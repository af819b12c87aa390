import { and, asc, eq, gte, isNull } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { orders, users } from '~db/schema';
import { todayInTaipei } from '~/lib/dates';
import type { TimeSlot } from '~/lib/time-slots';
import { blobUrl } from './blobs.server';
import { now as clockNow } from './clock.server';

export interface TripCardEntry {
  orderId: number;
  date: string;
  timeSlot: TimeSlot;
  numberOfPeople: number;
  note: string | null;
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
  return rows.map((row) => ({
    orderId: row.orderId,
    date: row.date,
    timeSlot: row.timeSlot,
    numberOfPeople: row.numberOfPeople,
    note: row.note,
    guide: { id: row.guideId, name: row.guideName, avatar: blobUrl(row.guideAvatarKey), email: row.guideEmail },
    calendarUrl: `/orders/${row.orderId}/calendar.ics`,
  }));
}
