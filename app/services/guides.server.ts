import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { getDb } from '~db/client';
import { reviews, users } from '~db/schema';
import type { GuideCard } from '~/schemas/guide-card';
import { blobUrl } from './blobs.server';
import { AppError } from './errors.server';
import { publishableGuideCondition } from './guide-standing.server';
import { listApprovedPhotos } from './photos.server';
import { averageRatingSql, countsTowardGuideRating } from './ratings.server';

export const GUIDE_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

export function paginate(page: number, limit: number, total: number): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / limit));
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}

/** Guides the public may see: the one "publishable" rule of guide-standing.server.ts (issue 11). */
const isPublicGuide = publishableGuideCondition;

/** Ratings travelers gave guides; hidden reviews do not count. */
function guideRatings() {
  return getDb()
    .select({
      guideId: reviews.revieweeId,
      averageRating: averageRatingSql().as('average_rating'),
      reviewCount: sql<number>`count(*)::int`.as('review_count'),
    })
    .from(reviews)
    .where(countsTowardGuideRating())
    .groupBy(reviews.revieweeId)
    .as('guide_ratings');
}


function guideCardColumns(ratings: ReturnType<typeof guideRatings>) {
  return {
    id: users.id,
    name: users.name,
    avatarKey: users.avatarKey,
    city: users.city,
    languages: users.language,
    price: users.price,
    bio: users.bio,
    isIdVerified: users.isIdVerified,
    averageRating: ratings.averageRating,
    reviewCount: ratings.reviewCount,
  };
}

function toCard(row: {
  id: number;
  name: string;
  avatarKey: string | null;
  city: string | null;
  languages: string[];
  price: number | null;
  bio: string | null;
  isIdVerified: boolean;
  averageRating: number | null;
  reviewCount: number | null;
}): GuideCard {
  const { avatarKey, ...rest } = row;
  return { ...rest, avatarUrl: blobUrl(avatarKey), reviewCount: row.reviewCount ?? 0 };
}

/** The public guide list, newest first. Page numbers past the end give an empty page, not an error. */
export async function listGuides(options: { page?: number; limit?: number } = {}) {
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? GUIDE_PAGE_SIZE)), MAX_PAGE_SIZE);
  const page = Math.max(1, Math.trunc(options.page ?? 1));
  const db = getDb();
  const ratings = guideRatings();
  const [rows, [totals]] = await Promise.all([
    db
      .select(guideCardColumns(ratings))
      .from(users)
      .leftJoin(ratings, eq(ratings.guideId, users.id))
      .where(isPublicGuide)
      .orderBy(desc(users.registerDate), desc(users.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ total: count() }).from(users).where(isPublicGuide),
  ]);
  return { guides: rows.map(toCard), pagination: paginate(page, limit, totals?.total ?? 0) };
}

/** Best-rated guides with at least one review, for the home page. */
export async function listFeaturedGuides(limit = 6): Promise<GuideCard[]> {
  const ratings = guideRatings();
  const rows = await getDb()
    .select(guideCardColumns(ratings))
    .from(users)
    .innerJoin(ratings, eq(ratings.guideId, users.id))
    .where(isPublicGuide)
    .orderBy(desc(ratings.averageRating), desc(ratings.reviewCount), asc(users.id))
    .limit(limit);
  return rows.map(toCard);
}

/** How many public guides there are and in how many cities (home page line). */
export async function guideCoverage() {
  const [row] = await getDb()
    .select({ guides: count(), cities: sql<number>`count(distinct ${users.city})::int` })
    .from(users)
    .where(isPublicGuide);
  return { guides: row?.guides ?? 0, cities: row?.cities ?? 0 };
}

/** One public guide with approved photos and visible traveler reviews; GUIDE_NOT_FOUND otherwise. */
export async function getGuideDetail(id: number) {
  const db = getDb();
  const ratings = guideRatings();
  const [row] = await db
    .select({ ...guideCardColumns(ratings), description: users.description, registerDate: users.registerDate })
    .from(users)
    .leftJoin(ratings, eq(ratings.guideId, users.id))
    .where(and(isPublicGuide, eq(users.id, id)));
  if (!row) throw new AppError('GUIDE_NOT_FOUND');

  const reviewer = sql<string>`(select name from users r where r.id = ${reviews.reviewerId})`;
  const [photoRows, reviewRows] = await Promise.all([
    listApprovedPhotos(id),
    db
      .select({
        id: reviews.id,
        rating: reviews.rating,
        comment: reviews.comment,
        createdAt: reviews.createdAt,
        reviewerName: reviewer,
      })
      .from(reviews)
      .where(and(eq(reviews.revieweeId, id), eq(reviews.role, 'traveler'), eq(reviews.isHidden, false)))
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(50),
  ]);

  return {
    guide: { ...toCard(row), description: row.description, registerDate: row.registerDate.toISOString() },
    photos: photoRows.map((p) => ({ id: p.id, url: p.url })),
    reviews: reviewRows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
  };
}
