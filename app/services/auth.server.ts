import { eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import type { Locale } from '~/i18n/config';
import type { LoginInput, RegisterInput, VerifyEmailInput } from '~/schemas/auth';
import { consumeVerificationCode, ensureVerificationCode, sendVerificationCode } from './email-codes.server';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from './errors.server';
import { hashPassword, verifyPassword } from './passwords.server';
import { assertNotRateLimited, clearFailures, recordFailure } from './rate-limit.server';
import { createSession, revokeSession, type SessionKind } from './sessions.server';
import { signToken } from './tokens.server';
import { findUserByEmail, normaliseEmail, toPublicUser, type UserRow } from './users.server';

/**
 * Accounts (SPEC §2 login/register, §7 Authentication). Each function is the one place for its rule; the
 * web form actions and the /api/v1/auth routes both call these and differ only in how they answer.
 */

export interface RequestMeta {
  /** Client address, for rate limits. */
  ip: string;
  /** The interface language the person is using; stored at registration, used for their mail. */
  locale?: Locale;
}

/** A logged-in session, with a bearer token when it was opened for the API. */
export interface LoginResult {
  user: UserRow;
  session: { id: string; expiresAt: Date };
  token?: string;
}

export async function register(input: RegisterInput, meta: RequestMeta, db: Database = getDb()): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  let user: UserRow;
  try {
    [user] = (await db
      .insert(users)
      .values({
        type: input.type,
        name: input.name,
        email: normaliseEmail(input.email),
        passwordHash,
        locale: meta.locale ?? 'zh-TW',
        ...(input.type === 'guide'
          ? {
              city: input.city,
              language: input.language,
              price: input.price,
              description: input.description,
              // A new guide is listed once an admin approves the profile.
              guideStatus: 'pending' as const,
            }
          : {}),
      })
      .returning()) as [UserRow];
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) {
      throw new AppError('EMAIL_TAKEN', { fieldErrors: { email: ['errors.codes.EMAIL_TAKEN'] } });
    }
    throw error;
  }
  await sendVerificationCode(user, db);
  return user;
}

// Verifying against this when the email is unknown makes both failures take the same time.
const DUMMY_HASH = hashPassword('not-a-real-password');

/**
 * Password login. More than 10 failures a minute from one address or against one account answer 429.
 * Unknown email and wrong password give the same INVALID_CREDENTIALS. An unverified traveler or guide
 * gets EMAIL_NOT_VERIFIED, and a fresh code when the old one is no longer usable.
 */
export async function login(
  input: Pick<LoginInput, 'email' | 'password'>,
  kind: SessionKind,
  meta: RequestMeta,
  db: Database = getDb(),
): Promise<LoginResult> {
  const email = normaliseEmail(input.email);
  const limitKeys = [`login:ip:${meta.ip}`, `login:account:${email}`];
  await assertNotRateLimited(limitKeys);

  const user = await findUserByEmail(email, db);
  const valid = await verifyPassword(user?.passwordHash ?? (await DUMMY_HASH), input.password);
  if (!user || !user.passwordHash || !valid) {
    await recordFailure(limitKeys);
    throw new AppError('INVALID_CREDENTIALS');
  }
  if (user.blockedAt || user.deletedAt) throw new AppError('ACCOUNT_BLOCKED');
  if (!user.isEmailVerified && user.type !== 'admin') {
    await ensureVerificationCode(user, db);
    throw new AppError('EMAIL_NOT_VERIFIED');
  }
  await clearFailures([limitKeys[1]!]);
  return openSession(user, kind, db);
}

/** Starts a session for a user who just proved who they are (password, or an emailed code). */
async function openSession(user: UserRow, kind: SessionKind, db: Database): Promise<LoginResult> {
  const [updated] = await db.update(users).set({ lastLogin: new Date() }).where(eq(users.id, user.id)).returning();
  const session = await createSession(user.id, kind, db);
  const current = updated ?? user;
  return { user: current, session, token: kind === 'api' ? issueToken(current, session) : undefined };
}

export function issueToken(user: UserRow, session: { id: string; expiresAt: Date }): string {
  return signToken(
    {
      id: user.id,
      email: user.email,
      type: user.type,
      isEmailVerified: user.isEmailVerified,
      isIdVerified: user.isIdVerified,
      sid: session.id,
    },
    session.expiresAt,
  );
}

async function findForCode(email: string, db: Database): Promise<UserRow> {
  const user = await findUserByEmail(email, db);
  // An unknown address reads like a wrong code, so the form does not reveal who has an account.
  if (!user || user.blockedAt || user.deletedAt) throw new AppError('INVALID_CODE');
  return user;
}

/**
 * Checks an emailed code and marks the address verified. `kind` opens a session as well (the register and
 * login flows end logged in); without it only the flag changes (the banner of someone already logged in).
 * Wrong codes also count toward the per-address limit, so codes cannot be guessed across many accounts.
 */
export async function verifyEmail(
  input: VerifyEmailInput,
  kind: SessionKind | undefined,
  meta: RequestMeta,
  db: Database = getDb(),
): Promise<{ user: UserRow; login?: LoginResult }> {
  const limitKeys = [`code:ip:${meta.ip}`];
  await assertNotRateLimited(limitKeys);
  const user = await findForCode(input.email, db);
  if (user.isEmailVerified) throw new AppError('ALREADY_VERIFIED');
  try {
    await consumeVerificationCode(user.id, input.code, db);
  } catch (error) {
    await recordFailure(limitKeys);
    throw error;
  }
  const now = new Date();
  const [verified] = (await db
    .update(users)
    .set({ isEmailVerified: true, emailVerifiedAt: now, updatedAt: now })
    .where(eq(users.id, user.id))
    .returning()) as [UserRow];
  return { user: verified, login: kind ? await openSession(verified, kind, db) : undefined };
}

/**
 * Sends a new code (60 s cooldown). Unknown addresses get the same quiet success, so this cannot be used to
 * find out who has an account.
 */
export async function resendVerification(email: string, db: Database = getDb()): Promise<void> {
  const user = await findUserByEmail(email, db);
  if (!user || user.blockedAt || user.deletedAt) return;
  if (user.isEmailVerified) throw new AppError('ALREADY_VERIFIED');
  await sendVerificationCode(user, db);
}

export async function logout(sessionId: string, db: Database = getDb()): Promise<void> {
  await revokeSession(sessionId, db);
}

export { toPublicUser };
