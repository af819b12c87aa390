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

/** Reviews that count toward a guide's rating: written by travelers about the guide, not hidden. */
export function countsTowardGuideRating(): SQL | undefined {
  return and(eq(reviews.role, 'traveler'), countsTowardRating());
}

/**
 * Recomputes a guide's stored rating figures (`users.rating_average`, `users.rating_count`) from the reviews
 * that count. Call it inside the transaction that writes, hides or shows a review of the guide, so the figures
 * lists sort and filter by are never out of step with the reviews (issue 9).
 */
export async function refreshGuideRating(tx: Database, guideId: number): Promise<{ average: number | null; count: number }> {
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
