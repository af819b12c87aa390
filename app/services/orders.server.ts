import { and, desc, eq, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { orders, users } from '~db/schema';
import type { UserOrderSummary } from '~/schemas/user-views';
import type { UserType } from './users.server';

/* Orders (SPEC §2 orders tab). Booking will add the writes and the order timeline here. */

/** Orders the user is part of (as traveler, as guide, or either when `type` is not given), newest first. */
export async function listUserOrders(
  userId: number,
  type?: 'traveler' | 'guide' | UserType,
  db: Database = getDb(),
): Promise<UserOrderSummary[]> {
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  const side =
    type === 'traveler'
      ? eq(orders.travelerId, userId)
      : type === 'guide'
        ? eq(orders.guideId, userId)
        : or(eq(orders.travelerId, userId), eq(orders.guideId, userId));
  const rows = await db
    .select({
      id: orders.id,
      status: orders.status,
      date: orders.date,
      timeSlot: orders.timeSlot,
      totalPrice: orders.totalPrice,
      travelerId: orders.travelerId,
      guideId: orders.guideId,
      travelerName: traveler.name,
      guideName: guide.name,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(traveler, eq(traveler.id, orders.travelerId))
    .innerJoin(guide, eq(guide.id, orders.guideId))
    .where(and(side, isNull(orders.deletedAt)))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return rows.map((r) => {
    const asGuide = r.guideId === userId && (type === 'guide' || r.travelerId !== userId);
    return {
      id: r.id,
      status: r.status,
      date: r.date,
      timeSlot: r.timeSlot,
      totalPrice: r.totalPrice,
      role: asGuide ? 'guide' : 'traveler',
      otherPartyId: asGuide ? r.travelerId : r.guideId,
      otherPartyName: asGuide ? r.travelerName : r.guideName,
      createdAt: r.createdAt.toISOString(),
    };
  });
}
