import crypto from 'node:crypto';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { login, resendVerification, verifyEmail } from '~/services/accounts/accounts.server';
import { emailCodeAction } from '~/http/authenticator.server';
import { sendVerificationCode } from '~/services/accounts/email-codes.server';
import { AppError } from '~/services/platform/errors.server';
import { hashPassword, verifyPassword } from '~/services/accounts/passwords.server';
import {
  CODE_FAILURES_PER_ACCOUNT,
  CODE_FAILURES_PER_IP,
  createRateLimitStore,
  ipKey,
  LOGIN_FAILURES_PER_ACCOUNT_IP,
  LOGIN_FAILURES_PER_IP,
  RATE_WINDOW_SECONDS,
  releaseAttempt,
  reserveAttempt,
  resetRateLimits,
  setRateLimitStore,
  type RateLimitStore,
} from '~/services/platform/rate-limit.server';
import { createTraveler } from '~server/seed/factories';
import { codeInText, outboxFor } from '../support/mail';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Login and code limits under concurrency (ARCHITECTURE §6, decision 005), at service level with a real
 * database. The password check is the real argon2 one, wrapped only to count how often it runs. With
 * TEST_REDIS_URL, two Redis-backed stores stand in for two server instances sharing one Redis.
 */
vi.mock('~/services/accounts/passwords.server', async (importOriginal) => {
  const actual = await importOriginal<typeof import('~/services/accounts/passwords.server')>();
  return { ...actual, verifyPassword: vi.fn(actual.verifyPassword) };
});
const passwordChecks = vi.mocked(verifyPassword);

useTestDatabase();

const redisUrl = process.env.TEST_REDIS_URL;
const PASSWORD = 'correct-horse-1';
const PARALLEL = 150;
let counter = 0;
const uniqueEmail = (prefix = 'rl') => `${prefix}${++counter}-${Date.now().toString(36)}@example.test`;
const meta = (ip: string) => ({ ip });
/** A code that is not `code` (for 0 < by < 1 000 000). */
const wrongBy = (code: string, by: number) => String((Number(code) + by) % 1_000_000).padStart(6, '0');

type Outcome = { code: string; status: number; retryAfter?: number; messageKey: string; params?: unknown; fieldErrors?: unknown };

/** What a call answered: 'ok', or the AppError's visible parts (anything else fails the test). */
async function outcome(promise: Promise<unknown>): Promise<'ok' | Outcome> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const { code, status, retryAfter, messageKey, params, fieldErrors } = error;
    return { code, status, retryAfter, messageKey, params, fieldErrors };
  }
}

function tally(outcomes: ('ok' | Outcome)[]) {
  const counts: Record<string, number> = {};
  for (const o of outcomes) counts[o === 'ok' ? 'ok' : o.code] = (counts[o === 'ok' ? 'ok' : o.code] ?? 0) + 1;
  return counts;
}

function expectRetryAfterInWindow(outcomes: ('ok' | Outcome)[]) {
  for (const o of outcomes) {
    if (o === 'ok' || o.code !== 'RATE_LIMIT_EXCEEDED') continue;
    expect(o.status).toBe(429);
    expect(o.retryAfter).toBeGreaterThanOrEqual(1);
    expect(o.retryAfter).toBeLessThanOrEqual(RATE_WINDOW_SECONDS);
  }
}

const person = async (overrides = {}) => createTraveler({ email: uniqueEmail(), passwordHash: await hashPassword(PASSWORD), ...overrides });

describe(`rate limits (${testDriver})`, () => {
  beforeEach(() => {
    resetRateLimits();
    passwordChecks.mockClear();
  });

  describe('login', () => {
    it(`${PARALLEL} parallel wrong passwords for one account from one address run at most ${LOGIN_FAILURES_PER_ACCOUNT_IP} password checks`, async () => {
      const victim = await person();
      const ip = '198.51.100.10';
      const outcomes = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) => outcome(login({ email: victim.email, password: `guess-${i}` }, 'api', meta(ip)))),
      );
      const counts = tally(outcomes);
      console.info(`login, ${PARALLEL} parallel wrong passwords (one account, one address):`, counts, `password checks: ${passwordChecks.mock.calls.length}`);
      expect(counts.INVALID_CREDENTIALS).toBe(LOGIN_FAILURES_PER_ACCOUNT_IP);
      expect(counts.RATE_LIMIT_EXCEEDED).toBe(PARALLEL - LOGIN_FAILURES_PER_ACCOUNT_IP);
      expect(passwordChecks).toHaveBeenCalledTimes(LOGIN_FAILURES_PER_ACCOUNT_IP);
      expectRetryAfterInWindow(outcomes);

      // From that address even the right password waits (and costs no password check) ...
      const limited = await outcome(login({ email: victim.email, password: PASSWORD }, 'api', meta(ip)));
      expect(limited).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429 });
      expect(passwordChecks).toHaveBeenCalledTimes(LOGIN_FAILURES_PER_ACCOUNT_IP);
      // ... but the owner on another address is not locked out by a stranger,
      await expect(login({ email: victim.email, password: PASSWORD }, 'web', meta('203.0.113.20'))).resolves.toMatchObject({
        user: { id: victim.id },
      });
      // and the same address can still log in to other accounts (its own counter is at 10 of 100).
      const other = await person();
      await expect(login({ email: other.email, password: PASSWORD }, 'api', meta(ip))).resolves.toBeTruthy();
    });

    it(`trips the per-address limit (${LOGIN_FAILURES_PER_IP}) over many accounts, in parallel; other addresses are not affected`, async () => {
      const ip = '198.51.100.11';
      const outcomes = await Promise.all(
        Array.from({ length: PARALLEL }, () => outcome(login({ email: uniqueEmail('spray'), password: 'Summer2024!' }, 'api', meta(ip)))),
      );
      const counts = tally(outcomes);
      console.info(`login, ${PARALLEL} parallel wrong passwords (many accounts, one address):`, counts);
      expect(counts.INVALID_CREDENTIALS).toBe(LOGIN_FAILURES_PER_IP);
      expect(counts.RATE_LIMIT_EXCEEDED).toBe(PARALLEL - LOGIN_FAILURES_PER_IP);
      expect(passwordChecks).toHaveBeenCalledTimes(LOGIN_FAILURES_PER_IP);
      expectRetryAfterInWindow(outcomes);

      const someone = await person();
      expect(await outcome(login({ email: someone.email, password: PASSWORD }, 'api', meta(ip)))).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
      });
      await expect(login({ email: someone.email, password: PASSWORD }, 'api', meta('198.51.100.12'))).resolves.toBeTruthy();
    });

    it('counts only failures: a right password gives its slot back and forgives that person’s earlier typos', async () => {
      const user = await person();
      const ip = '198.51.100.13';
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_IP - 1; i++) {
        expect(await outcome(login({ email: user.email, password: `typo-${i}` }, 'web', meta(ip)))).toMatchObject({ code: 'INVALID_CREDENTIALS' });
      }
      await expect(login({ email: user.email, password: PASSWORD }, 'web', meta(ip))).resolves.toBeTruthy();
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_IP; i++) {
        expect(await outcome(login({ email: user.email, password: `typo-again-${i}` }, 'web', meta(ip)))).toMatchObject({
          code: 'INVALID_CREDENTIALS',
        });
      }
      expect(await outcome(login({ email: user.email, password: 'one-more' }, 'web', meta(ip)))).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    });

    it('a right password for a blocked or unverified account is not a failure either', async () => {
      const ip = '198.51.100.14';
      const blocked = await person({ blockedAt: new Date() });
      const unverified = await person({ isEmailVerified: false, emailVerifiedAt: null });
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_IP + 2; i++) {
        expect(await outcome(login({ email: blocked.email, password: PASSWORD }, 'api', meta(ip)))).toMatchObject({ code: 'ACCOUNT_BLOCKED' });
        expect(await outcome(login({ email: unverified.email, password: PASSWORD }, 'api', meta(ip)))).toMatchObject({
          code: 'EMAIL_NOT_VERIFIED',
        });
      }
    });

    it('treats the addresses of one IPv6 /64 as one address', async () => {
      expect(ipKey('2001:db8:a:b:1::1')).toBe('2001:db8:a:b::/64');
      expect(ipKey('2001:0db8:000a:000b:ffff:ffff:ffff:ffff')).toBe('2001:db8:a:b::/64');
      expect(ipKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
      expect(ipKey('::1')).toBe('0:0:0:0::/64');
      expect(ipKey('::ffff:192.0.2.5')).toBe('192.0.2.5');
      expect(ipKey('192.0.2.5')).toBe('192.0.2.5');

      const user = await person();
      for (let i = 0; i < LOGIN_FAILURES_PER_ACCOUNT_IP; i++) {
        await outcome(login({ email: user.email, password: `v6-${i}` }, 'api', meta(`2001:db8:a:b::${(i + 1).toString(16)}`)));
      }
      expect(await outcome(login({ email: user.email, password: PASSWORD }, 'api', meta('2001:db8:a:b:cafe::99')))).toMatchObject({
        code: 'RATE_LIMIT_EXCEEDED',
      });
      await expect(login({ email: user.email, password: PASSWORD }, 'api', meta('2001:db8:a:c::1'))).resolves.toBeTruthy();
    });
  });

  describe('the reservation itself', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('answers Retry-After = the seconds left in the window (at least 1), and a new window starts after 60 s', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const start = new Date('2025-03-01T10:00:00Z').getTime();
      vi.setSystemTime(start);
      await reserveAttempt(['window'], 2);
      vi.setSystemTime(start + 20_000);
      await reserveAttempt(['window'], 2);

      vi.setSystemTime(start + 45_000);
      expect(await outcome(reserveAttempt(['window'], 2))).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429, retryAfter: 15 });
      vi.setSystemTime(start + 59_500);
      expect(await outcome(reserveAttempt(['window'], 2))).toMatchObject({ retryAfter: 1 });
      vi.setSystemTime(start + 60_000);
      await expect(reserveAttempt(['window'], 2)).resolves.toBeUndefined();
    });

    it('is all or nothing: a refused attempt uses no slot on the other counters; a release never goes below 0', async () => {
      await reserveAttempt([{ key: 'full', limit: 1 }, { key: 'roomy', limit: 3 }]);
      for (let i = 0; i < 5; i++) {
        expect(await outcome(reserveAttempt([{ key: 'full', limit: 1 }, { key: 'roomy', limit: 3 }]))).toMatchObject({
          code: 'RATE_LIMIT_EXCEEDED',
        });
      }
      // 'roomy' holds 1 of 3, not 6.
      await reserveAttempt([{ key: 'roomy', limit: 3 }]);
      await reserveAttempt([{ key: 'roomy', limit: 3 }]);
      expect(await outcome(reserveAttempt([{ key: 'roomy', limit: 3 }]))).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });

      await releaseAttempt(['fresh', 'fresh', 'fresh']);
      await reserveAttempt(['fresh'], 1);
      expect(await outcome(reserveAttempt(['fresh'], 1))).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    });
  });

  describe('email codes', () => {
    it(`checks at most ${CODE_FAILURES_PER_IP} of ${PARALLEL} parallel code guesses from one address over many accounts`, async () => {
      const ip = '198.51.100.30';
      const targets = await Promise.all(
        Array.from({ length: 5 }, async () => {
          const user = await createTraveler({ email: uniqueEmail('code'), isEmailVerified: false, emailVerifiedAt: null });
          await sendVerificationCode(user);
          return { email: user.email, code: codeInText((await outboxFor(user.email)).at(-1)!.text) };
        }),
      );
      const outcomes = await Promise.all(
        Array.from({ length: PARALLEL }, (_, i) => {
          const { email, code } = targets[i % targets.length]!;
          return outcome(verifyEmail({ email, code: wrongBy(code, 1 + i) }, 'web', meta(ip)));
        }),
      );
      const counts = tally(outcomes);
      console.info(`verify-email, ${PARALLEL} parallel guesses (5 accounts, one address):`, counts);
      expect(counts.ok ?? 0).toBe(0);
      expect((counts.INVALID_CODE ?? 0) + (counts.CODE_EXPIRED ?? 0)).toBeLessThanOrEqual(CODE_FAILURES_PER_IP);
      expect(counts.RATE_LIMIT_EXCEEDED).toBeGreaterThanOrEqual(PARALLEL - CODE_FAILURES_PER_IP);
      expectRetryAfterInWindow(outcomes);
    });

    it(`limits guesses at one address from many client addresses to ${CODE_FAILURES_PER_ACCOUNT} a minute; a right code is not counted`, async () => {
      const user = await createTraveler({ email: uniqueEmail('target'), isEmailVerified: false, emailVerifiedAt: null });
      await sendVerificationCode(user);
      const code = codeInText((await outboxFor(user.email)).at(-1)!.text);
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          outcome(verifyEmail({ email: user.email, code: wrongBy(code, 1 + i) }, 'web', meta(`192.0.2.${i + 1}`))),
        ),
      );
      const counts = tally(outcomes);
      expect((counts.INVALID_CODE ?? 0) + (counts.CODE_EXPIRED ?? 0)).toBe(CODE_FAILURES_PER_ACCOUNT);
      expect(counts.RATE_LIMIT_EXCEEDED).toBe(40 - CODE_FAILURES_PER_ACCOUNT);

      // A right code gives its slot back: one wrong guess and one right one leave the address at 1 of 10.
      resetRateLimits();
      const other = await createTraveler({ email: uniqueEmail('right'), isEmailVerified: false, emailVerifiedAt: null });
      await sendVerificationCode(other);
      const otherCode = codeInText((await outboxFor(other.email)).at(-1)!.text);
      await verifyEmail({ email: other.email, code: otherCode }, undefined, meta('192.0.2.200'));
      for (let i = 0; i < CODE_FAILURES_PER_IP; i++) {
        expect(await outcome(verifyEmail({ email: uniqueEmail('none'), code: '000000' }, undefined, meta('192.0.2.200')))).toMatchObject({
          code: 'INVALID_CODE',
        });
      }
    });
  });

  describe('no account enumeration', () => {
    async function addresses() {
      return {
        unknown: uniqueEmail('nobody'),
        verified: (await person()).email,
        blocked: (await person({ blockedAt: new Date(), isEmailVerified: false, emailVerifiedAt: null })).email,
        archived: (await person({ deletedAt: new Date() })).email,
      };
    }

    it('verify-email answers an unknown, a verified, a blocked and an archived address exactly like a wrong code', async () => {
      const pending = await createTraveler({ email: uniqueEmail('pending'), isEmailVerified: false, emailVerifiedAt: null });
      await sendVerificationCode(pending);
      const code = codeInText((await outboxFor(pending.email)).at(-1)!.text);
      const wrongCode = wrongBy(code, 1);
      const reference = await outcome(verifyEmail({ email: pending.email, code: wrongCode }, 'web', meta('198.51.100.40')));
      expect(reference).toMatchObject({ code: 'INVALID_CODE', status: 400 });

      const cases = await addresses();
      let n = 41;
      for (const [kind, email] of Object.entries(cases)) {
        const answer = await outcome(verifyEmail({ email, code: wrongCode }, 'web', meta(`198.51.100.${n++}`)));
        expect(answer, kind).toEqual(reference);
      }
      // And they count toward the limits like a wrong code does.
      for (const [kind, email] of Object.entries(cases)) {
        const answers: ('ok' | Outcome)[] = [];
        for (let i = 0; i < CODE_FAILURES_PER_ACCOUNT; i++) answers.push(await outcome(verifyEmail({ email, code: '000000' }, 'web', meta(`192.0.2.${i + 1}`))));
        expect(tally(answers), kind).toEqual({ INVALID_CODE: CODE_FAILURES_PER_ACCOUNT - 1, RATE_LIMIT_EXCEEDED: 1 });
      }
    });

    it('resend-verification answers them alike (quiet success, no mail, then the cooldown) — like an unverified account', async () => {
      const cases = await addresses();
      const unverified = await createTraveler({ email: uniqueEmail('unverified'), isEmailVerified: false, emailVerifiedAt: null });
      const all = { ...cases, unverified: unverified.email };

      for (const [kind, email] of Object.entries(all)) expect(await outcome(resendVerification(email, { ip: '198.51.100.80' })), kind).toBe('ok');
      const second: Record<string, 'ok' | Outcome> = {};
      for (const [kind, email] of Object.entries(all)) second[kind] = await outcome(resendVerification(email.toUpperCase(), { ip: '198.51.100.80' }));
      for (const [kind, answer] of Object.entries(second)) {
        expect(answer, kind).toMatchObject({ code: 'RESEND_COOLDOWN', status: 429, messageKey: 'errors.codes.RESEND_COOLDOWN' });
        const { retryAfter } = answer as Outcome;
        expect(retryAfter, kind).toBeGreaterThan(55);
        expect(retryAfter, kind).toBeLessThanOrEqual(60);
      }
      // Only the account that can use a code got one.
      for (const email of Object.values(cases)) expect(await outboxFor(email)).toHaveLength(0);
      expect(await outboxFor(unverified.email)).toHaveLength(1);
    });
    it('the code-entry view (/register/verify, /login) answers a verified address exactly as an unknown one', async () => {
      // emailCodeAction is what both pages' actions run; called directly, its answer is read as Remix would.
      async function post(values: Record<string, string>) {
        const formData = new FormData();
        for (const [k, v] of Object.entries(values)) formData.append(k, v);
        const request = new Request('http://localhost/register/verify', { method: 'POST', headers: { 'accept-language': 'zh-TW' } });
        const answer = (await emailCodeAction(request, { clientIp: '198.51.100.70' }, formData)) as unknown;
        if (answer instanceof Response) return { status: answer.status, location: answer.headers.get('location') };
        const { data, init } = answer as { data: unknown; init?: { status?: number; headers?: HeadersInit } | null };
        return { status: init?.status ?? 200, retryAfter: new Headers(init?.headers).has('retry-after'), data };
      }
      async function answers(email: string) {
        const all = [
          await post({ intent: 'verify', email, code: '123456' }),
          await post({ intent: 'resend', email }),
          await post({ intent: 'resend', email }),
        ];
        return JSON.parse(JSON.stringify(all).replaceAll(email, '<email>')) as typeof all;
      }
      const verified = (await person()).email;
      const forVerified = await answers(verified);
      const forUnknown = await answers(uniqueEmail('nobody'));
      expect(forVerified).toEqual(forUnknown);
      expect(forVerified[0]).toMatchObject({ status: 400, data: { code: 'INVALID_CODE', result: { error: { code: ['errors.codes.INVALID_CODE'] } } } });
      expect(forVerified[1]).toMatchObject({ status: 200, data: { resent: true } });
      expect(forVerified[2]).toMatchObject({ status: 429, retryAfter: true, data: { code: 'RESEND_COOLDOWN' } });
      expect(await outboxFor(verified)).toHaveLength(0);
    });
  });

  describe.skipIf(!redisUrl)(
    `two instances sharing Redis${redisUrl ? '' : ' (skipped: set TEST_REDIS_URL, e.g. redis://127.0.0.1:6379, to run)'}`,
    () => {
      const opened: RateLimitStore[] = [];
      /** Two stores with their own Redis clients, as two server instances have; a fresh namespace per test. */
      function twoInstances(): [RateLimitStore, RateLimitStore] {
        const prefix = `rl-test:${crypto.randomBytes(6).toString('hex')}:`;
        const pair: [RateLimitStore, RateLimitStore] = [
          createRateLimitStore(redisUrl, { prefix }),
          createRateLimitStore(redisUrl, { prefix }),
        ];
        opened.push(...pair);
        return pair;
      }
      afterAll(async () => {
        resetRateLimits();
        await Promise.all(opened.map((s) => s.close()));
      });

      it(`${PARALLEL} parallel reservations split between them admit exactly the limit`, async () => {
        const [a, b] = twoInstances();
        const rules = [
          { key: 'login:account-ip:someone@example.test:198.51.100.60', limit: LOGIN_FAILURES_PER_ACCOUNT_IP },
          { key: 'login:ip:198.51.100.60', limit: LOGIN_FAILURES_PER_IP },
        ];
        const results = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => (i % 2 ? a : b).reserve(rules, RATE_WINDOW_SECONDS)));
        const allowed = results.filter((r) => r.allowed).length;
        console.info(`redis, ${PARALLEL} parallel reservations over two stores: ${allowed} allowed`);
        expect(allowed).toBe(LOGIN_FAILURES_PER_ACCOUNT_IP);
        for (const r of results) {
          if (!r.allowed) {
            expect(r.retryAfterMs).toBeGreaterThan(0);
            expect(r.retryAfterMs).toBeLessThanOrEqual(RATE_WINDOW_SECONDS * 1000);
            // The refusal names the full counter (the metrics count refusals by limit).
            expect(r.fullKey).toBe(rules[0]!.key);
          }
        }
        // A slot given back on one instance is free on the other; refused attempts took none on login:ip.
        await a.release([rules[0]!.key]);
        expect((await b.reserve(rules, RATE_WINDOW_SECONDS)).allowed).toBe(true);
        expect((await a.reserve(rules, RATE_WINDOW_SECONDS)).allowed).toBe(false);
        const ipOnly = [rules[1]!];
        const more = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).reserve(ipOnly, RATE_WINDOW_SECONDS)));
        expect(more.filter((r) => r.allowed).length).toBe(LOGIN_FAILURES_PER_IP - LOGIN_FAILURES_PER_ACCOUNT_IP - 1);
        // Releasing never goes below zero, and never creates a counter without an expiry.
        await b.release(['never-reserved', 'never-reserved']);
        expect((await a.reserve([{ key: 'never-reserved', limit: 1 }], RATE_WINDOW_SECONDS)).allowed).toBe(true);
        const refused = await b.reserve([{ key: 'never-reserved', limit: 1 }], RATE_WINDOW_SECONDS);
        expect(refused.allowed).toBe(false);
        expect(refused.allowed === false && refused.retryAfterMs).toBeGreaterThan(RATE_WINDOW_SECONDS * 1000 - 5_000);
      });

      it(`${PARALLEL} parallel login() calls alternating between the two instances' stores run at most ${LOGIN_FAILURES_PER_ACCOUNT_IP} password checks`, async () => {
        const [a, b] = twoInstances();
        const victim = await person();
        const ip = '198.51.100.61';
        // reserveAttempt picks the process store synchronously when login() is called, so switching it
        // between calls sends every other request through the other instance's Redis client.
        const calls = Array.from({ length: PARALLEL }, (_, i) => {
          setRateLimitStore(i % 2 ? a : b);
          return outcome(login({ email: victim.email, password: `guess-${i}` }, 'api', meta(ip)));
        });
        const outcomes = await Promise.all(calls);
        const counts = tally(outcomes);
        console.info(`redis, ${PARALLEL} parallel login() over two stores:`, counts, `password checks: ${passwordChecks.mock.calls.length}`);
        expect(counts.INVALID_CREDENTIALS).toBe(LOGIN_FAILURES_PER_ACCOUNT_IP);
        expect(counts.RATE_LIMIT_EXCEEDED).toBe(PARALLEL - LOGIN_FAILURES_PER_ACCOUNT_IP);
        expect(passwordChecks).toHaveBeenCalledTimes(LOGIN_FAILURES_PER_ACCOUNT_IP);
        expectRetryAfterInWindow(outcomes);
        // The owner, from elsewhere, through either instance.
        setRateLimitStore(a);
        await expect(login({ email: victim.email, password: PASSWORD }, 'api', meta('203.0.113.61'))).resolves.toBeTruthy();
      });
    },
  );
});
