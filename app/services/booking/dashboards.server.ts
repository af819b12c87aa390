import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { idVerifications, orders, photos, reviews, users } from '~db/schema';
import { ACCOUNT_TYPES, type AccountType } from '~/lib/account-types';
import { ORDER_STATUSES, type OrderStatus } from '~/lib/order-status';
import { parseIdParam } from '~/lib/ids';
import { RECENT_DEFAULT_LIMIT, type Recommendation, type RecentBooking, type RecentOrderView } from '~/schemas/discover';
import { assertSelfOrAdmin, type Viewer } from '../platform/access.server';
import { blobUrl } from '../platform/blobs.server';
import { countOpenReports } from '../messaging/chat-reports.server';
import { AppError } from '../platform/errors.server';
import { averageRatingSql, countsTowardGuideRating } from '../catalogue/ratings.server';
import { recommendGuides } from '../catalogue/recommendations.server';
import { getUserStats } from './user-stats.server';
import { reachedGuide } from '../payments/order-payments.server';

/**
 * The numbers on each role's home page (SPEC §2: traveler main page, guide center, admin dashboard), read
 * straight from the tables. Deleted (soft-deleted) orders never count; hidden reviews do not count toward a
 * guide's rating, as on the public guide pages.
 */

export interface TravelerDashboard {
  /** SPEC §3 Stats, the traveler's part (user-stats.server.ts). */
  stats: {
    bookingCount: number;
    favoriteGuides: number;
    reviewCount: number;
    totalSpent: number;
    currentMonthSpent: number;
  };
  recentBookings: RecentBooking[];
  recommendations: Recommendation[];
}

/** The traveler's main page (/traveler): their figures, latest bookings and guides to try. */
export async function travelerDashboard(userId: number, db: Database = getDb(), locale?: string): Promise<TravelerDashboard> {
  const [stats, recentBookings, recommendations] = await Promise.all([
    getUserStats(userId, db),
    recentTravelerBookings(userId, RECENT_DEFAULT_LIMIT, db),
    recommendGuides(userId, 6, db, locale),
  ]);
  return {
    stats: { ...stats.travelerStats, totalSpent: stats.totalSpent, currentMonthSpent: stats.currentMonthSpent },
    recentBookings,
    recommendations,
  };
}

export type { OrderStatus };

export interface GuideDashboard {
  pendingOrders: number;
  completedOrders: number;
  /** Average of the travelers' visible ratings, one decimal; null without reviews. */
  averageRating: number | null;
  reviewCount: number;
  recentOrders: RecentOrderView[];
}

export const RECENT_ORDERS_LIMIT = RECENT_DEFAULT_LIMIT;

/**
 * "Yourself or an admin" for /api/v1/travelers/{id}/… and /api/v1/guides/{id}/…: someone else's id is
 * FORBIDDEN; an unknown id, or an account of another kind, is TRAVELER_NOT_FOUND / GUIDE_NOT_FOUND.
 */
export async function assertRoleOwnerOrAdmin(viewer: Viewer, id: number, type: 'traveler' | 'guide', db: Database = getDb()) {
  const notFound = new AppError(type === 'traveler' ? 'TRAVELER_NOT_FOUND' : 'GUIDE_NOT_FOUND');
  let target;
  try {
    target = await assertSelfOrAdmin(viewer, id, {}, db);
  } catch (error) {
    if (error instanceof AppError && error.code === 'USER_NOT_FOUND') throw notFound;
    throw error;
  }
  if (target.type !== type) throw notFound;
  return target;
}

/**
 * A person's newest orders (not deleted), newest first, each with the other party of the order: the one
 * query behind a traveler's recent bookings and a guide's recent orders.
 */
function recentOrdersQuery(side: 'traveler' | 'guide', personId: number, limit: number, db: Database) {
  const own = side === 'traveler' ? orders.travelerId : orders.guideId;
  const other = side === 'traveler' ? orders.guideId : orders.travelerId;
  return db
    .select({
      id: orders.id,
      date: orders.date,
      timeSlot: orders.timeSlot,
      status: orders.status,
      numberOfPeople: orders.numberOfPeople,
      totalPrice: orders.totalPrice,
      createdAt: orders.createdAt,
      otherId: users.id,
      otherName: users.name,
      otherCity: users.city,
      otherAvatarKey: users.avatarKey,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, other))
    .where(and(eq(own, personId), isNull(orders.deletedAt), side === 'guide' ? reachedGuide() : undefined))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit)
    .then((rows) =>
      rows.map(({ otherId, otherName, otherCity, otherAvatarKey, createdAt, ...order }) => ({
        order: { ...order, createdAt: createdAt.toISOString() },
        other: { id: otherId, name: otherName, city: otherCity, avatarKey: otherAvatarKey },
      })),
    );
}

/** A traveler's newest bookings, with the guide. */
export async function recentTravelerBookings(travelerId: number, limit = RECENT_DEFAULT_LIMIT, db: Database = getDb()): Promise<RecentBooking[]> {
  const rows = await recentOrdersQuery('traveler', travelerId, limit, db);
  return rows.map(({ order, other }) => ({ ...order, guide: { id: other.id, name: other.name, city: other.city, avatarUrl: blobUrl(other.avatarKey) } }));
}

/** A guide's newest orders, with the traveler. */
export async function recentGuideOrders(guideId: number, limit = RECENT_DEFAULT_LIMIT, db: Database = getDb()): Promise<RecentOrderView[]> {
  const rows = await recentOrdersQuery('guide', guideId, limit, db);
  return rows.map(({ order, other }) => ({ ...order, traveler: { id: other.id, name: other.name } }));
}

export async function guideDashboard(guideId: number, db: Database = getDb()): Promise<GuideDashboard> {
  const live = and(eq(orders.guideId, guideId), isNull(orders.deletedAt), reachedGuide());
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
    recentGuideOrders(guideId, RECENT_ORDERS_LIMIT, db),
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

export type UserType = AccountType;

export interface AdminDashboard {
  /** Accounts that are not archived, by type. */
  usersByType: Record<UserType, number>;
  blockedUsers: number;
  archivedUsers: number;
  /** Everything an admin has to decide: ID applications, photos and reported messages awaiting review. */
  awaitingReview: number;
  ordersByStatus: Record<OrderStatus, number>;
  pendingIdVerifications: number;
  photosAwaitingReview: number;
  /** Reported chat messages nobody has dismissed or hidden yet. */
  reportedMessages: number;
}

export async function adminDashboard(db: Database = getDb()): Promise<AdminDashboard> {
  const [typeRows, [blocked], [archived], statusRows, [idChecks], [photoChecks], reportedMessages] = await Promise.all([
    db.select({ type: users.type, n: count() }).from(users).where(isNull(users.deletedAt)).groupBy(users.type),
    db
      .select({ n: count() })
      .from(users)
      .where(and(isNotNull(users.blockedAt), isNull(users.deletedAt))),
    db.select({ n: count() }).from(users).where(isNotNull(users.deletedAt)),
    db.select({ status: orders.status, n: count() }).from(orders).where(isNull(orders.deletedAt)).groupBy(orders.status),
    db.select({ n: count() }).from(idVerifications).where(eq(idVerifications.status, 'pending')),
    db.select({ n: count() }).from(photos).where(eq(photos.status, 'pending_review')),
    countOpenReports(db),
  ]);
  const usersByType = Object.fromEntries(
    ACCOUNT_TYPES.map((type) => [type, typeRows.find((r) => r.type === type)?.n ?? 0]),
  ) as Record<UserType, number>;
  const ordersByStatus = Object.fromEntries(
    ORDER_STATUSES.map((status) => [status, statusRows.find((r) => r.status === status)?.n ?? 0]),
  ) as Record<OrderStatus, number>;
  return {
    usersByType,
    blockedUsers: blocked?.n ?? 0,
    archivedUsers: archived?.n ?? 0,
    // The total is the sum of the queues the dashboard shows beside it (it once left reported messages out).
    awaitingReview: (idChecks?.n ?? 0) + (photoChecks?.n ?? 0) + reportedMessages,
    ordersByStatus,
    pendingIdVerifications: idChecks?.n ?? 0,
    photosAwaitingReview: photoChecks?.n ?? 0,
    reportedMessages,
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

/** The {id} of /api/v1/travelers/{id}/… or /api/v1/guides/{id}/…: anything but a valid id is an unknown person of that kind. */
function roleIdParam(value: string | undefined, notFound: 'TRAVELER_NOT_FOUND' | 'GUIDE_NOT_FOUND'): number {
  const id = parseIdParam(value);
  if (id === undefined) throw new AppError(notFound);
  return id;
}

export const travelerIdParam = (value: string | undefined) => roleIdParam(value, 'TRAVELER_NOT_FOUND');
export const guideIdParam = (value: string | undefined) => roleIdParam(value, 'GUIDE_NOT_FOUND');
