import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { favorites, idVerifications, ORDER_STATUSES, orders, photos, reviews, USER_TYPES, users } from '~db/schema';
import { averageRatingSql, countsTowardGuideRating } from './ratings.server';

/**
 * The numbers on each role's home page (SPEC §2: traveler main page, guide center, admin dashboard), read
 * straight from the tables. Deleted (soft-deleted) orders never count; hidden reviews do not count toward a
 * guide's rating, as on the public guide pages.
 */

export interface TravelerDashboard {
  orders: number;
  favorites: number;
  reviewsGiven: number;
}

export async function travelerDashboard(userId: number, db: Database = getDb()): Promise<TravelerDashboard> {
  const [[o], [f], [r]] = await Promise.all([
    db
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.travelerId, userId), isNull(orders.deletedAt))),
    db.select({ n: count() }).from(favorites).where(eq(favorites.userId, userId)),
    db.select({ n: count() }).from(reviews).where(eq(reviews.reviewerId, userId)),
  ]);
  return { orders: o?.n ?? 0, favorites: f?.n ?? 0, reviewsGiven: r?.n ?? 0 };
}

export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface RecentOrder {
  id: number;
  date: string;
  timeSlot: 'morning' | 'afternoon' | 'evening';
  status: OrderStatus;
  numberOfPeople: number;
  totalPrice: number;
  travelerName: string;
}

export interface GuideDashboard {
  pendingOrders: number;
  completedOrders: number;
  /** Average of the travelers' visible ratings, one decimal; null without reviews. */
  averageRating: number | null;
  reviewCount: number;
  recentOrders: RecentOrder[];
}

export const RECENT_ORDERS_LIMIT = 5;

export async function guideDashboard(guideId: number, db: Database = getDb()): Promise<GuideDashboard> {
  const live = and(eq(orders.guideId, guideId), isNull(orders.deletedAt));
  const [statusRows, [rating], recentOrders] = await Promise.all([
    db
      .select({ status: orders.status, n: count() })
      .from(orders)
      .where(live)
      .groupBy(orders.status),
    db
      .select({
        average: averageRatingSql(),
        n: count(),
      })
      .from(reviews)
      .where(and(eq(reviews.revieweeId, guideId), countsTowardGuideRating())),
    db
      .select({
        id: orders.id,
        date: orders.date,
        timeSlot: orders.timeSlot,
        status: orders.status,
        numberOfPeople: orders.numberOfPeople,
        totalPrice: orders.totalPrice,
        travelerName: users.name,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.travelerId))
      .where(live)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(RECENT_ORDERS_LIMIT),
  ]);
  const byStatus = (status: OrderStatus) => statusRows.find((r) => r.status === status)?.n ?? 0;
  return {
    pendingOrders: byStatus('pending'),
    completedOrders: byStatus('completed'),
    averageRating: rating?.n ? Number(rating.average) : null,
    reviewCount: rating?.n ?? 0,
    recentOrders,
  };
}

export type UserType = (typeof USER_TYPES)[number];

export interface AdminDashboard {
  /** Accounts that are not archived, by type. */
  usersByType: Record<UserType, number>;
  blockedUsers: number;
  archivedUsers: number;
  guidesPendingApproval: number;
  ordersByStatus: Record<OrderStatus, number>;
  pendingIdVerifications: number;
  photosAwaitingReview: number;
}

export async function adminDashboard(db: Database = getDb()): Promise<AdminDashboard> {
  const [typeRows, [blocked], [archived], [pendingGuides], statusRows, [idChecks], [photoChecks]] = await Promise.all([
    db.select({ type: users.type, n: count() }).from(users).where(isNull(users.deletedAt)).groupBy(users.type),
    db
      .select({ n: count() })
      .from(users)
      .where(and(isNotNull(users.blockedAt), isNull(users.deletedAt))),
    db.select({ n: count() }).from(users).where(isNotNull(users.deletedAt)),
    db
      .select({ n: count() })
      .from(users)
      .where(and(eq(users.type, 'guide'), eq(users.isIdVerified, false), isNull(users.deletedAt))),
    db.select({ status: orders.status, n: count() }).from(orders).where(isNull(orders.deletedAt)).groupBy(orders.status),
    db.select({ n: count() }).from(idVerifications).where(eq(idVerifications.status, 'pending')),
    db.select({ n: count() }).from(photos).where(eq(photos.status, 'pending_review')),
  ]);
  const usersByType = Object.fromEntries(
    USER_TYPES.map((type) => [type, typeRows.find((r) => r.type === type)?.n ?? 0]),
  ) as Record<UserType, number>;
  const ordersByStatus = Object.fromEntries(
    ORDER_STATUSES.map((status) => [status, statusRows.find((r) => r.status === status)?.n ?? 0]),
  ) as Record<OrderStatus, number>;
  return {
    usersByType,
    blockedUsers: blocked?.n ?? 0,
    archivedUsers: archived?.n ?? 0,
    guidesPendingApproval: pendingGuides?.n ?? 0,
    ordersByStatus,
    pendingIdVerifications: idChecks?.n ?? 0,
    photosAwaitingReview: photoChecks?.n ?? 0,
  };
}

/** The debug page /dev/users: every account with the flags a developer checks first. */
export async function listUsersForDebug(limit = 500, db: Database = getDb()) {
  return db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      type: users.type,
      isEmailVerified: users.isEmailVerified,
      isIdVerified: users.isIdVerified,
      blockedAt: users.blockedAt,
      deletedAt: users.deletedAt,
    })
    .from(users)
    .orderBy(users.id)
    .limit(limit);
}
