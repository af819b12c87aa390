/*
 * Ranking guides by rating (issue 9): a plain average lets 5.0 from one review beat 4.8 from fifty. The
 * Bayesian average pulls a guide's mean toward the site-wide mean by PRIOR_WEIGHT imaginary reviews, so a
 * few reviews move it a little and many reviews move it a lot. Pure: the services order by the same formula
 * (`bayesianRatingSql` in app/services/guide-visibility.server.ts builds it from these constants).
 */

/** How many reviews at the site-wide mean every guide starts with. */
export const PRIOR_WEIGHT = 5;
/** The site-wide mean used when there are no reviews at all yet. */
export const DEFAULT_PRIOR_MEAN = 4;

/**
 * The weighted rating of a guide with `count` reviews averaging `average`, against a site-wide mean
 * `priorMean`. A guide without reviews gets the prior mean.
 */
export function bayesianRating(average: number | null, count: number, priorMean: number = DEFAULT_PRIOR_MEAN, weight = PRIOR_WEIGHT): number {
  const n = Math.max(0, count);
  const mean = average ?? priorMean;
  return (weight * priorMean + n * mean) / (weight + n);
}

/** Sorts best first by the Bayesian rating; ties by more reviews, then by lower id (stable pages). */
export function rankByRating<T extends { id: number; averageRating: number | null; reviewCount: number }>(
  guides: readonly T[],
  priorMean: number = DEFAULT_PRIOR_MEAN,
): T[] {
  const score = new Map(guides.map((g) => [g.id, bayesianRating(g.averageRating, g.reviewCount, priorMean)]));
  return [...guides].sort((a, b) => score.get(b.id)! - score.get(a.id)! || b.reviewCount - a.reviewCount || a.id - b.id);
}
