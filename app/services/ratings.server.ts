import { and, eq, sql, type SQL } from 'drizzle-orm';
import { reviews } from '~db/schema';

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
