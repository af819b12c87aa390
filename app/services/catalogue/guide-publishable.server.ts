import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { users } from '~db/schema';
import type { GuideStatus } from '~/lib/trust-statuses';

/*
 * "A guide the public may find and book" (issues 9 and 11), defined once, for search, guide pages, favorites,
 * recommendations, booking and the admin's guide list. A new guide is listed without an approval step once
 * the profile is complete; an admin's suspension takes the guide out.
 */

type UserRow = typeof users.$inferSelect;

/** SQL: the guide's standing is not suspended (null and every other value count as active). */
export const notSuspendedCondition: SQL = sql`${users.guideStatus} is distinct from 'suspended'`;

/**
 * The one predicate of "a guide the public may find and book": a guide account, email verified, profile
 * complete (city, a language, price > 0, a description), not blocked, not archived, not suspended.
 */
export const publishableGuide: SQL = and(
  eq(users.type, 'guide'),
  eq(users.isEmailVerified, true),
  eq(users.status, 'active'),
  isNull(users.blockedAt),
  isNull(users.deletedAt),
  sql`${users.city} is not null and ${users.city} <> ''`,
  sql`cardinality(${users.language}) > 0`,
  sql`coalesce(${users.price}, 0) > 0`,
  sql`coalesce(btrim(${users.description}), '') <> ''`,
  notSuspendedCondition,
)!;

type PublishableFacts = Pick<UserRow, 'type' | 'isEmailVerified' | 'status' | 'blockedAt' | 'deletedAt' | 'city' | 'language' | 'price' | 'description' | 'guideStatus'>;

/** The columns `isPublishableGuide` reads, of the users table or an alias of it: a statement selects only these. */
export function publishableFactColumns<T extends { [K in keyof PublishableFacts]: PgColumn }>(t: T): Pick<T, keyof PublishableFacts> {
  return {
    type: t.type,
    isEmailVerified: t.isEmailVerified,
    status: t.status,
    blockedAt: t.blockedAt,
    deletedAt: t.deletedAt,
    city: t.city,
    language: t.language,
    price: t.price,
    description: t.description,
    guideStatus: t.guideStatus,
  };
}

/** The same rule on a loaded row (booking checks, pages that already hold the user); a missing row is not one. */
export function isPublishableGuide<U extends PublishableFacts>(u: U | null | undefined): u is U {
  return (
    !!u &&
    u.type === 'guide' &&
    u.isEmailVerified &&
    u.status === 'active' &&
    !u.blockedAt &&
    !u.deletedAt &&
    Boolean(u.city) &&
    u.language.length > 0 &&
    (u.price ?? 0) > 0 &&
    Boolean(u.description?.trim()) &&
    standingOf(u) === 'active'
  );
}

/** Whether the guide with this id is publishable (favorites refuse any other). */
export async function isPublishableGuideId(id: number, db: Database = getDb()): Promise<boolean> {
  if (!Number.isSafeInteger(id) || id <= 0) return false;
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, id), publishableGuide));
  return row !== undefined;
}

/** The API's view of a stored guide_status. */
export function standingOf(u: Pick<UserRow, 'guideStatus'>): GuideStatus {
  return u.guideStatus === 'suspended' ? 'suspended' : 'active';
}

