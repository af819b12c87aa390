import { eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { users } from '~db/schema';
import type { ResetPasswordInput } from '~/schemas/account-forms';
import { sendEmailCode } from './email-codes.server';
import { redeemCodeForAddress, reserveMailSlot } from './code-redemption.server';
import { AppError } from '../platform/errors.server';
import { logError } from '../platform/log.server';
import { hashPassword } from './passwords.server';
import { ipKey, reserveAttempt, type LimitLog } from '../platform/rate-limit.server';
import { revokeUserSessions } from './sessions.server';
import { getConfig } from '~/env.server';
import { isLocale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { normaliseEmail } from '~/lib/email';
import { enqueueMail } from '../platform/mail.server';
import { findUserByEmail, type UserRow } from './users.server';

/**
 * Forgot password (issue 7): a reset_password code is mailed to the account's address (same rules as every
 * emailed code: hashed, 15 minutes, 5 tries, one a minute; email-codes.server.ts), and the code with a new
 * password sets the password and ends every session of the account. The web pages (/forgot-password,
 * /reset-password) and POST /api/v1/auth/forgot-password and /reset-password call these two functions.
 */

/** Mail requests per client address and minute, over all addresses asked for (bounds mail bombing). */
export const RESET_REQUESTS_PER_IP = 10;

export interface ResetRequestMeta {
  /** Client address, for rate limits. */
  ip: string;
  /** The request's id, for the log line of a code that could not be sent. */
  requestId?: string;
  /** Where the limits consulted are noted for the answer's RateLimit-* headers (app/http limitLog). */
  limits?: LimitLog;
}

/**
 * Mails a reset code when the address belongs to an account that may log in. Answers exactly alike for an
 * unknown address, a blocked or archived account and a real one: the same quiet success, the same 429
 * RESEND_COOLDOWN on a second request for the address within a minute (the counter applies to every
 * address, known or not), and the same time, because the code is issued and mailed after the answer
 * (nothing the caller waits for depends on whether the account exists). At most RESET_REQUESTS_PER_IP
 * requests a minute from one client address (429 RATE_LIMIT_EXCEEDED).
 */
export async function requestPasswordReset(email: string, meta: ResetRequestMeta, db: Database = getDb()): Promise<void> {
  const address = normaliseEmail(email);
  await reserveAttempt([{ key: `reset-request:ip:${ipKey(meta.ip)}`, limit: RESET_REQUESTS_PER_IP }], undefined, meta.limits);
  await reserveMailSlot('reset-request', address);
  const user = await findUserByEmail(address, db);
  if (!user || user.blockedAt || user.deletedAt) return;
  void sendEmailCode(user, 'reset_password', { db }).catch((error: unknown) => {
    // A code of this purpose went out under a minute ago (another instance's counter, or a restart):
    // that one is still on its way. Anything else cannot reach the caller any more; log it.
    if (error instanceof AppError && error.code === 'RESEND_COOLDOWN') return;
    logError('password reset: could not send the code', error, { requestId: meta.requestId });
  });
}

/**
 * Checks the code and sets the new password; every session of the account (cookies and bearer tokens)
 * ends, so whoever knew the old password is logged out. The code proves the person reads the account's
 * mail, so an unverified address counts as verified from here.
 *
 * Wrong codes count against the same per-client-address and per-email-address limits as verification
 * codes (a guesser's budget covers every kind of code), reserved before the code is looked at; the right
 * code gives its slot back. An unknown address and a blocked or archived account answer INVALID_CODE
 * like a wrong code, and count like one.
 */
export async function resetPassword(input: ResetPasswordInput, meta: ResetRequestMeta, db: Database = getDb()): Promise<UserRow> {
  const user = await redeemCodeForAddress({ ...input, purpose: 'reset_password' }, meta, () => true, db);

  // Hashed only after the code was right: wrong guesses must not cost an argon2 run each.
  const passwordHash = await hashPassword(input.password);
  const now = new Date();
  const updated = await db.transaction(async (tx) => {
    const [row] = (await tx
      .update(users)
      .set({
        passwordHash,
        updatedAt: now,
        ...(user.isEmailVerified ? {} : { isEmailVerified: true, emailVerifiedAt: now }),
      })
      .where(eq(users.id, user.id))
      .returning()) as [UserRow];
    await revokeUserSessions(user.id, tx);
    await mailPasswordChanged(row, now, tx);
    return row;
  });
  return updated;
}

/**
 * "Your password was changed", in the person's language, to the account's address: the owner learns of a
 * change they did not make. Queued in the transaction of the change (decision 017): it leaves after the commit.
 */
export async function mailPasswordChanged(
  user: Pick<UserRow, 'id' | 'email' | 'name' | 'locale'>,
  at: Date,
  db: Database = getDb(),
): Promise<void> {
  const locale = isLocale(user.locale) ? user.locale : 'zh-TW';
  const t = await getFixedT(locale);
  const k = (key: string) => `mail.passwordChanged.${key}`;
  const link = new URL('/forgot-password', getConfig().PUBLIC_URL).toString();
  const text = [
    t(k('greeting'), { name: user.name }),
    '',
    t(k('body'), { date: formatTaipeiDateTime(at.toISOString(), locale) }),
    '',
    t(k('notYou')),
    link,
    '',
    t(k('signature')),
  ].join('\n');
  await enqueueMail({ to: user.email, subject: t(k('subject')), text }, db);
}
