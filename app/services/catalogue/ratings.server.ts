import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '~db/client';
import { reviews, users } from '~db/schema';

/*
 * The one rating expression (issue 8): every place that shows an average of review stars — guide cards and
 * pages, the guide's dashboard, a user's stats — computes it here, so they cannot round differently.
 */

/** The average of `reviews.rating` over the selected rows, rounded to one decimal; null when there are none. */
export function averageRatingSql(): SQL<number | null> {
  return sql<number | null>`round(avg(${reviews.rating})::numeric, 1)::float`;
}

/** Reviews that count toward anyone's rating: hidden ones (moderated) do not. */
export function countsTowardRating(): SQL | undefined {
  return eq(reviews.isHidden, false);
}

/**
 * The one definition of a user's own reviews (issue 19): what the /me reviews tab lists and the stats card
 * counts. Received: about the user, not hidden (what counts toward their rating). Given: written by the user,
 * hidden ones included (their author still sees them, marked).
 */
export function receivedReviewsOf(userId: number): SQL {
  return and(eq(reviews.revieweeId, userId), countsTowardRating())!;
}

export function givenReviewsOf(userId: number): SQL {
  return eq(reviews.reviewerId, userId);
}

/** Reviews that count toward a guide's rating: written by travelers about the guide, not hidden. */
export function countsTowardGuideRating(): SQL | undefined {
  return and(eq(reviews.role, 'traveler'), countsTowardRating());
}

/**
 * Recomputes a guide's stored rating figures (`users.rating_average`, `users.rating_count`) from the reviews
 * that count. Call it inside the transaction that writes, hides, shows or deletes a review of the guide, so the
 * figures lists sort and filter by are never out of step with the reviews (issue 9).
 *
 * Concurrent writers (issue 21): under READ COMMITTED two transactions that each add a review would each count
 * the committed reviews plus their own, and the later commit would store a figure missing the other's review. So
 * the guide's row is locked first: a second writer waits here until the first commits, and its aggregate below,
 * a new statement with a new snapshot, then sees every committed review. The lock is FOR NO KEY UPDATE (what the
 * UPDATE below takes anyway), not FOR UPDATE: inserting a review holds FOR KEY SHARE on the guide's row (the
 * reviewee foreign key), which FOR UPDATE would wait on, so two writers would deadlock.
 */
export async function refreshGuideRating(tx: Database, guideId: number): Promise<{ average: number | null; count: number }> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, guideId)).for('no key update');
  const [row] = await tx
    .select({ average: averageRatingSql(), count: sql<number>`count(*)::int` })
    .from(reviews)
    .where(and(eq(reviews.revieweeId, guideId), countsTowardGuideRating()));
  const figures = { average: row?.average ?? null, count: row?.count ?? 0 };
  await tx
    .update(users)
    .set({ ratingAverage: figures.average, ratingCount: figures.count })
    .where(eq(users.id, guideId));
  return figures;
}
