import { sql, type SQL } from 'drizzle-orm';
import { users } from '~db/schema';
import { DEFAULT_PRIOR_MEAN, PRIOR_WEIGHT } from '~/lib/rating';

/*
 * Ranking the guides the public may see (trending, recommendations, the home page). Which guides those are is
 * guide-publishable.server.ts's `publishableGuide`; cards come from guides.server.ts (`guideCardColumns`,
 * `toCards`), with the ratings stored on each guide (refreshGuideRating).
 */

/** app/lib/rating.ts `bayesianRating` as SQL over the guide's stored rating, for ORDER BY. */
export function bayesianRatingSql(priorMean: number = DEFAULT_PRIOR_MEAN): SQL<number> {
  const prior = Number(priorMean.toFixed(6));
  return sql<number>`((${PRIOR_WEIGHT}::float * ${sql.raw(String(prior))}) + coalesce(${users.ratingAverage}, 0) * ${users.ratingCount}) / (${PRIOR_WEIGHT}::float + ${users.ratingCount})`;
}
