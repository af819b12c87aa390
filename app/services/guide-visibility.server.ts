import { and, eq, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import { DEFAULT_PRIOR_MEAN, PRIOR_WEIGHT } from '~/lib/rating';
import { publishableGuideCondition as publishable } from './guide-publishable.server';

/*
 * Which guides the public may see, for favorites, trending, recommendations and the home page. The rule
 * itself is guide-standing.server.ts's `publishableGuideCondition`; cards come from guides.server.ts
 * (`guideCardColumns`, `toCards`), with the ratings stored on each guide (refreshGuideRating).
 */

export function publishableGuideCondition(): SQL {
  return publishable;
}

/** Whether the guide with this id is publishable (favorites refuse any other). */
export async function isPublishableGuideId(id: number, db: Database = getDb()): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), publishable));
  return row !== undefined;
}

/** app/lib/rating.ts `bayesianRating` as SQL over the guide's stored rating, for ORDER BY. */
export function bayesianRatingSql(priorMean: number = DEFAULT_PRIOR_MEAN): SQL<number> {
  const prior = Number(priorMean.toFixed(6));
  return sql<number>`((${PRIOR_WEIGHT}::float * ${sql.raw(String(prior))}) + coalesce(${users.ratingAverage}, 0) * ${users.ratingCount}) / (${PRIOR_WEIGHT}::float + ${users.ratingCount})`;
}
