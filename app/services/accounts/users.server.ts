import { and, eq, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { emailCodes, users } from '~db/schema';
import { normaliseEmail } from '~/lib/email';
import { isGuideProfileInput, type ProfileInput } from '~/schemas/profile';
import { assertSelfOrAdmin, type Viewer } from '../platform/access.server';
import { recordAudit } from '../platform/audit.server';
import { blobUrl } from '../platform/blobs.server';
import { consumeEmailCode, resendCooldownSeconds, sendEmailCode } from './email-codes.server';
import { AppError, idParamOr, pgErrorCode, UNIQUE_VIOLATION } from '../platform/errors.server';
import { logError } from '../platform/log.server';
import { translationsOf } from '~/schemas/guide-profile';
import { refreshGuideSearchText } from '../catalogue/guides.server';
import { CODE_FAILURES_PER_ACCOUNT, CODE_FAILURES_PER_IP, ipKey, releaseAttempt, reserveAttempt, type LimitLog } from '../platform/rate-limit.server';

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
    // The most people one booking of this guide may bring (docs/decisions/016-group-size.md); null for others.
    maxGroupSize: user.type === 'guide' ? user.maxGroupSize : null,
    description: user.description,
    headline: user.headline,
    localized: user.localized,
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
 * The profile (SPEC §2 /me, §3 User, §5 profile save, §6, §7 Users): reading and saving an account and
 * changing its email. Who may do so is access.server.ts; the figures /me shows live with their own concepts
 * (user-stats, orders, reviews, availability, photos, id-verification).
 * ---------------------------------------------------------------------------------------------------- */

/** A user id from a URL segment (`/api/v1/users/:id`); see idParamOr. */
export const userIdParam = (raw: string | number | undefined): number => idParamOr('USER_NOT_FOUND', raw);

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
/**
 * The account's editable fields as the profile schema reads them: PUT /api/v1/users/{id} lays the body over
 * these, so a field the body leaves out keeps its value.
 */
export function editableProfileOf(user: UserRow): Record<string, unknown> {
  const base = { name: user.name, email: user.email, bio: user.bio };
  if (user.type !== 'guide') return base;
  return {
    ...base,
    city: user.city,
    language: user.language,
    price: user.price,
    maxGroupSize: user.maxGroupSize,
    description: user.description,
    headline: user.headline,
    headlineEn: user.localized.en?.headline,
    headlineJa: user.localized.ja?.headline,
    descriptionEn: user.localized.en?.description,
    descriptionJa: user.localized.ja?.description,
  };
}

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
      // Absent keeps the guide's maximum group size (docs/decisions/016-group-size.md).
      ...(input.maxGroupSize !== undefined ? { maxGroupSize: input.maxGroupSize } : {}),
      description: input.description,
      headline: input.headline ?? null,
      localized: translationsOf(input),
    });
  }

  let updated: UserRow;
  try {
    updated = await db.transaction(async (tx) => {
      let [row] = (await tx.update(users).set(values).where(eq(users.id, target.id)).returning()) as [UserRow];
      if (isGuide) {
        await refreshGuideSearchText(tx as unknown as Database, target.id);
        [row] = (await tx.select().from(users).where(eq(users.id, target.id))) as [UserRow];
      }
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
    logError('profile: could not send a code to the new address', error, { fields: { user_id: user.id } });
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
/** Only the account itself confirms its new address (an admin cannot, it is the owner's mailbox): checked before the code is read. */
export async function assertMayConfirmEmailChange(viewer: Viewer, userId: number, db: Database = getDb()): Promise<UserRow> {
  if (viewer.id !== userId) throw new AppError('FORBIDDEN');
  return assertSelfOrAdmin(viewer, userId, { write: true }, db);
}

export async function confirmEmailChange(
  viewer: Viewer,
  userId: number,
  input: { code: string },
  meta: { ip: string; limits?: LimitLog },
  db: Database = getDb(),
): Promise<UserRow> {
  const user = await assertMayConfirmEmailChange(viewer, userId, db);
  const pending = user.pendingEmail;
  if (!pending) throw nothingPending();

  const limits = [
    { key: `code:ip:${ipKey(meta.ip)}`, limit: CODE_FAILURES_PER_IP },
    { key: `code:email-change:${user.id}`, limit: CODE_FAILURES_PER_ACCOUNT },
  ];
  await reserveAttempt(limits, undefined, meta.limits);
  try {
    await consumeEmailCode(user.id, 'change_email', input.code, { address: pending, db });
  } catch (error) {
    // INVALID_CODE and CODE_EXPIRED keep their slot; anything else was not a guess.
    if (!(error instanceof AppError)) await releaseAttempt(limits, meta.limits);
    throw error;
  }
  await releaseAttempt(limits, meta.limits);

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

const EDITABLE_FIELDS = ['name', 'email', 'bio', 'city', 'language', 'price', 'maxGroupSize', 'description', 'headline', 'localized'] as const;

function changedFields(before: UserRow, after: UserRow): string[] {
  return EDITABLE_FIELDS.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]));
}
