import crypto from 'node:crypto';
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { EMAIL_CODE_PURPOSES, emailCodes, users } from '~db/schema';
import { getConfig } from '~/env.server';
import { getFixedT } from '~/i18n/i18n.server';
import { isLocale } from '~/i18n/config';
import { AppError } from '../platform/errors.server';
import { enqueueMail } from '../platform/mail.server';

/**
 * Emailed codes (ARCHITECTURE §4, §6): 6 digits, stored as an HMAC (never in clear), valid 15 minutes,
 * void after 5 wrong tries, single use, compared in constant time. Every code has a purpose (verify the
 * address, confirm a new address, reset the password): the purpose is part of the stored hash and of every
 * lookup, so a code of one purpose never works for another. A user has at most one live code per purpose:
 * issuing a new one replaces the old one of that purpose. A new code of a purpose can be sent at most once
 * every 60 s. A change_email code is also bound to the address it was mailed to.
 */
export const CODE_TTL_MINUTES = 15;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_COOLDOWN_SECONDS = 60;

export type EmailCodePurpose = (typeof EMAIL_CODE_PURPOSES)[number];

type User = Pick<typeof users.$inferSelect, 'id' | 'email' | 'name' | 'locale'>;

function hashCode(userId: number, code: string, purpose: EmailCodePurpose = 'verify_email', address = ''): string {
  // verify_email keeps the original input, so codes mailed before purposes existed still work. Only a
  // change_email code is bound to an address (the new one it was mailed to); the others go to the account's.
  const bound = purpose === 'change_email' ? address.toLowerCase() : '';
  const input = purpose === 'verify_email' ? `email-code:${userId}:${code}` : `email-code:${purpose}:${userId}:${bound}:${code}`;
  return crypto.createHmac('sha256', getConfig().SESSION_SECRET).update(input).digest('hex');
}

async function latestCode(userId: number, db: Database, purpose: EmailCodePurpose = 'verify_email') {
  const [row] = await db
    .select()
    .from(emailCodes)
    .where(and(eq(emailCodes.userId, userId), eq(emailCodes.purpose, purpose)))
    .orderBy(desc(emailCodes.sentAt))
    .limit(1);
  return row;
}

const isLive = (row: typeof emailCodes.$inferSelect, now = Date.now()) =>
  row.expiresAt.getTime() > now && row.attempts < MAX_CODE_ATTEMPTS;

/** Seconds until another code (of this purpose) may be sent (0 when one may be sent now). */
export async function resendCooldownSeconds(
  userId: number,
  db: Database = getDb(),
  purpose: EmailCodePurpose = 'verify_email',
): Promise<number> {
  const row = await latestCode(userId, db, purpose);
  if (!row) return 0;
  const elapsed = (Date.now() - row.sentAt.getTime()) / 1000;
  return Math.max(0, Math.ceil(RESEND_COOLDOWN_SECONDS - elapsed));
}

/** Mails a fresh code (replacing any earlier one). Refused with 429 RESEND_COOLDOWN within 60 s of the last. */
export async function sendVerificationCode(user: User, db: Database = getDb()): Promise<void> {
  await sendEmailCode(user, 'verify_email', { db });
}

/**
 * Mails a fresh code of this purpose (replacing the user's earlier one of the same purpose) to `to`, the
 * account's address unless told (change_email: the new address, which the code is then bound to).
 * Refused with 429 RESEND_COOLDOWN within 60 s of the last code of this purpose.
 */
export async function sendEmailCode(
  user: User,
  purpose: EmailCodePurpose,
  options: { to?: string; db?: Database } = {},
): Promise<void> {
  const db = options.db ?? getDb();
  const to = options.to ?? user.email;
  const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
  const mail = await codeMail({ ...user, email: to }, code, purpose);
  await db.transaction(async (tx) => {
    // Simultaneous requests for one person take turns on their user row, so the cooldown check below sees
    // a code another request has just issued (otherwise each of them would mail a code).
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const wait = await resendCooldownSeconds(user.id, tx, purpose);
    if (wait > 0) throw new AppError('RESEND_COOLDOWN', { retryAfter: wait, params: { seconds: wait } });
    const now = new Date();
    await tx.delete(emailCodes).where(and(eq(emailCodes.userId, user.id), eq(emailCodes.purpose, purpose)));
    await tx.insert(emailCodes).values({
      userId: user.id,
      purpose,
      codeHash: hashCode(user.id, code, purpose, to),
      sentAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MINUTES * 60_000),
    });
    // Queued with the code (decision 017): the request never waits for SMTP; the commit wakes the worker at once.
    await enqueueMail(mail, tx);
  });
}

/** Forgets a user's codes of one purpose (a cancelled email change). */
export async function deleteEmailCodes(userId: number, purpose: EmailCodePurpose, db: Database = getDb()): Promise<void> {
  await db.delete(emailCodes).where(and(eq(emailCodes.userId, userId), eq(emailCodes.purpose, purpose)));
}

/** Sends a code only when the person has no usable one (login of an unverified account). */
export async function ensureVerificationCode(user: User, db: Database = getDb()): Promise<void> {
  const row = await latestCode(user.id, db);
  if (row && isLive(row)) return;
  if ((await resendCooldownSeconds(user.id, db)) > 0) return;
  try {
    await sendVerificationCode(user, db);
  } catch (error) {
    // Another request issued a code a moment ago: that one is on its way.
    if (!(error instanceof AppError && error.code === 'RESEND_COOLDOWN')) throw error;
  }
}

/**
 * Checks a code. A wrong one counts an attempt (the fifth voids the code); an expired or void one is
 * refused with CODE_EXPIRED; the right one is consumed.
 */
export async function consumeVerificationCode(userId: number, code: string, db: Database = getDb()): Promise<void> {
  await consumeEmailCode(userId, 'verify_email', code, { db });
}

/**
 * consumeVerificationCode for any purpose. `address` is the address a change_email code was mailed to
 * (the pending one): a code mailed to another address does not match.
 */
export async function consumeEmailCode(
  userId: number,
  purpose: EmailCodePurpose,
  code: string,
  options: { address?: string; db?: Database } = {},
): Promise<void> {
  const db = options.db ?? getDb();
  const row = await latestCode(userId, db, purpose);
  if (!row || !isLive(row)) throw new AppError('CODE_EXPIRED');
  const expected = Buffer.from(row.codeHash, 'hex');
  const given = Buffer.from(hashCode(userId, code, purpose, options.address), 'hex');
  if (!crypto.timingSafeEqual(expected, given)) {
    // Incremented in SQL, so simultaneous wrong guesses each count (no lost update past the limit of 5).
    const [updated] = await db
      .update(emailCodes)
      .set({ attempts: sql`${emailCodes.attempts} + 1` })
      .where(eq(emailCodes.id, row.id))
      .returning({ attempts: emailCodes.attempts });
    throw new AppError(updated && updated.attempts >= MAX_CODE_ATTEMPTS ? 'CODE_EXPIRED' : 'INVALID_CODE');
  }
  // Single use: delete it while it is still live; a concurrent second use, or a right guess racing the
  // wrong ones that voided the code, finds nothing and is refused.
  const deleted = await db
    .delete(emailCodes)
    .where(
      and(
        eq(emailCodes.id, row.id),
        lt(emailCodes.attempts, MAX_CODE_ATTEMPTS),
        gt(emailCodes.expiresAt, new Date()),
      ),
    )
    .returning({ id: emailCodes.id });
  if (deleted.length === 0) throw new AppError('CODE_EXPIRED');
}

/** The mail.json section of each purpose's message. */
const MAIL_SECTION: Record<EmailCodePurpose, string> = {
  verify_email: 'verification',
  change_email: 'emailChange',
  reset_password: 'passwordReset',
};

async function codeMail(user: User, code: string, purpose: EmailCodePurpose) {
  const t = await getFixedT(isLocale(user.locale) ? user.locale : 'zh-TW');
  const k = (key: string) => `mail.${MAIL_SECTION[purpose]}.${key}`;
  const lines = [
    t(k('greeting'), { name: user.name }),
    '',
    t(k('body')),
    code,
    '',
    t(k('validity'), { minutes: CODE_TTL_MINUTES }),
    t(k('ignore')),
    '',
    t(k('signature')),
  ];
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<div style="font-family:sans-serif;line-height:1.6">
<p>${escape(t(k('greeting'), { name: user.name }))}</p>
<p>${escape(t(k('body')))}</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${code}</p>
<p>${escape(t(k('validity'), { minutes: CODE_TTL_MINUTES }))}<br>${escape(t(k('ignore')))}</p>
<p>${escape(t(k('signature')))}</p></div>`;
  return { to: user.email, subject: t(k('subject'), { code }), text: lines.join('\n'), html };
}
