import { and, desc, eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import { reviews, users } from '~db/schema';
import type { UserReview } from '~/schemas/user-views';

/* Reviews (SPEC §2 reviews tab). Writing, hiding and the rating figures will join here. */

/** Reviews about the user (hidden ones left out) and reviews the user wrote, newest first. */
export async function listUserReviews(
  userId: number,
  db: Database = getDb(),
): Promise<{ received: UserReview[]; given: UserReview[] }> {
  const reviewer = alias(users, 'reviewer');
  const reviewee = alias(users, 'reviewee');
  const query = (where: SQL | undefined) =>
    db
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
      })
      .from(reviews)
      .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId))
      .innerJoin(reviewee, eq(reviewee.id, reviews.revieweeId))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id));
  const [received, given] = await Promise.all([
    query(and(eq(reviews.revieweeId, userId), eq(reviews.isHidden, false))),
    query(eq(reviews.reviewerId, userId)),
  ]);
  const out = (rows: Awaited<ReturnType<typeof query>>) => rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  return { received: out(received), given: out(given) };
}
