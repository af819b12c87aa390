import { and, eq, gt, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { reviews, users } from '~db/schema';
import { DEFAULT_PRIOR_MEAN, PRIOR_WEIGHT } from '~/lib/rating';
import type { GuideCard } from '~/schemas/guide-card';
import { blobUrl } from './blobs.server';
import { averageRatingSql, countsTowardGuideRating } from './ratings.server';

/*
 * Which guides the public may see, and their cards, for favorites, trending, recommendations and the home
 * page (issue 9 part B). Part A (search) owns the final definition: at merge time `publishableGuideCondition`
 * is replaced by part A's exported condition (and the rating subquery by its stored ratings) in this one module.
 */

/**
 * A publishable guide: a guide account, email verified, with a complete profile (city, at least one
 * language, price > 0, description), not blocked, not archived, not suspended or refused by an admin.
 */
export function publishableGuideCondition(): SQL {
  return and(
    eq(users.type, 'guide'),
    eq(users.isEmailVerified, true),
    isNotNull(users.city),
    sql`cardinality(${users.language}) > 0`,
    gt(users.price, 0),
    sql`length(trim(coalesce(${users.description}, ''))) > 0`,
    isNull(users.blockedAt),
    isNull(users.deletedAt),
    ne(users.status, 'suspended'),
    or(isNull(users.guideStatus), sql`${users.guideStatus} not in ('rejected', 'suspended')`),
  )!;
}

export async function isPublishableGuide(id: number, db: Database = getDb()): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), publishableGuideCondition()));
  return row !== undefined;
}

/** Visible traveler ratings per guide: average (one decimal) and count. */
export function guideRatingsSubquery(db: Database = getDb()) {
  return db
    .select({
      guideId: reviews.revieweeId,
      averageRating: averageRatingSql().as('average_rating'),
      reviewCount: sql<number>`count(*)::int`.as('review_count'),
      ratingSum: sql<number>`sum(${reviews.rating})::int`.as('rating_sum'),
    })
    .from(reviews)
    .where(countsTowardGuideRating())
    .groupBy(reviews.revieweeId)
    .as('guide_ratings');
}

export type GuideRatings = ReturnType<typeof guideRatingsSubquery>;

/** app/lib/rating.ts `bayesianRating` as SQL over the ratings subquery, for ORDER BY. */
export function bayesianRatingSql(ratings: GuideRatings, priorMean: number = DEFAULT_PRIOR_MEAN): SQL<number> {
  const prior = Number(priorMean.toFixed(6));
  return sql<number>`((${PRIOR_WEIGHT}::float * ${sql.raw(String(prior))}) + coalesce(${ratings.ratingSum}, 0)) / (${PRIOR_WEIGHT}::float + coalesce(${ratings.reviewCount}, 0))`;
}

export function guideCardColumns(ratings: GuideRatings) {
  return {
    id: users.id,
    name: users.name,
    avatarKey: users.avatarKey,
    city: users.city,
    languages: users.language,
    price: users.price,
    bio: users.bio,
    averageRating: ratings.averageRating,
    reviewCount: ratings.reviewCount,
  };
}

export interface GuideCardRow {
  id: number;
  name: string;
  avatarKey: string | null;
  city: string | null;
  languages: string[];
  price: number | null;
  bio: string | null;
  averageRating: number | null;
  reviewCount: number | null;
}

export function toGuideCard(row: GuideCardRow): GuideCard {
  return {
    id: row.id,
    name: row.name,
    avatarUrl: blobUrl(row.avatarKey),
    city: row.city,
    languages: row.languages,
    price: row.price,
    bio: row.bio,
    averageRating: row.averageRating === null ? null : Number(row.averageRating),
    reviewCount: row.reviewCount ?? 0,
  };
}
