import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { users } from '~db/schema';
import type { GuideStanding } from '~/schemas/trust';

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
export const publishableGuideCondition: SQL = and(
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

/** The same rule on a loaded row (booking checks, pages that already hold the user). */
export function isPublishableGuide(
  u: Pick<UserRow, 'type' | 'isEmailVerified' | 'status' | 'blockedAt' | 'deletedAt' | 'city' | 'language' | 'price' | 'description' | 'guideStatus'>,
): boolean {
  return (
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

/** The API's view of a stored guide_status. */
export function standingOf(u: Pick<UserRow, 'guideStatus'>): GuideStanding {
  return u.guideStatus === 'suspended' ? 'suspended' : 'active';
}

