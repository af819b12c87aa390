import { and, asc, count, desc, eq, gt, gte, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { availabilitySlots, orders, photos, reviews, users } from '~db/schema';
import { maskContacts } from '~/lib/contact-mask';
import { addDays, todayInTaipei } from '~/lib/dates';
import { bookingHorizon, type TimeSlot } from '~/lib/time-slots';
import { localizedProfile, type ProfileTranslations } from '~/lib/localized-profile';
import { guideSearchText } from '~/lib/search-text';
import type { GuideCard } from '~/schemas/guide-card';
import { blobUrl } from '../platform/blobs.server';
import { bookableSlotCondition, slotOrder } from './availability.server';
import { cachedCatalogueRead } from './catalogue-cache.server';
import { now as clockNow } from '../platform/clock.server';
import { AppError } from '../platform/errors.server';
import { publishableGuide } from './guide-publishable.server';
import { countsTowardGuideRating } from './ratings.server';

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

/**
 * The first day with a slot a traveler can book now (bookableSlotCondition), for the guides of one page: one query for the page's ids (not a
 * subquery per row, which PostgreSQL would run for every row it sorts).
 */
async function nextAvailableDays(ids: number[], now: Date, db: Database = getDb()): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ guideId: availabilitySlots.guideId, date: sql<string>`min(${availabilitySlots.date})` })
    .from(availabilitySlots)
    .where(and(inArray(availabilitySlots.guideId, ids), bookableSlotCondition(now)))
    .groupBy(availabilitySlots.guideId);
  return new Map(rows.map((r) => [r.guideId, String(r.date).slice(0, 10)]));
}

/** Cards for rows in their order, with each guide's next open day. */
export async function toCards(rows: GuideCardRow[], locale: string): Promise<GuideCard[]> {
  const next = await nextAvailableDays(rows.map((r) => r.id), clockNow());
  return rows.map((r) => toCard({ ...r, nextAvailable: next.get(r.id) ?? null }, locale));
}

export function guideCardColumns() {
  return {
    id: users.id,
    name: users.name,
    avatarKey: users.avatarKey,
    city: users.city,
    languages: users.language,
    price: users.price,
    maxGroupSize: users.maxGroupSize,
    bio: users.bio,
    headline: users.headline,
    localized: users.localized,
    averageRating: users.ratingAverage,
    reviewCount: users.ratingCount,
    isIdVerified: users.isIdVerified,
  };
}

export interface GuideCardRow {
  id: number;
  name: string;
  avatarKey: string | null;
  city: string | null;
  languages: string[];
  price: number | null;
  maxGroupSize: number;
  bio: string | null;
  headline: string | null;
  localized: ProfileTranslations | null;
  averageRating: number | null;
  reviewCount: number | null;
  isIdVerified: boolean;
}

/**
 * A guide's public text (bio, headline, description) with contact details masked: the profile is public, like
 * the board, and bookings stay on the platform (docs/decisions/034-contact-masking.md). The guide's own edit form
 * and admins read the original.
 */
function publicText<T extends string | null>(text: T): T {
  return (text === null ? text : maskContacts(text).text) as T;
}

export function toCard(row: GuideCardRow & { nextAvailable: string | null }, locale: string): GuideCard {
  const { avatarKey, localized, headline, ...rest } = row;
  const text = localizedProfile({ headline, localized, description: null }, locale);
  return {
    ...rest,
    bio: publicText(rest.bio),
    headline: publicText(text.headline),
    writtenIn: text.headline ? text.writtenIn : null,
    avatarUrl: blobUrl(avatarKey),
    averageRating: row.averageRating === null ? null : Math.round(row.averageRating * 10) / 10,
    reviewCount: row.reviewCount ?? 0,
  };
}

/** How many public guides there are and in how many cities (home page line). */
export async function guideCoverage() {
  const [row] = await getDb()
    .select({ guides: count(), cities: sql<number>`count(distinct ${users.city})::int` })
    .from(users)
    .where(publishableGuide);
  return { guides: row?.guides ?? 0, cities: row?.cities ?? 0 };
}

/** Recomputes a guide's keyword search text; call it wherever name, bio, city or profile texts change. */
export async function refreshGuideSearchText(db: Database, userId: number): Promise<void> {
  const [row] = await db
    .select({
      type: users.type,
      name: users.name,
      bio: users.bio,
      city: users.city,
      description: users.description,
      headline: users.headline,
      localized: users.localized,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) return;
  await db
    .update(users)
    .set({ searchText: row.type === 'guide' ? guideSearchText(row) : null })
    .where(eq(users.id, userId));
}

/** Fills the search text of guides that have none (rows written before the column existed); run at start. */
export async function backfillGuideSearchText(db: Database = getDb()): Promise<number> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.type, 'guide'), isNull(users.searchText)));
  for (const row of rows) await refreshGuideSearchText(db, row.id);
  return rows.length;
}

export const DETAIL_SLOT_DAYS = 14;
export const DETAIL_REVIEW_PAGE_SIZE = 10;

/** One publishable guide's page; GUIDE_NOT_FOUND for a traveler, an unknown id or an unpublishable guide. */
export function getGuideDetail(id: number, options: { locale?: string; reviewPage?: number } = {}) {
  const locale = options.locale ?? 'zh-TW';
  const now = clockNow();
  // The page lists bookable slots, which change when a slot's bookings close: the horizon is part of the key.
  const key = `guide:${id}:${locale}:${bookingHorizon(now).key}:${options.reviewPage ?? 1}`;
  return cachedCatalogueRead(key, () => readGuideDetail(id, locale, now, options.reviewPage));
}

async function readGuideDetail(id: number, locale: string, now: Date, askedPage?: number) {
  const today = todayInTaipei(now);
  const db = getDb();
  const [row] = await db
    .select({ ...guideCardColumns(), description: users.description, registerDate: users.registerDate })
    .from(users)
    .where(and(publishableGuide, eq(users.id, id)));
  if (!row) throw new AppError('GUIDE_NOT_FOUND');

  const visibleReviews = and(eq(reviews.revieweeId, id), countsTowardGuideRating());
  const reviewCount = row.reviewCount ?? 0;
  const reviewPages = Math.max(1, Math.ceil(reviewCount / DETAIL_REVIEW_PAGE_SIZE));
  const reviewPage = Math.min(Math.max(1, Math.trunc(askedPage ?? 1)), reviewPages);
  const reviewer = sql<string>`(select name from users r where r.id = ${reviews.reviewerId})`;
  const [photoRows, reviewRows, distributionRows, slotRows, nextDays] = await Promise.all([
    db
      .select({ id: photos.id, blobKey: photos.blobKey })
      .from(photos)
      .where(and(eq(photos.guideId, id), eq(photos.status, 'approved')))
      .orderBy(asc(photos.id)),
    db
      .select({
        id: reviews.id,
        rating: reviews.rating,
        comment: reviews.comment,
        createdAt: reviews.createdAt,
        reviewerName: reviewer,
      })
      .from(reviews)
      .where(visibleReviews)
      .orderBy(desc(reviews.createdAt), desc(reviews.id))
      .limit(DETAIL_REVIEW_PAGE_SIZE)
      .offset((reviewPage - 1) * DETAIL_REVIEW_PAGE_SIZE),
    db
      .select({ rating: reviews.rating, n: sql<number>`count(*)::int` })
      .from(reviews)
      .where(visibleReviews)
      .groupBy(reviews.rating),
    db
      .select({ id: availabilitySlots.id, date: availabilitySlots.date, timeSlot: availabilitySlots.timeSlot, price: availabilitySlots.price })
      .from(availabilitySlots)
      .where(
        and(
          eq(availabilitySlots.guideId, id),
          bookableSlotCondition(now),
          sql`${availabilitySlots.date} < ${addDays(today, DETAIL_SLOT_DAYS)}`,
        ),
      )
      .orderBy(asc(availabilitySlots.date), slotOrder),
    nextAvailableDays([id], now, db),
  ]);

  const distribution = [5, 4, 3, 2, 1].map((stars) => ({ stars, count: distributionRows.find((d) => d.rating === stars)?.n ?? 0 }));
  const days: { date: string; slots: { id: number; timeSlot: TimeSlot; price: number }[] }[] = [];
  for (const s of slotRows) {
    const date = String(s.date).slice(0, 10);
    let day = days.at(-1);
    if (day?.date !== date) days.push((day = { date, slots: [] }));
    day.slots.push({ id: s.id, timeSlot: s.timeSlot, price: s.price });
  }
  const text = localizedProfile({ headline: row.headline, description: row.description, localized: row.localized }, locale);
  return {
    guide: {
      ...toCard({ ...row, nextAvailable: nextDays.get(id) ?? null }, locale),
      headline: publicText(text.headline),
      description: publicText(text.description),
      writtenIn: text.writtenIn,
      registerDate: row.registerDate.toISOString(),
    },
    photos: photoRows.map((p) => ({ id: p.id, url: blobUrl(p.blobKey)! })),
    reviews: reviewRows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    reviewPagination: paginate(reviewPage, DETAIL_REVIEW_PAGE_SIZE, reviewCount),
    ratingDistribution: distribution,
    openDays: days,
  };
}
export type GuideDetail = Awaited<ReturnType<typeof getGuideDetail>>;
