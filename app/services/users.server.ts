import { and, desc, eq, gte, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { getDb, type Database } from '~db/client';
import {
  availabilitySlots,
  emailCodes,
  favorites,
  idVerifications,
  orders,
  photos,
  reviews,
  users,
} from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { normaliseEmail } from '~/lib/email';
import { isGuideProfileInput, type ProfileInput } from '~/schemas/profile';
import type {
  Earnings,
  IdVerificationState,
  UserOrderSummary,
  UserReview,
  UserStats,
} from '~/schemas/user-views';
import { assertSelfOrAdmin, type Viewer } from './access.server';
import { recordAudit } from './audit.server';
import { averageRatingSql, countsTowardRating } from './ratings.server';
import { blobUrl } from './blobs.server';
import { parseIdParam } from '~/lib/ids';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from './errors.server';
import { consumeEmailCode, resendCooldownSeconds, sendEmailCode } from './email-codes.server';
import { hashPassword } from './passwords.server';
import { CODE_FAILURES_PER_ACCOUNT, CODE_FAILURES_PER_IP, ipKey, releaseAttempt, reserveAttempt } from './rate-limit.server';

export async function findUserByEmail(email: string, db: Database = getDb()) {
  const [row] = await db.select().from(users).where(eq(sql`lower(${users.email})`, normaliseEmail(email)));
  return row;
}

export type UserRow = typeof users.$inferSelect;
export type UserType = UserRow['type'];

/**
 * What a user looks like outside the server (API `data.user`, the root loader): SPEC §3 User. Never the
 * password hash. `isVerified` and `verificationStatus` are derived from the ID check (SPEC §3).
 */
export function toPublicUser(user: UserRow) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    // A new address waiting for its code; `email` stays the login until it is confirmed.
    pendingEmail: user.pendingEmail,
    type: user.type,
    bio: user.bio,
    city: user.city,
    language: user.language,
    price: user.price,
    description: user.description,
    avatar: blobUrl(user.avatarKey),
    locale: user.locale,
    status: user.status,
    guideStatus: user.guideStatus,
    isEmailVerified: user.isEmailVerified,
    isIdVerified: user.isIdVerified,
    isVerified: user.isIdVerified,
    verificationStatus: user.isIdVerified ? ('approved' as const) : ('pending' as const),
    emailVerificationDate: user.emailVerifiedAt?.toISOString() ?? null,
    idVerificationType: user.idVerificationType,
    idVerificationDate: user.idVerifiedAt?.toISOString() ?? null,
    registerDate: user.registerDate.toISOString(),
    lastLogin: user.lastLogin?.toISOString() ?? null,
    isBlocked: user.blockedAt !== null,
    isArchived: user.deletedAt !== null,
  };
}
export type PublicUser = ReturnType<typeof toPublicUser>;

export async function findUserById(id: number, db: Database = getDb()) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/* ------------------------------------------------------------------------------------------------------
 * The profile (SPEC §2 /me, §3 User and Stats, §5 profile save, §6, §7 Users): who may read and edit an
 * account, saving it, and the figures the profile page and GET /api/v1/users/:id/stats show.
 * ---------------------------------------------------------------------------------------------------- */

/**
 * A user id from a URL segment (`/api/v1/users/:id`): anything that is not a positive whole number in the
 * column's range ("abc", "1e3", "-1", "99999999999") names no user, so it is 404 USER_NOT_FOUND rather than
 * a database error.
 */
export function userIdParam(raw: string | number | undefined): number {
  const id = parseIdParam(raw);
  if (id === undefined) throw new AppError('USER_NOT_FOUND');
  return id;
}

export function getProfile(viewer: Viewer, userId: number, db: Database = getDb()): Promise<UserRow> {
  return assertSelfOrAdmin(viewer, userId, {}, db);
}

/**
 * Saves the editable profile fields (input already checked with `profileSchemaFor(user.type)`). A different
 * email address is not applied at once: it must be free (409 EMAIL_TAKEN on the email field), is kept as
 * `pendingEmail`, and a change_email code is mailed to it; the old address stays the login (and stays
 * verified) until the code is confirmed (confirmEmailChange). Sending the current address again leaves a
 * pending change as it is.
 */
export async function updateProfile(
  viewer: Viewer,
  userId: number,
  input: ProfileInput,
  db: Database = getDb(),
): Promise<UserRow> {
  const target = await assertSelfOrAdmin(viewer, userId, { write: true }, db);
  const isGuide = target.type === 'guide';
  if (isGuide && !isGuideProfileInput(input)) {
    throw new AppError('VALIDATION_ERROR', { messageKey: 'validation.guideFieldsRequired' });
  }
  const email = normaliseEmail(input.email);
  const emailChanged = email !== normaliseEmail(target.email);
  const emailTaken = () => new AppError('EMAIL_TAKEN', { fieldErrors: { email: ['errors.codes.EMAIL_TAKEN'] } });
  if (emailChanged) {
    const other = await findUserByEmail(email, db);
    if (other && other.id !== target.id) throw emailTaken();
  }

  const now = new Date();
  const values: Partial<typeof users.$inferInsert> = {
    name: input.name,
    bio: input.bio ?? null,
    updatedAt: now,
    ...(emailChanged ? { pendingEmail: email } : {}),
  };
  if (isGuide && isGuideProfileInput(input)) {
    Object.assign(values, {
      city: input.city,
      language: [...new Set(input.language)],
      price: input.price,
      description: input.description,
    });
  }

  let updated: UserRow;
  try {
    updated = await db.transaction(async (tx) => {
      const [row] = (await tx.update(users).set(values).where(eq(users.id, target.id)).returning()) as [UserRow];
      if (viewer.id !== target.id) {
        await recordAudit(
          {
            actorId: viewer.id,
            action: 'user.profile_update',
            targetType: 'user',
            targetId: target.id,
            details: { fields: changedFields(target, row), ...(emailChanged ? { emailChangeRequested: true } : {}) },
          },
          tx,
        );
      }
      return row;
    });
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw emailTaken();
    throw error;
  }

  if (emailChanged) await mailEmailChangeCode(updated, email, db);
  return updated;
}

/** Mails the change_email code to the pending address; a failure leaves the change pending (/me can resend). */
async function mailEmailChangeCode(user: UserRow, to: string, db: Database): Promise<void> {
  try {
    await sendEmailCode(user, 'change_email', { to, db });
  } catch (error) {
    // Within a minute of the last code (another change just now): /me shows the resend button and its wait.
    if (error instanceof AppError && error.code === 'RESEND_COOLDOWN') return;
    console.error('profile: could not send a code to the new address', error);
  }
}

/*
 * Changing the email address (issue 7): updateProfile keeps the new address as pending and mails it a
 * change_email code; these confirm, resend or cancel it. Only the account itself confirms (the code is in
 * its new mailbox); the account or an admin may cancel.
 */

const nothingPending = () => new AppError('INVALID_CODE', { messageKey: 'profile.emailChange.nothingPending' });

/**
 * Confirms the pending address with its code: it becomes the account's email (and login), verified. The
 * code must be the one mailed to that very address (a code mailed to an earlier pending address does not
 * fit). Wrong codes count against the per-client-address code limit and one for the account, like every
 * code check (rate-limit.server.ts). 409 EMAIL_TAKEN when another account took the address meanwhile; the
 * pending change is then dropped.
 */
export async function confirmEmailChange(
  viewer: Viewer,
  userId: number,
  input: { code: string },
  meta: { ip: string },
  db: Database = getDb(),
): Promise<UserRow> {
  if (viewer.id !== userId) throw new AppError('FORBIDDEN');
  const user = await assertSelfOrAdmin(viewer, userId, { write: true }, db);
  const pending = user.pendingEmail;
  if (!pending) throw nothingPending();

  const limits = [
    { key: `code:ip:${ipKey(meta.ip)}`, limit: CODE_FAILURES_PER_IP },
    { key: `code:email-change:${user.id}`, limit: CODE_FAILURES_PER_ACCOUNT },
  ];
  await reserveAttempt(limits);
  try {
    await consumeEmailCode(user.id, 'change_email', input.code, { address: pending, db });
  } catch (error) {
    // INVALID_CODE and CODE_EXPIRED keep their slot; anything else was not a guess.
    if (!(error instanceof AppError)) await releaseAttempt(limits);
    throw error;
  }
  await releaseAttempt(limits);

  const taken = async () => {
    await db.update(users).set({ pendingEmail: null, updatedAt: new Date() }).where(eq(users.id, user.id));
    return new AppError('EMAIL_TAKEN');
  };
  const other = await findUserByEmail(pending, db);
  if (other && other.id !== user.id) throw await taken();
  const now = new Date();
  try {
    const [row] = (await db
      .update(users)
      .set({ email: normaliseEmail(pending), pendingEmail: null, isEmailVerified: true, emailVerifiedAt: now, updatedAt: now })
      .where(eq(users.id, user.id))
      .returning()) as [UserRow];
    return row;
  } catch (error) {
    // Someone registered the address between the check above and this write.
    if (pgErrorCode(error) === UNIQUE_VIOLATION) throw await taken();
    throw error;
  }
}

/** Mails a new code to the pending address (429 RESEND_COOLDOWN within a minute of the last). */
export async function resendEmailChangeCode(viewer: Viewer, userId: number, db: Database = getDb()): Promise<UserRow> {
  const user = await assertSelfOrAdmin(viewer, userId, { write: true }, db);
  if (!user.pendingEmail) throw nothingPending();
  await sendEmailCode(user, 'change_email', { to: user.pendingEmail, db });
  return user;
}

/** Drops the pending address and its code; the account keeps its email. */
export async function cancelEmailChange(viewer: Viewer, userId: number, db: Database = getDb()): Promise<UserRow> {
  const user = await assertSelfOrAdmin(viewer, userId, { write: true }, db);
  return db.transaction(async (tx) => {
    const [row] = (await tx
      .update(users)
      .set({ pendingEmail: null, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning()) as [UserRow];
    await tx.delete(emailCodes).where(and(eq(emailCodes.userId, user.id), eq(emailCodes.purpose, 'change_email')));
    return row;
  });
}

/** Seconds until another code may be mailed to the pending address (0 when one may be sent now). */
export async function emailChangeCooldown(userId: number, db: Database = getDb()): Promise<number> {
  return resendCooldownSeconds(userId, db, 'change_email');
}

const EDITABLE_FIELDS = ['name', 'email', 'bio', 'city', 'language', 'price', 'description'] as const;

function changedFields(before: UserRow, after: UserRow): string[] {
  return EDITABLE_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
}

/** Hours of guiding counted per completed order (a day tour). */
export const SERVICE_HOURS_PER_ORDER = 8;

const num = (v: unknown) => Number(v ?? 0);

/** Taiwan calendar month of `today` as [first day, first day of next month). */
function taipeiMonth(today = todayInTaipei()): [string, string] {
  const [y, m] = today.split('-').map(Number) as [number, number];
  const start = `${y}-${String(m).padStart(2, '0')}-01`;
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
  return [start, next];
}


/**
 * SPEC §3 Stats. Orders count whichever side the user was on and leave out deleted ones.
 * - averageRating / totalReviews: reviews the user received that are not hidden (0 when none).
 * - totalEarnings: completed orders as guide. totalSpent / currentMonthSpent: completed or confirmed
 *   orders as traveler, the latter with a tour date in the current Asia/Taipei month.
 * - totalFavorites: for a guide how many people keep them as a favorite, for others their own favorites.
 * - guideStats.isAvailable: an available slot from today (Taipei) on.
 */
export async function getUserStats(userId: number, db: Database = getDb()): Promise<UserStats> {
  const [monthStart, nextMonth] = taipeiMonth();
  const today = todayInTaipei();
  const [[o], [received], [given], [fav], [slot], [user]] = await Promise.all([
    db
      .select({
        total: sql<number>`count(*)`.mapWith(Number),
        completed: sql<number>`count(*) filter (where ${orders.status} = 'completed')`.mapWith(Number),
        guideCompleted: sql<number>`count(*) filter (where ${orders.status} = 'completed' and ${orders.guideId} = ${userId})`.mapWith(Number),
        earnings: sql<number>`coalesce(sum(${orders.totalPrice}) filter (where ${orders.status} = 'completed' and ${orders.guideId} = ${userId}), 0)`.mapWith(Number),
        bookings: sql<number>`count(*) filter (where ${orders.travelerId} = ${userId})`.mapWith(Number),
        spent: sql<number>`coalesce(sum(${orders.totalPrice}) filter (where ${orders.status} in ('completed', 'confirmed') and ${orders.travelerId} = ${userId}), 0)`.mapWith(Number),
        monthSpent: sql<number>`coalesce(sum(${orders.totalPrice}) filter (where ${orders.status} in ('completed', 'confirmed') and ${orders.travelerId} = ${userId} and ${orders.date} >= ${monthStart} and ${orders.date} < ${nextMonth}), 0)`.mapWith(Number),
      })
      .from(orders)
      .where(and(or(eq(orders.travelerId, userId), eq(orders.guideId, userId)), isNull(orders.deletedAt))),
    db
      .select({
        count: sql<number>`count(*)`.mapWith(Number),
        average: averageRatingSql(),
      })
      .from(reviews)
      .where(and(eq(reviews.revieweeId, userId), countsTowardRating())),
    db.select({ count: sql<number>`count(*)`.mapWith(Number) }).from(reviews).where(eq(reviews.reviewerId, userId)),
    db
      .select({
        own: sql<number>`count(*) filter (where ${favorites.userId} = ${userId})`.mapWith(Number),
        favoritedBy: sql<number>`count(*) filter (where ${favorites.targetType} = 'guide' and ${favorites.targetId} = ${userId})`.mapWith(Number),
      })
      .from(favorites)
      .where(or(eq(favorites.userId, userId), and(eq(favorites.targetType, 'guide'), eq(favorites.targetId, userId)))),
    db
      .select({ id: availabilitySlots.id })
      .from(availabilitySlots)
      .where(and(eq(availabilitySlots.guideId, userId), eq(availabilitySlots.available, true), gte(availabilitySlots.date, today)))
      .limit(1),
    db.select({ type: users.type }).from(users).where(eq(users.id, userId)),
  ]);
  const averageRating = num(received?.average);
  const isGuide = user?.type === 'guide';
  return {
    totalOrders: num(o?.total),
    completedOrders: num(o?.completed),
    averageRating,
    totalEarnings: num(o?.earnings),
    totalFavorites: isGuide ? num(fav?.favoritedBy) : num(fav?.own),
    totalReviews: num(received?.count),
    totalSpent: num(o?.spent),
    currentMonthSpent: num(o?.monthSpent),
    travelerStats: { bookingCount: num(o?.bookings), favoriteGuides: num(fav?.own), reviewCount: num(given?.count) },
    guideStats: {
      serviceHours: num(o?.guideCompleted) * SERVICE_HOURS_PER_ORDER,
      averageRating,
      isAvailable: slot !== undefined,
    },
  };
}



/** Orders the user is part of (as traveler, as guide, or either when `type` is not given), newest first. */
export async function listUserOrders(
  userId: number,
  type?: 'traveler' | 'guide' | UserType,
  db: Database = getDb(),
): Promise<UserOrderSummary[]> {
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  const side =
    type === 'traveler'
      ? eq(orders.travelerId, userId)
      : type === 'guide'
        ? eq(orders.guideId, userId)
        : or(eq(orders.travelerId, userId), eq(orders.guideId, userId));
  const rows = await db
    .select({
      id: orders.id,
      status: orders.status,
      date: orders.date,
      timeSlot: orders.timeSlot,
      totalPrice: orders.totalPrice,
      travelerId: orders.travelerId,
      guideId: orders.guideId,
      travelerName: traveler.name,
      guideName: guide.name,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .innerJoin(traveler, eq(traveler.id, orders.travelerId))
    .innerJoin(guide, eq(guide.id, orders.guideId))
    .where(and(side, isNull(orders.deletedAt)))
    .orderBy(desc(orders.createdAt), desc(orders.id));
  return rows.map((r) => {
    const asGuide = r.guideId === userId && (type === 'guide' || r.travelerId !== userId);
    return {
      id: r.id,
      status: r.status,
      date: r.date,
      timeSlot: r.timeSlot,
      totalPrice: r.totalPrice,
      role: asGuide ? 'guide' : 'traveler',
      otherPartyId: asGuide ? r.travelerId : r.guideId,
      otherPartyName: asGuide ? r.travelerName : r.guideName,
      createdAt: r.createdAt.toISOString(),
    };
  });
}


/** Reviews about the user (hidden ones left out) and reviews the user wrote, newest first. */
export async function listUserReviews(
  userId: number,
  db: Database = getDb(),
): Promise<{ received: UserReview[]; given: UserReview[] }> {
  const reviewer = alias(users, 'reviewer');
  const reviewee = alias(users, 'reviewee');
  const query = (where: SQL | undefined) =>
    db
      .select({
        id: reviews.id,
        orderId: reviews.orderId,
        reviewerId: reviews.reviewerId,
        reviewerName: reviewer.name,
        revieweeId: reviews.revieweeId,
        revieweeName: reviewee.name,
        role: reviews.role,
        rating: reviews.rating,
        comment: reviews.comment,
        createdAt: reviews.createdAt,
        isHidden: reviews.isHidden,
      })
      .from(reviews)
      .innerJoin(reviewer, eq(reviewer.id, reviews.reviewerId))
      .innerJoin(reviewee, eq(reviewee.id, reviews.revieweeId))
      .where(where)
      .orderBy(desc(reviews.createdAt), desc(reviews.id));
  const [received, given] = await Promise.all([
    query(and(eq(reviews.revieweeId, userId), eq(reviews.isHidden, false))),
    query(eq(reviews.reviewerId, userId)),
  ]);
  const out = (rows: Awaited<ReturnType<typeof query>>) => rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() }));
  return { received: out(received), given: out(given) };
}


/** A guide's earnings (SPEC §2 earnings tab): only completed, not deleted orders earn. */
export async function getEarnings(userId: number, db: Database = getDb()): Promise<Earnings> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)`.mapWith(Number),
      completed: sql<number>`count(*) filter (where ${orders.status} = 'completed')`.mapWith(Number),
      earnings: sql<number>`coalesce(sum(${orders.totalPrice}) filter (where ${orders.status} = 'completed'), 0)`.mapWith(Number),
    })
    .from(orders)
    .where(and(eq(orders.guideId, userId), isNull(orders.deletedAt)));
  const totalEarnings = num(row?.earnings);
  const completedOrders = num(row?.completed);
  return {
    totalEarnings,
    completedOrders,
    averagePerOrder: completedOrders > 0 ? Math.round(totalEarnings / completedOrders) : 0,
    totalOrders: num(row?.total),
  };
}


/**
 * SPEC §4 ID verification: verified once the account is ID-verified; otherwise the latest application
 * decides (pending or rejected, with the reviewer's notes); without one, not verified.
 */
export async function getIdVerificationState(
  user: Pick<UserRow, 'id' | 'isIdVerified' | 'idVerifiedAt' | 'idVerificationType'>,
  db: Database = getDb(),
): Promise<{ state: IdVerificationState; submittedAt: string | null; reviewNotes: string | null; verifiedAt: string | null }> {
  if (user.isIdVerified) {
    return { state: 'verified', submittedAt: null, reviewNotes: null, verifiedAt: user.idVerifiedAt?.toISOString() ?? null };
  }
  const [latest] = await db
    .select()
    .from(idVerifications)
    .where(eq(idVerifications.userId, user.id))
    .orderBy(desc(idVerifications.submittedAt), desc(idVerifications.id))
    .limit(1);
  if (!latest || latest.status === 'approved') {
    // An approved application whose flag was later withdrawn reads as not verified.
    return { state: 'not_verified', submittedAt: null, reviewNotes: null, verifiedAt: null };
  }
  return {
    state: latest.status,
    submittedAt: latest.submittedAt.toISOString(),
    reviewNotes: latest.reviewNotes,
    verifiedAt: null,
  };
}

/** Available slots a guide has from today to 60 days ahead (the availability window, SPEC §9). */
export async function countAvailableSlots(guideId: number, days = 60, db: Database = getDb()): Promise<number> {
  const today = todayInTaipei();
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(availabilitySlots)
    .where(
      and(
        eq(availabilitySlots.guideId, guideId),
        eq(availabilitySlots.available, true),
        gte(availabilitySlots.date, today),
        lte(availabilitySlots.date, addDays(today, days)),
      ),
    );
  return num(row?.count);
}

/** How many of a guide's photos are approved and how many wait for review. */
export async function countGuidePhotos(guideId: number, db: Database = getDb()): Promise<{ approved: number; pending: number }> {
  const [row] = await db
    .select({
      approved: sql<number>`count(*) filter (where ${photos.status} = 'approved')`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${photos.status} = 'pending_review')`.mapWith(Number),
    })
    .from(photos)
    .where(eq(photos.guideId, guideId));
  return { approved: num(row?.approved), pending: num(row?.pending) };
}
