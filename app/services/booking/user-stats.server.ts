import { and, eq, isNull, or, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { availabilitySlots, favorites, orders, reviews, users } from '~db/schema';
import { todayInTaipei } from '~/lib/dates';
import { slotLengthHours, TIME_SLOTS } from '~/lib/time-slots';
import type { EarningsTab } from '~/schemas/earnings';
import type { UserStats } from '~/schemas/user-views';
import { bookableSlotCondition } from '../catalogue/availability.server';
import { now as clockNow } from '../platform/clock.server';
import { guideEarnings, guidePayouts } from '../payments/earnings.server';
import { guideEarned } from '../payments/ledger.server';
import { reachedGuide } from '../payments/order-payments.server';
import { payoutAccountOf } from '../payments/payout-accounts.server';
import { averageRatingSql, givenReviewsOf, receivedReviewsOf } from '../catalogue/ratings.server';

/*
 * A user's figures (SPEC §3 Stats, the /me earnings tab, GET /api/v1/users/:id/stats): orders, reviews,
 * favorites, earnings and spending. Reads only; who may see them is the caller's check (access.server.ts).
 */

/** A completed order's hours of guiding: its slot's length (app/lib/time-slots.ts), in SQL. */
const serviceHoursOfOrder = sql`case ${orders.timeSlot} ${sql.join(
  TIME_SLOTS.map((slot) => sql`when ${slot} then ${slotLengthHours(slot)}`),
  sql` `,
)} else 0 end`;

const num = (v: unknown) => Number(v ?? 0);

/** Taiwan calendar month of `today` as [first day, first day of next month). */
function taipeiMonth(today = todayInTaipei()): [string, string] {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const start = `${y}-${String(m).padStart(2, '0')}-01`;
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return [start, next];
}


/**
 * SPEC §3 Stats. Orders count whichever side the user was on and leave out deleted ones.
 * - averageRating / totalReviews: reviews the user received that are not hidden (0 when none);
 *   travelerStats.reviewCount: the reviews the user wrote, whatever their role. Both as the /me reviews tab lists
 *   them (`receivedReviewsOf`, `givenReviewsOf`).
 * - Orders count for the guide once they reached them (paid at some point: `reachedGuide`), as the guide's lists do.
 * - totalEarnings: what the ledger says the guide earned (settled net of commission, less refunds after settling),
 *   the figure the earnings tab adds up per order. totalSpent / currentMonthSpent: completed or confirmed
 *   orders as traveler, the latter with a tour date in the current Asia/Taipei month.
 * - totalFavorites: for a guide how many people keep them as a favorite, for others their own favorites.
 * - guideStats.isAvailable: a slot a traveler can book now (bookableSlotCondition).
 * - guideStats.serviceHours: the hours of the guide's completed orders' slots.
 */
export async function getUserStats(userId: number, db: Database = getDb()): Promise<UserStats> {
  const [monthStart, nextMonth] = taipeiMonth();
  const [[o], [received], [given], [fav], [slot], [user], earned] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)`.mapWith(Number),
        completed: sql<number>`count(*) filter (where ${orders.status} = 'completed')`.mapWith(Number),
        serviceHours: sql<number>`coalesce(sum(${serviceHoursOfOrder}) filter (where ${orders.status} = 'completed' and ${orders.guideId} = ${userId}), 0)`.mapWith(Number),
        bookings: sql<number>`count(*) filter (where ${orders.travelerId} = ${userId})`.mapWith(Number),
        spent: sql<number>`coalesce(sum(${orders.totalPrice}) filter (where ${orders.status} in ('completed', 'confirmed') and ${orders.travelerId} = ${userId}), 0)`.mapWith(Number),
        monthSpent: sql<number>`coalesce(sum(${orders.totalPrice}) filter (where ${orders.status} in ('completed', 'confirmed') and ${orders.travelerId} = ${userId} and ${orders.date} >= ${monthStart} and ${orders.date} < ${nextMonth}), 0)`.mapWith(Number),
      })
      .from(orders)
      .where(and(or(eq(orders.travelerId, userId), and(eq(orders.guideId, userId), reachedGuide())), isNull(orders.deletedAt))),
    db
      .select({
        count: sql<number>`count(*)`.mapWith(Number),
        average: averageRatingSql(),
      })
      .from(reviews)
      .where(receivedReviewsOf(userId)),
    db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(reviews).where(givenReviewsOf(userId)),
    db
      .select({
        own: sql<number>`count(*) filter (where ${favorites.userId} = ${userId})`.mapWith(Number),
        favoritedBy: sql<number>`count(*) filter (where ${favorites.targetType} = 'guide' and ${favorites.targetId} = ${userId})`.mapWith(Number),
      })
      .from(favorites)
      .where(or(eq(favorites.userId, userId), and(eq(favorites.targetType, 'guide'), eq(favorites.targetId, userId)))),
    db
      .select({ id: availabilitySlots.id })
      .from(availabilitySlots)
      .where(and(eq(availabilitySlots.guideId, userId), bookableSlotCondition(clockNow())))
      .limit(1),
    db.select({ type: users.type }).from(users).where(eq(users.id, userId)),
    guideEarned(db, userId),
  ]);
  const averageRating = num(received?.average);
  const isGuide = user?.type === 'guide';
  return {
    totalOrders: num(o?.total),
    completedOrders: num(o?.completed),
    averageRating,
    totalEarnings: isGuide ? earned : 0,
    totalFavorites: isGuide ? num(fav?.favoritedBy) : num(fav?.own),
    totalReviews: num(received?.count),
    totalSpent: num(o?.spent),
    currentMonthSpent: num(o?.monthSpent),
    travelerStats: { bookingCount: num(o?.bookings), favoriteGuides: num(fav?.own), reviewCount: num(given?.count) },
    guideStats: {
      serviceHours: num(o?.serviceHours),
      averageRating,
      isAvailable: slot !== undefined,
    },
  };
}

/**
 * The /me earnings tab (SPEC §2, issue 32): the spec's four figures (total earned, completed orders, the average per
 * completed order, all orders), then the guide's money as the ledger has it (per order: price, commission,
 * net and where it stands; the totals), their payouts and the payout account (masked). No longer the sum of list
 * prices: an order earns what was captured, less refunds and the platform's commission.
 */
export async function getEarnings(guideId: number, db: Database = getDb()): Promise<EarningsTab> {
  const earnings = await guideEarnings(guideId, clockNow(), db);
  const payouts = await guidePayouts(guideId, db);
  const account = await payoutAccountOf(db, guideId);
  const stats = await getUserStats(guideId, db);
  return {
    summary: {
      total: stats.totalEarnings,
      completedOrders: stats.completedOrders,
      averagePerOrder: stats.completedOrders > 0 ? Math.round(stats.totalEarnings / stats.completedOrders) : 0,
      totalOrders: stats.totalOrders,
    },
    earnings,
    payouts,
    account: account && { bankCode: account.bankCode, accountNumberMasked: account.accountNumberMasked, updatedAt: account.updatedAt.toISOString() },
  };
}
