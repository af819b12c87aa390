import { and, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { orders, reviews, users } from '~db/schema';
import {
  ADMIN_REVIEW_PAGE_SIZE,
  type AdminReviewQuery,
  type ReviewCreateInput,
  type ReviewHideInput,
  type ReviewView,
  type UserReviewsQuery,
} from '~/schemas/reviews';
import type { UserReview } from '~/schemas/user-views';
import type { Viewer } from '../platform/access.server';
import { recordAudit } from '../platform/audit.server';
import { AppError, idParamOr, pgErrorCode, UNIQUE_VIOLATION } from '../platform/errors.server';
import { deliverOrderNotices, orderNoticeFacts, recordOrderNotice, type PendingNotice } from '../messaging/order-notices.server';
import { getOrderFor } from './orders.server';
import { givenReviewsOf, receivedReviewsOf, refreshGuideRating } from '../catalogue/ratings.server';
import { likeContains } from '../accounts/user-admin.server';

/*
 * Reviews both ways (SPEC §3 Review, §5 Review, issue 10): a traveler reviews the guide and the guide reviews the
 * traveler once both marked the order done; admins search, hide, show again and delete. Every write that touches
 * a traveler→guide review refreshes the guide's stored rating in its own transaction.
 */

type Party = 'traveler' | 'guide';

const reviewer = alias(users, 'reviewer');
const reviewee = alias(users, 'reviewee');

function reviewSelect(db: Database) {
  return db
    .select({
      id: reviews.id,
      orderId: reviews.orderId,
      reviewerId: reviews.reviewerId,
      reviewerName: reviewer.name,
      revieweeId: reviews.revieweeId,
      revieweeName: reviewee.name,
      role: reviews.role,
      rating: reviews.rating,
      comment: reviews.comment,
      createdAt: reviews.createdAt,
      isHidden: reviews.isHidden,
      hiddenReason: reviews.hiddenReason,
    })
    .from(reviews)
    .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId))
    .innerJoin(reviewee, eq(reviewee.id, reviews.revieweeId));
}

type ReviewRow = Awaited<ReturnType<ReturnType<typeof reviewSelect>['execute']>>[number];

function toView(row: ReviewRow, viewer: Viewer | undefined): ReviewView {
  // Why a review was hidden is between the admins and its author.
  const mayReadReason = viewer && (viewer.type === 'admin' || viewer.id === row.reviewerId);
  return { ...row, createdAt: row.createdAt.toISOString(), hiddenReason: mayReadReason ? row.hiddenReason : null };
}

/**
 * The one visibility rule: hidden reviews are never public; their author and admins still see them (marked hidden).
 * The guide page reads the same rule for strangers (`countsTowardGuideRating`: not hidden).
 */
export function visibleTo(viewer: Pick<Viewer, 'id' | 'type'> | undefined): SQL | undefined {
  if (viewer?.type === 'admin') return undefined;
  return viewer ? or(eq(reviews.isHidden, false), eq(reviews.reviewerId, viewer.id)) : eq(reviews.isHidden, false);
}

/** The /me reviews tab: reviews about the user (hidden ones left out) and the reviews the user wrote, newest first. */
export async function listUserReviews(
  userId: number,
  db: Database = getDb(),
): Promise<{ received: UserReview[]; given: UserReview[] }> {
  // The same rows the stats card counts (getUserStats): one definition of received and given.
  const self: Viewer = { id: userId, type: 'traveler' };
  const list = (where: SQL) => reviewSelect(db).where(where).orderBy(desc(reviews.createdAt), desc(reviews.id));
  const [received, given] = await Promise.all([list(receivedReviewsOf(userId)), list(givenReviewsOf(userId))]);
  return { received: received.map((r) => toView(r, self)), given: given.map((r) => toView(r, self)) };
}

/**
 * GET /api/v1/users/{id}/reviews: reviews the user received or gave, newest first. `role` is the user's part in
 * those orders (guide: as the guide; traveler: as the traveler).
 */
export async function listReviewsOf(
  viewer: Viewer | undefined,
  userId: number,
  query: Pick<UserReviewsQuery, 'type'> & { role?: Party },
  db: Database = getDb(),
): Promise<ReviewView[]> {
  const received = query.type === 'received';
  // reviews.role is the reviewer's part: what the user received as a guide was written by travelers.
  const reviewRole = query.role ? (received ? (query.role === 'guide' ? 'traveler' : 'guide') : query.role) : undefined;
  const rows = await reviewSelect(db)
    .where(
      and(
        received ? eq(reviews.revieweeId, userId) : eq(reviews.reviewerId, userId),
        reviewRole ? eq(reviews.role, reviewRole) : undefined,
        visibleTo(viewer),
      ),
    )
    .orderBy(desc(reviews.createdAt), desc(reviews.id));
  return rows.map((r) => toView(r, viewer));
}

export async function assertUserExists(userId: number, db: Database = getDb()): Promise<void> {
  const [row] = Number.isSafeInteger(userId) && userId > 0 ? await db.select({ id: users.id, deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)) : [];
  if (!row || row.deletedAt) throw new AppError('USER_NOT_FOUND');
}

/** The reviews of one order (both sides) for its traveler, its guide or an admin. */
export async function listOrderReviews(viewer: Viewer, orderId: number, db: Database = getDb()): Promise<ReviewView[]> {
  await getOrderFor(viewer, orderId, db);
  const rows = await reviewSelect(db)
    .where(and(eq(reviews.orderId, orderId), visibleTo(viewer)))
    .orderBy(reviews.createdAt, reviews.id);
  return rows.map((r) => toView(r, viewer));
}

/** What the order page shows: the order's reviews and whether the viewer may write one now. */
export async function orderReviewState(viewer: Viewer, orderId: number, db: Database = getDb()) {
  const order = await getOrderFor(viewer, orderId, db);
  const list = await listOrderReviews(viewer, orderId, db);
  const party: Party | undefined = viewer.id === order.travelerId ? 'traveler' : viewer.id === order.guideId ? 'guide' : undefined;
  // Own reviews are always in `list` (the author sees even a hidden one).
  const reviewed = list.some((r) => r.reviewerId === viewer.id);
  const canReview = !!party && !order.deletedAt && order.travelerCompleted && order.guideCompleted && !reviewed;
  return { reviews: list, canReview, reviewed, party };
}

/**
 * Writes one review (SPEC §5): the order exists and is not deleted (404); the reviewer is its traveler or its guide
 * (403); both completion flags are set (409 ORDER_NOT_COMPLETED); a traveler's email is verified (403); the
 * reviewee is the guide for a traveler and the traveler for a guide (a different `revieweeId` is 400); one review
 * per reviewer per order, decided by the unique index (409 ALREADY_REVIEWED). The reviewee is told in their
 * language (notification in the transaction; mail and socket event after the commit).
 */
export async function createReview(
  input: { orderId: number; reviewerId: number } & ReviewCreateInput,
  db: Database = getDb(),
): Promise<ReviewView> {
  const [order] = Number.isSafeInteger(input.orderId) && input.orderId > 0 ? await db.select().from(orders).where(eq(orders.id, input.orderId)) : [];
  if (!order || order.deletedAt) throw new AppError('NOT_FOUND');
  if (input.userId !== undefined && input.userId !== input.reviewerId) throw new AppError('FORBIDDEN');
  const party: Party | undefined =
    input.reviewerId === order.travelerId ? 'traveler' : input.reviewerId === order.guideId ? 'guide' : undefined;
  if (!party) throw new AppError('FORBIDDEN');
  if (!order.travelerCompleted || !order.guideCompleted) throw new AppError('ORDER_NOT_COMPLETED');
  const [author] = await db.select().from(users).where(eq(users.id, input.reviewerId));
  if (!author) throw new AppError('FORBIDDEN');
  if (party === 'traveler' && !author.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  const revieweeId = party === 'traveler' ? order.guideId : order.travelerId;
  if (input.revieweeId !== undefined && input.revieweeId !== revieweeId) {
    throw new AppError('VALIDATION_ERROR', { fieldErrors: { revieweeId: ['reviews.errors.revieweeMismatch'] } });
  }

  let pending: PendingNotice[] = [];
  let id = 0;
  try {
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(reviews)
        .values({ orderId: order.id, reviewerId: author.id, revieweeId, role: party, rating: input.rating, comment: input.comment || null })
        .returning({ id: reviews.id });
      id = row!.id;
      if (party === 'traveler') await refreshGuideRating(tx, revieweeId);
      const [target] = await tx.select().from(users).where(eq(users.id, revieweeId));
      const [traveler, guide] = party === 'traveler' ? [author, target!] : [target!, author];
      pending = [
        await recordOrderNotice(
          target!,
          'reviewed',
          orderNoticeFacts(order, { traveler: traveler.name, guide: guide.name, actor: author.name }, { rating: input.rating }),
          tx,
        ),
      ];
    });
  } catch (error) {
    // Two submissions at once: the unique index (order, reviewer) lets exactly one in.
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw new AppError('ALREADY_REVIEWED');
    throw error;
  }
  await deliverOrderNotices(pending);
  return getReview(id, { id: author.id, type: author.type }, db);
}

async function getReview(id: number, viewer: Viewer | undefined, db: Database): Promise<ReviewView> {
  const [row] = Number.isSafeInteger(id) && id > 0 ? await reviewSelect(db).where(eq(reviews.id, id)) : [];
  if (!row) throw new AppError('NOT_FOUND');
  return toView(row, viewer);
}

function assertAdmin(viewer: Viewer) {
  if (viewer.type !== 'admin') throw new AppError('FORBIDDEN');
}

/**
 * The one definition of the admin review search (issue 22): /admin/reviews, GET /api/v1/reviews and the reviews
 * CSV export. Joined with `reviewer` and `reviewee` (reviewTables).
 */
export function reviewSearchCondition(query: Pick<AdminReviewQuery, 'keyword'>): SQL | undefined {
  const keyword = query.keyword?.trim();
  const pattern = keyword ? likeContains(keyword) : undefined;
  return pattern
    ? or(
        ilike(reviews.comment, pattern),
        ilike(reviewer.name, pattern),
        ilike(reviewee.name, pattern),
        /^\d{1,9}$/.test(keyword!) ? eq(reviews.orderId, Number(keyword)) : undefined,
      )
    : undefined;
}

/** The review search's joined people, for the export's own select. */
export const reviewTables = { reviewer, reviewee };

/** Admin search (GET /api/v1/reviews, /admin/reviews): comment, reviewer and reviewee names, or an order number; hidden included. */
export async function searchReviews(viewer: Viewer, query: AdminReviewQuery, db: Database = getDb()) {
  assertAdmin(viewer);
  const where = reviewSearchCondition(query);
  const limit = ADMIN_REVIEW_PAGE_SIZE;
  const [[totalRow], rows] = await Promise.all([
    db
      .select({ n: count() })
      .from(reviews)
      .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId))
      .innerJoin(reviewee, eq(reviewee.id, reviews.revieweeId))
      .where(where),
    reviewSelect(db)
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(limit)
      .offset((query.page - 1) * limit),
  ]);
  const total = totalRow?.n ?? 0;
  const totalPages = Math.ceil(total / limit);
  return {
    reviews: rows.map((r) => toView(r, viewer)),
    pagination: { page: query.page, limit, total, totalPages, hasNext: query.page < totalPages, hasPrev: query.page > 1 },
  };
}

export const reviewIdParam = (raw: string | undefined): number => idParamOr('NOT_FOUND', raw);

/** Admin: hides a review (a reason is required) or shows it again; audited; the guide's rating follows. */
export async function setReviewHidden(viewer: Viewer, id: number, input: ReviewHideInput, db: Database = getDb()): Promise<ReviewView> {
  assertAdmin(viewer);
  const reason = input.hiddenReason?.trim();
  if (input.isHidden && !reason) throw new AppError('VALIDATION_ERROR', { fieldErrors: { hiddenReason: ['reviews.errors.reasonRequired'] } });
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(reviews)
      .set({ isHidden: input.isHidden, hiddenReason: input.isHidden ? reason : null, updatedAt: new Date() })
      .where(eq(reviews.id, id))
      .returning();
    if (!row) throw new AppError('NOT_FOUND');
    await recordAudit(
      {
        actorId: viewer.id,
        action: input.isHidden ? 'review.hide' : 'review.unhide',
        targetType: 'review',
        targetId: id,
        details: input.isHidden ? { reason, orderId: row.orderId } : { orderId: row.orderId },
      },
      tx,
    );
    if (row.role === 'traveler') await refreshGuideRating(tx, row.revieweeId);
  });
  return getReview(id, viewer, db);
}

/** Admin: deletes a review for good; audited with what it said; the guide's rating follows. */
export async function deleteReview(viewer: Viewer, id: number, db: Database = getDb()): Promise<{ id: number }> {
  assertAdmin(viewer);
  await db.transaction(async (tx) => {
    const [row] = await tx.delete(reviews).where(eq(reviews.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND');
    await recordAudit(
      {
        actorId: viewer.id,
        action: 'review.delete',
        targetType: 'review',
        targetId: id,
        details: { orderId: row.orderId, reviewerId: row.reviewerId, revieweeId: row.revieweeId, rating: row.rating, comment: row.comment },
      },
      tx,
    );
    if (row.role === 'traveler') await refreshGuideRating(tx, row.revieweeId);
  });
  return { id };
}
