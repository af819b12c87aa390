/*
 * Ranking guides by rating (issue 9): a plain average lets 5.0 from one review beat 4.8 from fifty. The
 * Bayesian average counts PRIOR_WEIGHT imaginary reviews of PRIOR_MEAN stars for every guide, so a few
 * reviews move a guide's score a little and many reviews move it a lot. The prior is a fixed, modest 3.5
 * rather than the site-wide mean: travel reviews cluster around 4.6–4.8, and with a prior that high a single
 * 5-star review would still outrank 4.8 from five (issue 9's complaint). Pure: the services order by the
 * same formula (`bayesianRatingSql` in app/services/catalogue/guide-visibility.server.ts, built from these constants).
 */

/** How many imaginary reviews every guide starts with. */
export const PRIOR_WEIGHT = 5;
/** The stars of those imaginary reviews. */
export const DEFAULT_PRIOR_MEAN = 3.5;

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
