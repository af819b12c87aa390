import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { emailCodes, sessions, users } from '~db/schema';
import { login, logout, register, resendVerification, verifyEmail } from '~/services/accounts/accounts.server';
import {
  CODE_TTL_MINUTES,
  consumeVerificationCode,
  resendCooldownSeconds,
  sendVerificationCode,
} from '~/services/accounts/email-codes.server';
import { AppError } from '~/services/platform/errors.server';
import { hashPassword } from '~/services/accounts/passwords.server';
import { LOGIN_FAILURES_PER_IP, resetRateLimits } from '~/services/platform/rate-limit.server';
import { createSession, getActiveSession, revokeSession, revokeUserSessions, SESSION_DAYS } from '~/services/accounts/sessions.server';
import { signToken, verifyToken } from '~/services/accounts/tokens.server';
import { ensureAdmin } from '~server/admin-account';
import { findUserByEmail, type UserRow } from '~/services/accounts/users.server';
import type { RegisterInput } from '~/schemas/account-forms';
import { createTraveler } from '~server/seed/factories';
import { codeInText, outboxFor } from '../support/mail';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The accounts core at service level (no HTTP): registration, email codes, login with its rate limits,
 * sessions and tokens. Mail goes to the dev outbox here (no SMTP_URL); auth-api.test.ts covers SMTP.
 */
useTestDatabase();

const DAY_MS = 24 * 60 * 60 * 1000;
const meta = (ip = '198.51.100.7') => ({ ip });
let counter = 0;
const uniqueEmail = (prefix = 'svc') => `${prefix}${++counter}-${Date.now().toString(36)}@example.test`;

/** The AppError a promise rejects with (fails the test when it resolves or throws something else). */
async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const traveler = (email: string, password = 'secret1'): RegisterInput => ({ type: 'traveler', name: '測試旅客', email, password });

/** Registers through the service and returns the user with the code from their (outbox) mail. */
async function registerWithCode(input: RegisterInput, locale?: 'zh-TW' | 'en' | 'ja') {
  const user = await register(input, { ...meta(), locale });
  return { user, code: await lastCode(user.email) };
}

async function lastCode(email: string): Promise<string> {
  const mails = await outboxFor(email);
  expect(mails.length).toBeGreaterThan(0);
  return codeInText(mails[mails.length - 1]!.text);
}

const codeRow = async (userId: number) => (await getDb().select().from(emailCodes).where(eq(emailCodes.userId, userId)))[0];

/** Pretends the last code was sent `seconds` ago (so the resend cooldown has passed). */
async function backdateCode(userId: number, seconds: number) {
  await getDb()
    .update(emailCodes)
    .set({ sentAt: new Date(Date.now() - seconds * 1000) })
    .where(eq(emailCodes.userId, userId));
}

async function expireCode(userId: number) {
  await getDb()
    .update(emailCodes)
    .set({ expiresAt: new Date(Date.now() - 1000), sentAt: new Date(Date.now() - 16 * 60_000) })
    .where(eq(emailCodes.userId, userId));
}

/** A code that is not the right one. */
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describe(`accounts service (${testDriver})`, () => {
  beforeEach(() => resetRateLimits());

  describe('register', () => {
    it('stores an argon2id hash (m=19456, t=2), a lower-cased email, the locale, and mails a hashed 15-minute code', async () => {
      const email = uniqueEmail('Mixed.Case');
      const before = Date.now();
      const { user, code } = await registerWithCode(traveler(email.toUpperCase(), 'pa55word'), 'en');

      expect(user.email).toBe(email.toLowerCase());
      expect(user.type).toBe('traveler');
      expect(user.locale).toBe('en');
      expect(user.isEmailVerified).toBe(false);
      expect(user.guideStatus).toBeNull();
      const stored = (await getDb().select().from(users).where(eq(users.id, user.id)))[0]!;
      const params = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=\d+\$/.exec(stored.passwordHash ?? '');
      expect(params, stored.passwordHash ?? 'no hash').not.toBeNull();
      expect(Number(params![1])).toBeGreaterThanOrEqual(19456);
      expect(Number(params![2])).toBeGreaterThanOrEqual(2);
      expect(stored.passwordHash).not.toContain('pa55word');

      expect(code).toMatch(/^\d{6}$/);
      const row = (await codeRow(user.id))!;
      expect(row.codeHash).not.toContain(code);
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.attempts).toBe(0);
      const ttl = row.expiresAt.getTime() - row.sentAt.getTime();
      expect(ttl).toBe(CODE_TTL_MINUTES * 60_000);
      expect(row.sentAt.getTime()).toBeGreaterThanOrEqual(before - 1000);

      // The mail is in the person's language (en) and names the code and its validity.
      const [mail] = await outboxFor(email);
      expect(mail!.subject).toContain(code);
      expect(mail!.text).toContain('valid for 15 minutes');
      expect(mail!.html).toContain(code);
    });

    it('defaults the locale to zh-TW and writes that mail in Chinese', async () => {
      const email = uniqueEmail();
      const { user } = await registerWithCode(traveler(email));
      expect(user.locale).toBe('zh-TW');
      const [mail] = await outboxFor(email);
      expect(mail!.subject).toContain('旅遊助手 電子郵件認證碼');
      expect(mail!.text).toContain('15 分鐘內有效');
    });

    it('registers a guide as pending with their city, languages, price and description', async () => {
      const email = uniqueEmail('guide');
      const user = await register(
        {
          type: 'guide',
          name: '導遊',
          email,
          password: 'secret1',
          city: 'tainan',
          language: ['zh', 'ja'],
          price: 2400,
          description: '台南古蹟導覽',
        },
        { ...meta(), locale: 'ja' },
      );
      expect(user).toMatchObject({ type: 'guide', guideStatus: 'active', city: 'tainan', language: ['zh', 'ja'], price: 2400 });
      expect(user.description).toBe('台南古蹟導覽');
      const [mail] = await outboxFor(email);
      expect(mail!.text).toContain('有効期限は 15 分');
    });

    it('refuses a second account with the same email in another case (409 EMAIL_TAKEN)', async () => {
      const email = uniqueEmail('dup');
      await register(traveler(email), meta());
      const error = await appError(register(traveler(`  ${email.toUpperCase()} `), meta()));
      expect(error.code).toBe('EMAIL_TAKEN');
      expect(error.status).toBe(409);
      expect(error.fieldErrors).toEqual({ email: ['errors.codes.EMAIL_TAKEN'] });
      const [{ count }] = (await getDb()
        .select({ count: sql<number>`count(*)::int` })
        .from(users)
        .where(eq(sql`lower(${users.email})`, email.toLowerCase()))) as [{ count: number }];
      expect(count).toBe(1);
    });
  });

  describe('email codes', () => {
    it('verifies with the right code, logs in, and the code cannot be used twice', async () => {
      const email = uniqueEmail();
      const { user, code } = await registerWithCode(traveler(email));
      const result = await verifyEmail({ email, code }, 'api', meta());
      expect(result.user.isEmailVerified).toBe(true);
      expect(result.user.emailVerifiedAt).toBeInstanceOf(Date);
      expect(result.login?.token).toBeTruthy();
      expect((await getActiveSession(result.login!.session.id))?.user.id).toBe(user.id);
      expect(await codeRow(user.id)).toBeUndefined();

      // The same code again: the code is gone, and a verified address answers like a wrong code (no
      // ALREADY_VERIFIED, which would tell a stranger the address has an account).
      expect((await appError(verifyEmail({ email, code }, 'api', meta()))).code).toBe('INVALID_CODE');
      expect((await appError(consumeVerificationCode(user.id, code))).code).toBe('CODE_EXPIRED');
    });

    it('lets exactly one of two simultaneous uses of a code through', async () => {
      const user = await createTraveler({ email: uniqueEmail(), isEmailVerified: false, emailVerifiedAt: null });
      await sendVerificationCode(user);
      const code = await lastCode(user.email);
      const results = await Promise.allSettled([consumeVerificationCode(user.id, code), consumeVerificationCode(user.id, code)]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((refused.reason as AppError).code).toBe('CODE_EXPIRED');
    });

    it('counts wrong codes and voids the code at the fifth, after which the right code is refused', async () => {
      const email = uniqueEmail();
      const { user, code } = await registerWithCode(traveler(email));
      for (let i = 1; i <= 4; i++) {
        const error = await appError(verifyEmail({ email, code: wrong(code) }, 'web', meta()));
        expect(error.code).toBe('INVALID_CODE');
        expect(error.status).toBe(400);
        expect((await codeRow(user.id))!.attempts).toBe(i);
      }
      expect((await appError(verifyEmail({ email, code: wrong(code) }, 'web', meta()))).code).toBe('CODE_EXPIRED');
      const error = await appError(verifyEmail({ email, code }, 'web', meta()));
      expect(error.code).toBe('CODE_EXPIRED');
      expect((await findUserByEmail(email))!.isEmailVerified).toBe(false);
    });

    it('counts every one of many simultaneous wrong guesses (no lost updates)', async () => {
      const user = await createTraveler({ email: uniqueEmail(), isEmailVerified: false, emailVerifiedAt: null });
      await sendVerificationCode(user);
      const code = await lastCode(user.email);
      const guesses = Array.from({ length: 8 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
      await Promise.allSettled(guesses.map((g) => consumeVerificationCode(user.id, g)));
      expect((await codeRow(user.id))!.attempts).toBeGreaterThanOrEqual(5);
      expect((await appError(consumeVerificationCode(user.id, code))).code).toBe('CODE_EXPIRED');
    });

    it('refuses an expired code', async () => {
      const email = uniqueEmail();
      const { user, code } = await registerWithCode(traveler(email));
      await expireCode(user.id);
      expect((await appError(verifyEmail({ email, code }, 'web', meta()))).code).toBe('CODE_EXPIRED');
      expect((await findUserByEmail(email))!.isEmailVerified).toBe(false);
    });

    it('answers an unknown address like a wrong code', async () => {
      const error = await appError(verifyEmail({ email: uniqueEmail('nobody'), code: '123456' }, 'web', meta()));
      expect(error.code).toBe('INVALID_CODE');
    });

    it('enforces the 60 s resend cooldown; after it a new code replaces the old one', async () => {
      const email = uniqueEmail();
      const { user, code: first } = await registerWithCode(traveler(email));

      const cooldown = await resendCooldownSeconds(user.id);
      expect(cooldown).toBeGreaterThan(55);
      expect(cooldown).toBeLessThanOrEqual(60);
      const error = await appError(resendVerification(email, { ip: '192.0.2.40' }));
      expect(error.code).toBe('RESEND_COOLDOWN');
      expect(error.status).toBe(429);
      expect(error.retryAfter).toBeGreaterThan(55);
      expect(error.retryAfter).toBeLessThanOrEqual(60);
      expect(await outboxFor(email)).toHaveLength(1);

      await backdateCode(user.id, 61);
      expect(await resendCooldownSeconds(user.id)).toBe(0);
      await resendVerification(email.toUpperCase(), { ip: '192.0.2.40' });
      expect(await outboxFor(email)).toHaveLength(2);
      const second = await lastCode(email);
      expect((await getDb().select().from(emailCodes).where(eq(emailCodes.userId, user.id))).length).toBe(1);

      if (second !== first) {
        expect((await appError(verifyEmail({ email, code: first }, 'web', meta()))).code).toBe('INVALID_CODE');
      }
      const { user: verified } = await verifyEmail({ email, code: second }, undefined, meta());
      expect(verified.isEmailVerified).toBe(true);
      expect(await getDb().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
      // Verified now: a later resend is the same quiet success as for an unknown address, and mails nothing.
      resetRateLimits(); // (a minute later: the resend above holds this address's one-a-minute slot)
      await expect(resendVerification(email, { ip: '192.0.2.40' })).resolves.toBeUndefined();
      expect(await outboxFor(email)).toHaveLength(2);
    });

    it('sends one code when two resends arrive at the same moment (the cooldown holds under concurrency)', async () => {
      const user = await createTraveler({ email: uniqueEmail('twice'), isEmailVerified: false, emailVerifiedAt: null });
      const results = await Promise.allSettled([
        resendVerification(user.email, { ip: '192.0.2.40' }),
        resendVerification(user.email, { ip: '192.0.2.40' }),
        resendVerification(user.email, { ip: '192.0.2.40' }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected')) {
        expect((r.reason as AppError).code).toBe('RESEND_COOLDOWN');
      }
      expect(await outboxFor(user.email)).toHaveLength(1);
      expect(await getDb().select().from(emailCodes).where(eq(emailCodes.userId, user.id))).toHaveLength(1);
      // The one code that was mailed is the one that works.
      await expect(consumeVerificationCode(user.id, await lastCode(user.email))).resolves.toBeUndefined();
    });

    it('quietly accepts a resend for an unknown address and sends nothing', async () => {
      const email = uniqueEmail('ghost');
      await expect(resendVerification(email, { ip: '192.0.2.40' })).resolves.toBeUndefined();
      expect(await outboxFor(email)).toHaveLength(0);
    });
  });

  describe('login', () => {
    const password = 'correct-horse';
    let verified: UserRow;
    let unverified: UserRow;

    beforeAll(async () => {
      const passwordHash = await hashPassword(password);
      verified = await createTraveler({ email: uniqueEmail('login'), passwordHash });
      unverified = await createTraveler({ email: uniqueEmail('unverified'), passwordHash, isEmailVerified: false, emailVerifiedAt: null });
    });

    it('opens a web session (no token) or an api session (token) and records the login time', async () => {
      const web = await login({ email: verified.email.toUpperCase(), password }, 'web', meta());
      expect(web.token).toBeUndefined();
      expect(web.user.lastLogin).toBeInstanceOf(Date);
      const api = await login({ email: verified.email, password }, 'api', meta());
      expect(api.token).toBeTruthy();
      const rows = await getDb().select().from(sessions).where(eq(sessions.userId, verified.id));
      expect(rows.map((r) => r.kind).sort()).toEqual(['api', 'web']);
      for (const row of rows) {
        const days = (row.expiresAt.getTime() - Date.now()) / DAY_MS;
        expect(days).toBeGreaterThan(SESSION_DAYS - 0.01);
        expect(days).toBeLessThanOrEqual(SESSION_DAYS);
      }
    });

    it('gives the same INVALID_CREDENTIALS for an unknown email and a wrong password', async () => {
      const unknown = await appError(login({ email: uniqueEmail('nobody'), password }, 'api', meta()));
      const wrongPassword = await appError(login({ email: verified.email, password: 'wrong-one' }, 'api', meta()));
      for (const e of [unknown, wrongPassword]) {
        expect(e.code).toBe('INVALID_CREDENTIALS');
        expect(e.status).toBe(401);
        expect(e.messageKey).toBe('errors.codes.INVALID_CREDENTIALS');
        expect(e.fieldErrors).toBeUndefined();
      }
    });

    it('refuses an unverified account with EMAIL_NOT_VERIFIED, and mails a fresh code only when the old one expired', async () => {
      await sendVerificationCode(unverified);
      expect(await outboxFor(unverified.email)).toHaveLength(1);
      const first = await lastCode(unverified.email);

      const error = await appError(login({ email: unverified.email, password }, 'api', meta()));
      expect(error.code).toBe('EMAIL_NOT_VERIFIED');
      expect(error.status).toBe(403);
      expect(await outboxFor(unverified.email)).toHaveLength(1); // the live code still works

      await expireCode(unverified.id);
      expect((await appError(login({ email: unverified.email, password }, 'api', meta()))).code).toBe('EMAIL_NOT_VERIFIED');
      expect(await outboxFor(unverified.email)).toHaveLength(2);
      const fresh = await lastCode(unverified.email);
      expect((await codeRow(unverified.id))!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
      if (fresh !== first) expect((await appError(consumeVerificationCode(unverified.id, first))).code).toBe('INVALID_CODE');
      const { login: session } = await verifyEmail({ email: unverified.email, code: fresh }, 'api', meta());
      expect(session?.token).toBeTruthy();
      // Once verified, the password login works.
      await expect(login({ email: unverified.email, password }, 'web', meta())).resolves.toMatchObject({ user: { id: unverified.id } });
    });

    it('refuses a blocked account even with the right password, and an archived one', async () => {
      const passwordHash = await hashPassword(password);
      const blocked = await createTraveler({ email: uniqueEmail('blocked'), passwordHash });
      await getDb().update(users).set({ blockedAt: new Date() }).where(eq(users.id, blocked.id));
      const error = await appError(login({ email: blocked.email, password }, 'api', meta()));
      expect(error.code).toBe('ACCOUNT_BLOCKED');
      expect(error.status).toBe(403);
      const archived = await createTraveler({ email: uniqueEmail('archived'), passwordHash, deletedAt: new Date() });
      expect((await appError(login({ email: archived.email, password }, 'api', meta()))).code).toBe('ACCOUNT_BLOCKED');
      expect(await getDb().select().from(sessions).where(eq(sessions.userId, blocked.id))).toHaveLength(0);
    });

    it('limits failures per account and address: the 11th attempt from that address is 429 even with the right password; other addresses are not locked out', async () => {
      const ip = '192.0.2.1';
      for (let i = 0; i < 10; i++) {
        const e = await appError(login({ email: verified.email, password: `wrong-${i}` }, 'api', meta(ip)));
        expect(e.code).toBe('INVALID_CREDENTIALS');
      }
      const limited = await appError(login({ email: verified.email, password }, 'api', meta(ip)));
      expect(limited.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(limited.status).toBe(429);
      // The seconds left in the window that started with the first failure.
      expect(limited.retryAfter).toBeGreaterThanOrEqual(50);
      expect(limited.retryAfter).toBeLessThanOrEqual(60);
      // A stranger's failures do not lock the owner out elsewhere,
      await expect(login({ email: verified.email, password }, 'api', meta('192.0.2.200'))).resolves.toBeTruthy();
      // and another account from that address is not affected.
      const other = await createTraveler({ email: uniqueEmail('other'), passwordHash: await hashPassword(password) });
      await expect(login({ email: other.email, password }, 'api', meta(ip))).resolves.toBeTruthy();
      // A fresh window lets the owner in from that address again.
      resetRateLimits();
      await expect(login({ email: verified.email, password }, 'api', meta(ip))).resolves.toBeTruthy();
    });

    it('limits failures per address across accounts (100 a minute), independently of the account counters', async () => {
      const ip = '203.0.113.99';
      const sprayed = await Promise.all(
        Array.from({ length: LOGIN_FAILURES_PER_IP }, () => appError(login({ email: uniqueEmail('spray'), password: 'guess' }, 'api', meta(ip)))),
      );
      expect(new Set(sprayed.map((e) => e.code))).toEqual(new Set(['INVALID_CREDENTIALS']));
      const limited = await appError(login({ email: verified.email, password }, 'api', meta(ip)));
      expect(limited.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(limited.retryAfter).toBeGreaterThanOrEqual(50);
      expect(limited.retryAfter).toBeLessThanOrEqual(60);
      // The same account from another address gets in: its own counter is untouched.
      await expect(login({ email: verified.email, password }, 'api', meta('203.0.113.100'))).resolves.toBeTruthy();
    });

    it('does not count successful logins against the limit', async () => {
      for (let i = 0; i < 12; i++) await login({ email: verified.email, password }, 'web', meta('198.51.100.50'));
      await expect(login({ email: verified.email, password }, 'web', meta('198.51.100.50'))).resolves.toBeTruthy();
    });
  });

  describe('sessions and tokens', () => {
    let user: UserRow;
    beforeAll(async () => {
      user = await createTraveler({ email: uniqueEmail('session'), isIdVerified: true });
    });

    it('rolls a web session to 30 days from its last use; an api session keeps its expiry', async () => {
      const web = await createSession(user.id, 'web');
      const api = await createSession(user.id, 'api');
      const soon = new Date(Date.now() + DAY_MS);
      const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
      for (const id of [web.id, api.id]) {
        await getDb().update(sessions).set({ expiresAt: soon, lastSeenAt: twoHoursAgo }).where(eq(sessions.id, id));
      }

      const rolled = (await getActiveSession(web.id))!;
      expect(rolled.user.id).toBe(user.id);
      expect(rolled.expiresAt.getTime()).toBeGreaterThan(Date.now() + (SESSION_DAYS - 0.01) * DAY_MS);
      const webRow = (await getDb().select().from(sessions).where(eq(sessions.id, web.id)))[0]!;
      expect(webRow.expiresAt.getTime()).toBe(rolled.expiresAt.getTime());
      expect(webRow.lastSeenAt.getTime()).toBeGreaterThan(twoHoursAgo.getTime());

      const notRolled = (await getActiveSession(api.id))!;
      expect(notRolled.expiresAt.getTime()).toBe(soon.getTime());
    });

    it('ends a session when it expires or is revoked', async () => {
      const expired = await createSession(user.id, 'web');
      await getDb().update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.id, expired.id));
      expect(await getActiveSession(expired.id)).toBeUndefined();

      const s = await createSession(user.id, 'api');
      expect(await getActiveSession(s.id)).toBeDefined();
      await logout(s.id);
      expect(await getActiveSession(s.id)).toBeUndefined();
      await revokeSession(s.id); // idempotent
      expect(await getActiveSession('no-such-session')).toBeUndefined();
    });

    it('revokeUserSessions ends every session of a blocked user for good', async () => {
      const victim = await createTraveler({ email: uniqueEmail('victim') });
      const a = await createSession(victim.id, 'web');
      const b = await createSession(victim.id, 'api');
      const bystander = await createSession(user.id, 'api');
      await getDb().update(users).set({ blockedAt: new Date() }).where(eq(users.id, victim.id));
      expect(await getActiveSession(a.id)).toBeUndefined(); // blocked users have no live session
      await revokeUserSessions(victim.id);
      // Unblocking does not bring the old sessions back: they were revoked.
      await getDb().update(users).set({ blockedAt: null }).where(eq(users.id, victim.id));
      expect(await getActiveSession(a.id)).toBeUndefined();
      expect(await getActiveSession(b.id)).toBeUndefined();
      const revoked = await getDb()
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, victim.id), sql`${sessions.revokedAt} is not null`));
      expect(revoked).toHaveLength(2);
      expect(await getActiveSession(bystander.id)).toBeDefined();
    });

    it('signs a token carrying id, email, type, verification flags and the session id; refuses tampering', async () => {
      const result = await login(
        { email: (await setPassword(user, 'tok3n-pass')).email, password: 'tok3n-pass' },
        'api',
        meta('198.51.100.60'),
      );
      const token = result.token!;
      const [header, body, signature] = token.split('.');
      expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
      const payload = JSON.parse(Buffer.from(body!, 'base64url').toString());
      expect(payload).toMatchObject({
        id: user.id,
        email: user.email,
        type: 'traveler',
        isEmailVerified: true,
        isIdVerified: true,
        sid: result.session.id,
      });
      expect(payload).not.toHaveProperty('passwordHash');
      expect(payload.exp).toBe(Math.floor(result.session.expiresAt.getTime() / 1000));
      expect(verifyToken(token)?.sid).toBe(result.session.id);

      const forged = Buffer.from(JSON.stringify({ ...payload, id: 1, type: 'admin' })).toString('base64url');
      expect(verifyToken(`${header}.${forged}.${signature}`)).toBeUndefined();
      const flipped = signature!.slice(0, -2) + (signature!.endsWith('AA') ? 'BB' : 'AA');
      expect(verifyToken(`${header}.${body}.${flipped}`)).toBeUndefined();
      const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
      expect(verifyToken(`${none}.${body}.`)).toBeUndefined();
      expect(verifyToken(signToken({ ...payload }, result.session.expiresAt, 'another-secret-another-secret-123456'))).toBeUndefined();
      expect(verifyToken(signToken({ ...payload }, new Date(Date.now() - 1000)))).toBeUndefined();
      expect(verifyToken('not-a-token')).toBeUndefined();
    });
  });

  describe('ensureAdmin (ADMIN_EMAIL bootstrap)', () => {
    it('creates the admin once and keeps it usable on every later start', async () => {
      const email = uniqueEmail('Admin');
      expect(await ensureAdmin(email, 'first-pass')).toEqual({ created: true });
      expect(await ensureAdmin(email.toUpperCase(), 'second-pass')).toEqual({ created: false });
      const rows = await getDb().select().from(users).where(eq(sql`lower(${users.email})`, email.toLowerCase()));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ type: 'admin', isEmailVerified: true, email: email.toLowerCase() });

      // The latest password is the one that works; a block or archive is lifted by the next start.
      expect((await appError(login({ email, password: 'first-pass' }, 'web', meta('198.51.100.70')))).code).toBe('INVALID_CREDENTIALS');
      await expect(login({ email, password: 'second-pass' }, 'web', meta('198.51.100.70'))).resolves.toMatchObject({
        user: { type: 'admin' },
      });
      await getDb().update(users).set({ blockedAt: new Date(), isEmailVerified: false }).where(eq(users.id, rows[0]!.id));
      expect(await ensureAdmin(email, 'second-pass')).toEqual({ created: false });
      await expect(login({ email, password: 'second-pass' }, 'web', meta('198.51.100.70'))).resolves.toBeTruthy();
    });

    it('promotes an existing account with that email', async () => {
      const existing = await createTraveler({ email: uniqueEmail('promote') });
      expect(await ensureAdmin(existing.email, 'admin-pass')).toEqual({ created: false });
      expect((await findUserByEmail(existing.email))!.type).toBe('admin');
    });
  });
});

async function setPassword(user: UserRow, password: string): Promise<UserRow> {
  const [row] = await getDb()
    .update(users)
    .set({ passwordHash: await hashPassword(password) })
    .where(eq(users.id, user.id))
    .returning();
  return row!;
}
