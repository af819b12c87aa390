import crypto from 'node:crypto';
import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { emailCodes, users } from '~db/schema';
import { getConfig } from '~/env.server';
import { getFixedT } from '~/i18n/i18n.server';
import { isLocale } from '~/i18n/config';
import { AppError } from './errors.server';
import { sendMail } from './mail.server';

/**
 * Email verification codes (ARCHITECTURE §6): 6 digits, stored as an HMAC (never in clear), valid
 * 15 minutes, void after 5 wrong tries, single use, compared in constant time. A user has at most one
 * live code: issuing a new one replaces the old. A new code can be sent at most once every 60 s.
 */
export const CODE_TTL_MINUTES = 15;
export const MAX_CODE_ATTEMPTS = 5;
export const RESEND_COOLDOWN_SECONDS = 60;

type User = Pick<typeof users.$inferSelect, 'id' | 'email' | 'name' | 'locale'>;

function hashCode(userId: number, code: string): string {
  return crypto.createHmac('sha256', getConfig().SESSION_SECRET).update(`email-code:${userId}:${code}`).digest('hex');
}

async function latestCode(userId: number, db: Database) {
  const [row] = await db.select().from(emailCodes).where(eq(emailCodes.userId, userId)).orderBy(desc(emailCodes.sentAt)).limit(1);
  return row;
}

const isLive = (row: typeof emailCodes.$inferSelect, now = Date.now()) =>
  row.expiresAt.getTime() > now && row.attempts < MAX_CODE_ATTEMPTS;

/** Seconds until another code may be sent (0 when one may be sent now). */
export async function resendCooldownSeconds(userId: number, db: Database = getDb()): Promise<number> {
  const row = await latestCode(userId, db);
  if (!row) return 0;
  const elapsed = (Date.now() - row.sentAt.getTime()) / 1000;
  return Math.max(0, Math.ceil(RESEND_COOLDOWN_SECONDS - elapsed));
}

/** Mails a fresh code (replacing any earlier one). Refused with 429 RESEND_COOLDOWN within 60 s of the last. */
export async function sendVerificationCode(user: User, db: Database = getDb()): Promise<void> {
  const code = crypto.randomInt(0, 1_000_000).toString().padStart(6, '0');
  await db.transaction(async (tx) => {
    // Simultaneous requests for one person take turns on their user row, so the cooldown check below sees
    // a code another request has just issued (otherwise each of them would mail a code).
    await tx.select({ id: users.id }).from(users).where(eq(users.id, user.id)).for('update');
    const wait = await resendCooldownSeconds(user.id, tx);
    if (wait > 0) throw new AppError('RESEND_COOLDOWN', { retryAfter: wait, params: { seconds: wait } });
    const now = new Date();
    await tx.delete(emailCodes).where(eq(emailCodes.userId, user.id));
    await tx.insert(emailCodes).values({
      userId: user.id,
      codeHash: hashCode(user.id, code),
      sentAt: now,
      expiresAt: new Date(now.getTime() + CODE_TTL_MINUTES * 60_000),
    });
  });
  await sendMail(await verificationMail(user, code), db);
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
  const row = await latestCode(userId, db);
  if (!row || !isLive(row)) throw new AppError('CODE_EXPIRED');
  const expected = Buffer.from(row.codeHash, 'hex');
  const given = Buffer.from(hashCode(userId, code), 'hex');
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

async function verificationMail(user: User, code: string) {
  const t = await getFixedT(isLocale(user.locale) ? user.locale : 'zh-TW');
  const lines = [
    t('mail.verification.greeting', { name: user.name }),
    '',
    t('mail.verification.body'),
    code,
    '',
    t('mail.verification.validity', { minutes: CODE_TTL_MINUTES }),
    t('mail.verification.ignore'),
    '',
    t('mail.verification.signature'),
  ];
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<div style="font-family:sans-serif;line-height:1.6">
<p>${escape(t('mail.verification.greeting', { name: user.name }))}</p>
<p>${escape(t('mail.verification.body'))}</p>
<p style="font-size:28px;font-weight:bold;letter-spacing:6px">${code}</p>
<p>${escape(t('mail.verification.validity', { minutes: CODE_TTL_MINUTES }))}<br>${escape(t('mail.verification.ignore'))}</p>
<p>${escape(t('mail.verification.signature'))}</p></div>`;
  return { to: user.email, subject: t('mail.verification.subject', { code }), text: lines.join('\n'), html };
}
