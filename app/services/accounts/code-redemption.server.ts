import type { Database } from '~db/client';
import { consumeEmailCode, RESEND_COOLDOWN_SECONDS, type EmailCodePurpose } from './email-codes.server';
import { AppError } from '../platform/errors.server';
import { CODE_FAILURES_PER_ACCOUNT, CODE_FAILURES_PER_IP, ipKey, releaseAttempt, reserveAttempt, type LimitLog } from '../platform/rate-limit.server';
import { normaliseEmail } from '~/lib/email';
import { findUserByEmail, type UserRow } from './users.server';

/**
 * The one rule for redeeming an emailed code given with an address (verify email, reset password):
 * a guess is reserved against the per-client-address and per-email-address limits before anything is
 * looked at (rate-limit.server.ts), so parallel guesses cannot slip past; a right code gives its slot back.
 * An unknown address, a blocked or archived account and one the caller does not accept answer INVALID_CODE,
 * exactly like a wrong code, and count like one, so the answer never tells who has an account.
 */
export async function redeemCodeForAddress(
  input: { email: string; code: string; purpose: EmailCodePurpose },
  meta: { ip: string; limits?: LimitLog },
  accepts: (user: UserRow) => boolean,
  db: Database,
): Promise<UserRow> {
  const email = normaliseEmail(input.email);
  const limits = [
    { key: `code:ip:${ipKey(meta.ip)}`, limit: CODE_FAILURES_PER_IP },
    { key: `code:account:${email}`, limit: CODE_FAILURES_PER_ACCOUNT },
  ];
  await reserveAttempt(limits, undefined, meta.limits);

  let user: UserRow | undefined;
  try {
    user = await findUserByEmail(email, db);
  } catch (error) {
    await releaseAttempt(limits, meta.limits);
    throw error;
  }
  if (!user || user.blockedAt || user.deletedAt || !accepts(user)) throw new AppError('INVALID_CODE');
  try {
    await consumeEmailCode(user.id, input.purpose, input.code, { db });
  } catch (error) {
    // INVALID_CODE and CODE_EXPIRED keep their slot; anything else was not a guess.
    if (!(error instanceof AppError)) await releaseAttempt(limits, meta.limits);
    throw error;
  }
  await releaseAttempt(limits, meta.limits);
  return user;
}

/**
 * One mail of a kind per address a minute, decided before anyone looks the address up: a second request
 * within the minute is 429 RESEND_COOLDOWN (with the seconds left) for every address, known or not, so the
 * answer never tells who has an account. Answers a function that gives the slot back.
 */
export async function reserveMailSlot(kind: 'resend' | 'reset-request', address: string): Promise<() => Promise<void>> {
  const slot = { key: `${kind}:account:${address}`, limit: 1 };
  try {
    await reserveAttempt([slot]);
    // For a caller that ends up sending nothing: the slot must not delay the next real request.
    return () => releaseAttempt([slot]);
  } catch (error) {
    if (!(error instanceof AppError && error.code === 'RATE_LIMIT_EXCEEDED')) throw error;
    const seconds = error.retryAfter ?? RESEND_COOLDOWN_SECONDS;
    throw new AppError('RESEND_COOLDOWN', { retryAfter: seconds, params: { seconds } });
  }
}
