import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { favorites, users } from '~db/schema';
import type { FavoriteView } from '~/schemas/discover';
import { assertSelfOrAdmin, type Viewer } from '../platform/access.server';
import { AppError } from '../platform/errors.server';
import { FALLBACK_LOCALE } from '~/i18n/config';
import { isPublishableGuideId, publishableGuide } from './guide-publishable.server';
import { guideCardColumns, toCards } from './guides.server';

/*
 * Favorites (SPEC §3 Favorite, §5; issue 9): a person keeps guides they like. One service for the /favorites
 * page, the toggle forms on cards and guide pages, and /api/v1/favorites. A favorite is unique per person
 * and guide (favorites_user_target_unique), so a second add answers the existing record.
 */

type FavoriteRow = typeof favorites.$inferSelect;

export const FAVORITES_PAGE_SIZE = 20;
export const FAVORITES_MAX_PAGE_SIZE = 100;

function toView(row: FavoriteRow, guide: FavoriteView['guide']): FavoriteView {
  return {
    id: row.id,
    userId: row.userId,
    targetType: row.targetType,
    targetId: row.targetId,
    createdAt: row.createdAt.toISOString(),
    guide,
  };
}

/**
 * A person's favorites, newest first, each with the guide's card; `guide` is null when the guide is no
 * longer listed (blocked, archived …), so the person can still remove it. Self or admin.
 */
export async function listFavorites(
  viewer: Viewer,
  userId: number,
  options: { page?: number; limit?: number; locale?: string } = {},
  db: Database = getDb(),
) {
  await assertSelfOrAdmin(viewer, userId, {}, db);
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? FAVORITES_PAGE_SIZE)), FAVORITES_MAX_PAGE_SIZE);
  const page = Math.max(1, Math.trunc(options.page ?? 1));
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(favorites)
      .where(eq(favorites.userId, userId))
      .orderBy(desc(favorites.createdAt), desc(favorites.id))
      .limit(limit)
      .offset((page - 1) * limit),
    db.select({ n: count() }).from(favorites).where(eq(favorites.userId, userId)),
  ]);
  const guideIds = rows.map((r) => r.targetId);
  const cardRows = guideIds.length
    ? await db
        .select(guideCardColumns())
        .from(users)
        .where(and(inArray(users.id, guideIds), publishableGuide))
    : [];
  const cards = await toCards(cardRows, options.locale ?? FALLBACK_LOCALE);
  const byId = new Map(cards.map((c) => [c.id, c]));
  const n = total?.n ?? 0;
  const totalPages = Math.max(1, Math.ceil(n / limit));
  return {
    favorites: rows.map((r) => toView(r, byId.get(r.targetId) ?? null)),
    pagination: { page, limit, total: n, totalPages, hasNext: page < totalPages, hasPrev: page > 1 },
  };
}

/** Which of these guides the person keeps as favorites (for hearts on lists). */
export async function favoriteGuideIds(userId: number, guideIds?: readonly number[], db: Database = getDb()): Promise<Set<number>> {
  if (guideIds && guideIds.length === 0) return new Set();
  const rows = await db
    .select({ targetId: favorites.targetId })
    .from(favorites)
    .where(
      and(
        eq(favorites.userId, userId),
        eq(favorites.targetType, 'guide'),
        guideIds ? inArray(favorites.targetId, [...guideIds]) : undefined,
      ),
    );
  return new Set(rows.map((r) => r.targetId));
}

/**
 * Adds a guide to the person's favorites. Only publishable guides (GUIDE_NOT_FOUND otherwise). A guide may not
 * keep their own profile (FORBIDDEN, issue 21: it would raise their own trending score). A second add keeps the
 * one favorite: `created` is false and the existing record is answered.
 */
export async function addFavorite(viewer: Viewer, guideId: number, db: Database = getDb()): Promise<{ favorite: FavoriteView; created: boolean }> {
  if (viewer.id === guideId) throw new AppError('FORBIDDEN', { messageKey: 'discover.favorites.ownProfile' });
  if (!(await isPublishableGuideId(guideId, db))) throw new AppError('GUIDE_NOT_FOUND');
  return db.transaction(async (tx) => {
    await takeTurn(viewer.id, tx);
    return insertFavorite(viewer.id, guideId, tx);
  });
}

/**
 * A person's favorite writes take turns on their user row (issue 21): without it, on PostgreSQL two toggles at
 * once both found nothing to remove and both answered "added", and an add that lost the insert to a concurrent
 * add could find the row already removed by a third request and answer 404.
 */
async function takeTurn(userId: number, tx: Database): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
}

async function insertFavorite(userId: number, guideId: number, tx: Database): Promise<{ favorite: FavoriteView; created: boolean }> {
  const inserted = await tx
    .insert(favorites)
    .values({ userId, targetType: 'guide', targetId: guideId })
    .onConflictDoNothing()
    .returning();
  if (inserted[0]) return { favorite: toView(inserted[0], null), created: true };
  const [existing] = await tx
    .select()
    .from(favorites)
    .where(and(eq(favorites.userId, userId), eq(favorites.targetType, 'guide'), eq(favorites.targetId, guideId)));
  if (!existing) throw new AppError('GUIDE_NOT_FOUND');
  return { favorite: toView(existing, null), created: false };
}

/**
 * Removes one favorite by its id. NOT_FOUND when there is none (SPEC §5: removing needs the matching record);
 * someone else's is FORBIDDEN (an admin may remove any).
 */
export async function removeFavorite(viewer: Viewer, favoriteId: number, db: Database = getDb()): Promise<FavoriteView> {
  const [row] = Number.isSafeInteger(favoriteId) && favoriteId > 0 ? await db.select().from(favorites).where(eq(favorites.id, favoriteId)) : [];
  if (!row) throw new AppError('NOT_FOUND', { messageKey: 'discover.favorites.notFound' });
  if (row.userId !== viewer.id && viewer.type !== 'admin') throw new AppError('FORBIDDEN');
  await db.transaction(async (tx) => {
    await takeTurn(row.userId, tx);
    await tx.delete(favorites).where(eq(favorites.id, row.id));
  });
  return toView(row, null);
}

/** Removes the person's favorite of this guide; NOT_FOUND when they had none. */
export async function removeFavoriteGuide(viewer: Viewer, guideId: number, db: Database = getDb()): Promise<void> {
  const deleted = await db.transaction(async (tx) => {
    await takeTurn(viewer.id, tx);
    return tx
      .delete(favorites)
      .where(and(eq(favorites.userId, viewer.id), eq(favorites.targetType, 'guide'), eq(favorites.targetId, guideId)))
      .returning({ id: favorites.id });
  });
  if (deleted.length === 0) throw new AppError('NOT_FOUND', { messageKey: 'discover.favorites.notFound' });
}

/**
 * The heart: removes the favorite when there is one, adds it otherwise (only for publishable guides, never
 * the person's own profile). Answers whether the guide is a favorite now.
 */
export async function toggleFavorite(viewer: Viewer, guideId: number, db: Database = getDb()): Promise<{ favorited: boolean }> {
  return db.transaction(async (tx) => {
    await takeTurn(viewer.id, tx);
    const deleted = await tx
      .delete(favorites)
      .where(and(eq(favorites.userId, viewer.id), eq(favorites.targetType, 'guide'), eq(favorites.targetId, guideId)))
      .returning({ id: favorites.id });
    // A self-favorite kept from before the rule can still be removed, never added.
    if (deleted.length > 0) return { favorited: false };
    if (viewer.id === guideId) throw new AppError('FORBIDDEN', { messageKey: 'discover.favorites.ownProfile' });
    if (!(await isPublishableGuideId(guideId, tx))) throw new AppError('GUIDE_NOT_FOUND');
    await insertFavorite(viewer.id, guideId, tx);
    return { favorited: true };
  });
}
