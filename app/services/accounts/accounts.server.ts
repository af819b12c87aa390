import { eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import type { Locale } from '~/i18n/config';
import type { LoginInput, RegisterInput, VerifyEmailInput } from '~/schemas/account-forms';
import { ensureVerificationCode, sendVerificationCode } from './email-codes.server';
import { redeemCodeForAddress, reserveMailSlot } from './code-redemption.server';
import { AppError, pgErrorCode, UNIQUE_VIOLATION } from '../platform/errors.server';
import { recordAudit } from '../platform/audit.server';
import { hashPassword, verifyPassword } from './passwords.server';
import {
  clearAttempts,
  ipKey,
  LOGIN_FAILURES_PER_ACCOUNT_IP,
  LOGIN_FAILURES_PER_IP,
  releaseAttempt,
  RESENDS_PER_IP,
  reserveAttempt,
  type LimitLog,
} from '../platform/rate-limit.server';
import { createSession, revokeSession, type SessionKind } from './sessions.server';
import { signToken } from './tokens.server';
import { normaliseEmail } from '~/lib/email';
import { refreshGuideSearchText } from '../catalogue/guides.server';
import { recordAgreementAtSignUp } from './terms.server';
import { findUserByEmail, toPublicUser, type UserRow } from './users.server';

/**
 * Accounts (SPEC §2 login/register, §7 Authentication). Each function is the one place for its rule; the
 * web form actions and the /api/v1/auth routes both call these and differ only in how they answer.
 */

export interface RequestMeta {
  /** Client address, for rate limits. */
  ip: string;
  /** The interface language the person is using; stored at registration, used for their mail. */
  locale?: Locale;
  /** Where the limits consulted are noted for the answer's RateLimit-* headers (app/http limitLog). */
  limits?: LimitLog;
}

/** A logged-in session, with a bearer token when it was opened for the API. */
export interface LoginResult {
  user: UserRow;
  session: { id: string; expiresAt: Date };
  token?: string;
}

export async function register(input: RegisterInput, meta: RequestMeta, db: Database = getDb()): Promise<UserRow & { termsAgreedVersion: string | null }> {
  const passwordHash = await hashPassword(input.password);
  let user: UserRow;
  let termsAgreedVersion: string | null = null;
  try {
    // The account and its agreement to the terms (when the box was ticked, issue 24) are one write.
    user = await db.transaction(async (txn) => {
      const tx = txn as unknown as Database;
      const [created] = (await tx
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
                ...(input.maxGroupSize !== undefined ? { maxGroupSize: input.maxGroupSize } : {}),
                description: input.description,
                // A new guide is listed once the email is verified; no approval (issue 9).
                guideStatus: 'active' as const,
              }
            : {}),
        })
        .returning()) as [UserRow];
      if (input.agreeToTerms) termsAgreedVersion = await recordAgreementAtSignUp(created.id, input.termsVersion, tx, undefined, meta.locale);
      return created;
    });
  } catch (error) {
    if (pgErrorCode(error) === UNIQUE_VIOLATION) {
      throw new AppError('EMAIL_TAKEN', { fieldErrors: { email: ['errors.codes.EMAIL_TAKEN'] } });
    }
    throw error;
  }
  if (user.type === 'guide') await refreshGuideSearchText(db, user.id);
  await sendVerificationCode(user, db);
  return { ...user, termsAgreedVersion };
}

// Verifying against this when the email is unknown makes both failures take the same time.
const DUMMY_HASH = hashPassword('not-a-real-password');

/**
 * Password login. More than 10 failures a minute for one account from one client address, or 100 from one
 * address over all accounts, answer 429 (rate-limit.server.ts). The slot is reserved before argon2 runs, so
 * parallel requests cannot get more checks than that; a right password gives its slot back. Unknown email
 * and wrong password give the same INVALID_CREDENTIALS. An unverified traveler or guide gets
 * EMAIL_NOT_VERIFIED, and a fresh code when the old one is no longer usable.
 */
export async function login(
  input: Pick<LoginInput, 'email' | 'password'>,
  kind: SessionKind,
  meta: RequestMeta,
  db: Database = getDb(),
): Promise<LoginResult> {
  const email = normaliseEmail(input.email);
  const ip = ipKey(meta.ip);
  const accountIp = { key: `login:account-ip:${email}:${ip}`, limit: LOGIN_FAILURES_PER_ACCOUNT_IP };
  const perIp = { key: `login:ip:${ip}`, limit: LOGIN_FAILURES_PER_IP };
  await reserveAttempt([accountIp, perIp], undefined, meta.limits);

  let user: UserRow | undefined;
  let valid: boolean;
  try {
    user = await findUserByEmail(email, db);
    valid = await verifyPassword(user?.passwordHash ?? (await DUMMY_HASH), input.password);
  } catch (error) {
    await releaseAttempt([accountIp, perIp], meta.limits); // our failure, not a guess
    throw error;
  }
  // A failure keeps its slot.
  if (!user || !user.passwordHash || !valid) {
    if (user?.type === 'admin') await auditAdminLogin(user, 'user.login_failed', kind, meta, 'password', db);
    throw new AppError('INVALID_CREDENTIALS');
  }
  // The right password (whatever the account's state below) is not a guess: give the address its slot back
  // and forgive this person's earlier typos from here.
  await Promise.all([releaseAttempt([perIp], meta.limits), clearAttempts([accountIp], meta.limits)]);

  if (user.blockedAt || user.deletedAt) {
    if (user.type === 'admin') await auditAdminLogin(user, 'user.login_failed', kind, meta, 'blocked', db);
    throw new AppError('ACCOUNT_BLOCKED');
  }
  if (!user.isEmailVerified && user.type !== 'admin') {
    await ensureVerificationCode(user, db);
    throw new AppError('EMAIL_NOT_VERIFIED');
  }
  const result = await openSession(user, kind, db);
  if (user.type === 'admin') await auditAdminLogin(user, 'user.login', kind, meta, undefined, db);
  return result;
}

/**
 * Admin logins and failed admin logins go to the audit log (issue 22), with the client address: who got into the
 * console, and who tried an admin's password. A failure is written, then answered exactly as any other failure
 * (same code, same message); nothing the caller sees depends on it. A failed attempt has no actor (whoever typed
 * it is unknown): the admin account is its object.
 */
async function auditAdminLogin(
  user: UserRow,
  action: 'user.login' | 'user.login_failed',
  kind: SessionKind,
  meta: RequestMeta,
  reason: 'password' | 'blocked' | undefined,
  db: Database,
): Promise<void> {
  await recordAudit(
    {
      actorId: action === 'user.login' ? user.id : null,
      action,
      targetType: 'user',
      targetId: user.id,
      details: { ip: meta.ip, via: kind, ...(reason ? { reason } : {}) },
    },
    db,
  );
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

/**
 * Checks an emailed code and marks the address verified. `kind` opens a session as well (the register and
 * login flows end logged in); without it only the flag changes (the banner of someone already logged in).
 *
 * Wrong codes are limited per client address (over all addresses it tries) and per email address
 * (rate-limit.server.ts), reserved before the code is looked at; a right code gives its slot back.
 * An unknown address, a blocked or archived account and one already verified all answer INVALID_CODE,
 * exactly like a wrong code, and count like one, so this cannot tell who has an account.
 */
export async function verifyEmail(
  input: VerifyEmailInput,
  kind: SessionKind | undefined,
  meta: RequestMeta,
  db: Database = getDb(),
): Promise<{ user: UserRow; login?: LoginResult }> {
  // An address already verified has no verification code to redeem: it answers like a wrong code.
  const user = await redeemCodeForAddress({ ...input, purpose: 'verify_email' }, meta, (u) => !u.isEmailVerified, db);
  const now = new Date();
  const [verified] = (await db
    .update(users)
    .set({ isEmailVerified: true, emailVerifiedAt: now, updatedAt: now })
    .where(eq(users.id, user.id))
    .returning()) as [UserRow];
  return { user: verified, login: kind ? await openSession(verified, kind, db) : undefined };
}

/**
 * Sends a new code, at most one per address a minute (429 RESEND_COOLDOWN). An unknown address, a blocked
 * or archived account and one already verified get the same quiet success and no mail (a verified person
 * logs in; mailing them would only let strangers fill their inbox), and the same cooldown on a second
 * request within the minute: the per-address counter below applies to every address, known or not. (The
 * window is RATE_WINDOW_SECONDS, the same 60 s as RESEND_COOLDOWN_SECONDS.)
 */
export async function resendVerification(email: string, meta: Pick<RequestMeta, 'ip' | 'limits'>, db: Database = getDb()): Promise<void> {
  const address = normaliseEmail(email);
  // Every request from the address counts, known account or not (the answer must not tell them apart);
  // a full counter is 429 RATE_LIMIT_EXCEEDED, decided before the per-address cooldown is touched.
  const perIp = [{ key: `resend:ip:${ipKey(meta.ip)}`, limit: RESENDS_PER_IP }];
  await reserveAttempt(perIp, undefined, meta.limits);
  let releaseSlot: () => Promise<void>;
  try {
    releaseSlot = await reserveMailSlot('resend', address);
  } catch (error) {
    await releaseAttempt(perIp, meta.limits);
    throw error;
  }
  try {
    const user = await findUserByEmail(address, db);
    if (!user || user.blockedAt || user.deletedAt || user.isEmailVerified) return;
    await sendVerificationCode(user, db);
  } catch (error) {
    // Nothing was sent (e.g. the code mailed at registration is under a minute old, which has its own
    // RESEND_COOLDOWN with the right seconds): the slots must not delay the next real resend.
    await releaseSlot();
    await releaseAttempt(perIp, meta.limits);
    throw error;
  }
}

export async function logout(sessionId: string, db: Database = getDb()): Promise<void> {
  await revokeSession(sessionId, db);
}

export { toPublicUser };
