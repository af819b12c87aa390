import { and, asc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { orders, photos, reviews, users } from '~db/schema';
import type { GuideStatus } from '~/lib/trust-statuses';
import type { Viewer } from '../platform/access.server';
import { recordAudit } from '../platform/audit.server';
import { AppError } from '../platform/errors.server';
import { isPublishableGuide, notSuspendedCondition, standingOf } from '../catalogue/guide-publishable.server';
import { recordNotice } from '../messaging/trust-notices.server';
import type { UserRow } from '../accounts/users.server';

/*
 * Guide standing (issue 11 with issue 9). A new guide is listed without an approval step once their profile
 * is complete; an admin may suspend a guide (and reinstate them), which takes them out of search and
 * booking while their existing orders stay. "Publishable" is guide-publishable.server.ts.
 *
 * Stored values (migration 0004): users.guide_status is active or suspended; null (a traveler, or a guide
 * from before) reads as active. The API also accepts `approved` for active.
 */
const ACTIVE_STORED = 'active' as const;

/** Which profile fields a guide still has to fill before being listed. */
export function missingProfileFields(u: Pick<UserRow, 'city' | 'language' | 'price' | 'description'>): string[] {
  const missing: string[] = [];
  if (!u.city) missing.push('city');
  if (u.language.length === 0) missing.push('language');
  if (!u.price || u.price <= 0) missing.push('price');
  if (!u.description?.trim()) missing.push('description');
  return missing;
}

export async function findGuide(guideId: number, db: Database, options: { includeArchived?: boolean } = {}): Promise<UserRow> {
  const [guide] = Number.isSafeInteger(guideId) && guideId > 0 ? await db.select().from(users).where(eq(users.id, guideId)) : [];
  if (!guide || guide.type !== 'guide' || (guide.deletedAt && !options.includeArchived)) throw new AppError('GUIDE_NOT_FOUND');
  return guide;
}

/** PUT /api/v1/guides/{id}/status (admin) and /admin/guides/:id: suspend or reinstate, with a reason. */
export async function setGuideStanding(
  admin: Viewer,
  guideId: number,
  input: { status: GuideStatus; reason?: string },
  db: Database = getDb(),
): Promise<{ id: number; status: GuideStatus; reason: string | null }> {
  await db.transaction(async (tx) => {
    const guide = await findGuide(guideId, tx);
    const before = standingOf(guide);
    if (before !== input.status) {
      await tx
        .update(users)
        .set({ guideStatus: input.status === 'suspended' ? 'suspended' : ACTIVE_STORED, updatedAt: new Date() })
        .where(eq(users.id, guideId));
      await recordAudit(
        { actorId: admin.id, action: input.status === 'suspended' ? 'guide.suspend' : 'guide.reinstate', targetType: 'user', targetId: guideId, details: { reason: input.reason ?? null, before } },
        tx,
      );
      await recordNotice(guide, input.status === 'suspended' ? 'guideSuspended' : 'guideReinstated', { reason: input.reason ?? '' }, tx);
    }
  });
  return { id: guideId, status: input.status, reason: input.reason ?? null };
}

export interface AdminGuideRow {
  id: number;
  name: string;
  email: string;
  city: string | null;
  isEmailVerified: boolean;
  isIdVerified: boolean;
  standing: GuideStatus;
  blocked: boolean;
  missing: string[];
  publishable: boolean;
  approvedPhotos: number;
  pendingPhotos: number;
  orders: number;
  rating: number | null;
  reviewCount: number;
  registerDate: string;
}

/*
 * Each guide's own figures: one grouped aggregate per table, left-joined on the guide. (The figures were
 * correlated subqueries in a one-table select, where drizzle writes columns without their table, so
 * `guide_id = id` compared a photo, order or review with itself and every guide showed the same numbers.)
 */
function adminGuideQuery(db: Database) {
  const photoCounts = db
    .select({
      guideId: photos.guideId,
      approved: sql<number>`count(*) filter (where ${photos.status} = 'approved')`.as('approved'),
      pending: sql<number>`count(*) filter (where ${photos.status} = 'pending_review')`.as('pending'),
    })
    .from(photos)
    .groupBy(photos.guideId)
    .as('guide_photo_counts');
  const orderCounts = db
    .select({ guideId: orders.guideId, orders: sql<number>`count(*)`.as('orders') })
    .from(orders)
    .where(isNull(orders.deletedAt))
    .groupBy(orders.guideId)
    .as('guide_order_counts');
  const reviewStats = db
    .select({
      guideId: reviews.revieweeId,
      rating: sql<number>`round(avg(${reviews.rating})::numeric, 1)::float`.as('rating'),
      reviewCount: sql<number>`count(*)`.as('review_count'),
    })
    .from(reviews)
    .where(and(eq(reviews.role, 'traveler'), eq(reviews.isHidden, false)))
    .groupBy(reviews.revieweeId)
    .as('guide_review_stats');
  return db
    .select({
      user: users,
      approvedPhotos: sql<number>`coalesce(${photoCounts.approved}, 0)`.mapWith(Number),
      pendingPhotos: sql<number>`coalesce(${photoCounts.pending}, 0)`.mapWith(Number),
      orders: sql<number>`coalesce(${orderCounts.orders}, 0)`.mapWith(Number),
      rating: sql<number | null>`${reviewStats.rating}`,
      reviewCount: sql<number>`coalesce(${reviewStats.reviewCount}, 0)`.mapWith(Number),
    })
    .from(users)
    .leftJoin(photoCounts, eq(photoCounts.guideId, users.id))
    .leftJoin(orderCounts, eq(orderCounts.guideId, users.id))
    .leftJoin(reviewStats, eq(reviewStats.guideId, users.id));
}

function toAdminGuide(r: Awaited<ReturnType<ReturnType<typeof adminGuideQuery>['execute']>>[number]): AdminGuideRow {
  const u = r.user;
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    city: u.city,
    isEmailVerified: u.isEmailVerified,
    isIdVerified: u.isIdVerified,
    standing: standingOf(u),
    blocked: Boolean(u.blockedAt),
    missing: missingProfileFields(u),
    publishable: isPublishableGuide(u),
    approvedPhotos: r.approvedPhotos,
    pendingPhotos: r.pendingPhotos,
    orders: r.orders,
    rating: r.rating === null ? null : Number(r.rating),
    reviewCount: r.reviewCount,
    registerDate: u.registerDate.toISOString(),
  };
}

/** /admin/guides: guides that are not archived, by name, filtered by standing and a search term. */
export async function listGuidesForAdmin(filter: { standing?: GuideStatus; search?: string } = {}, db: Database = getDb()): Promise<AdminGuideRow[]> {
  // `%`, `_` and `\` in a search are the characters themselves, not LIKE wildcards.
  const term = filter.search ? `%${filter.search.replace(/[\\%_]/g, '\\$&')}%` : undefined;
  const rows = await adminGuideQuery(db)
    .where(
      and(
        eq(users.type, 'guide'),
        isNull(users.deletedAt),
        filter.standing === 'suspended' ? sql`${users.guideStatus} = 'suspended'` : filter.standing === 'active' ? notSuspendedCondition : undefined,
        term ? or(ilike(users.name, term), ilike(users.email, term)) : undefined,
      ),
    )
    .orderBy(asc(users.name), asc(users.id))
    .limit(500);
  return rows.map(toAdminGuide);
}

/** /admin/guides/:id */
export async function getGuideForAdmin(guideId: number, db: Database = getDb()): Promise<AdminGuideRow & { bio: string | null; description: string | null; price: number | null; language: string[] }> {
  const [row] = Number.isSafeInteger(guideId) && guideId > 0 ? await adminGuideQuery(db).where(and(eq(users.id, guideId), eq(users.type, 'guide'))) : [];
  if (!row) throw new AppError('GUIDE_NOT_FOUND');
  return { ...toAdminGuide(row), bio: row.user.bio, description: row.user.description, price: row.user.price, language: row.user.language };
}
