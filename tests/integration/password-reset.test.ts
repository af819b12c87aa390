import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { emailCodes, users } from '~db/schema';
import { verifyEmail } from '~/services/accounts/accounts.server';
import { MAX_CODE_ATTEMPTS, sendVerificationCode } from '~/services/accounts/email-codes.server';
import { AppError } from '~/services/platform/errors.server';
import { hashPassword, verifyPassword } from '~/services/accounts/passwords.server';
import { requestPasswordReset, resetPassword } from '~/services/accounts/password-reset.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { getActiveSession } from '~/services/accounts/sessions.server';
import { findUserById } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { createTraveler, createUser } from '~server/seed/factories';
import { useTestServer, type TestResponse } from '../support/http-server';
import { mailCausedBy, mailCount, useSmtpSink } from '../support/mail';
import { expectContract } from '../support/openapi';
import { codeFrom } from '../support/smtp-sink';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Forgot password (issue 7): POST /api/v1/auth/forgot-password and /reset-password over real HTTP, the two
 * pages' form posts over real HTTP, and the service rules (code purpose, tries, expiry, rate limits) with
 * mail going through a real SMTP server.
 */
useTestDatabase();
const mail = useSmtpSink();
const server = useTestServer();

const OLD_PASSWORD = 'old-password-1';
const NEW_PASSWORD = 'new-password-2';
let counter = 0;
const uniqueEmail = (prefix = 'reset') => `${prefix}${++counter}-${Date.now().toString(36)}@example.test`;
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function person(overrides: Parameters<typeof createTraveler>[0] = {}) {
  return createTraveler({ email: uniqueEmail(), passwordHash: await hashPassword(OLD_PASSWORD), ...overrides });
}

async function appError(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
}

const forgot = (email: string, headers?: Record<string, string>) =>
  server.request('/api/v1/auth/forgot-password', { json: { email }, headers });
const reset = (body: Record<string, unknown>) => server.request('/api/v1/auth/reset-password', { json: body });
const login = (email: string, password: string) => server.request('/api/v1/auth/login', { json: { email, password } });

/** Asks for a code over the API and returns it from the mail the SMTP sink received. */
async function requestCode(email: string, headers?: Record<string, string>) {
  let response!: TestResponse;
  const received = await mailCausedBy(mail.sink, email, async () => {
    response = await forgot(email, headers);
  });
  expect(response.status).toBe(200);
  return { response, mail: received, code: codeFrom(received) };
}

const resetCodeRow = async (userId: number) =>
  (await getDb().select().from(emailCodes).where(and(eq(emailCodes.userId, userId), eq(emailCodes.purpose, 'reset_password'))))[0];

function expectError(response: TestResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.json).toMatchObject({ success: false, code });
}

/** Lets mail a request may have set off arrive (the code is issued after the answer). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe(`forgot password over the API (${testDriver})`, () => {
  beforeEach(() => resetRateLimits());

  it('mails a reset code in the account language; the code sets the password and ends every session', async () => {
    const user = await person({ locale: 'en' });
    const before = await loginAs(user);
    const { response, mail: received, code } = await requestCode(user.email);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.json).toEqual({ success: true, data: { sent: true } });
    await expectContract(server, 'POST', '/api/v1/auth/forgot-password', response);
    expect(received.subject).toBe(`Travel Assistant password reset code: ${code}`);
    expect(received.text).toContain('reset your Travel Assistant password');
    expect(received.text).toContain('valid for 15 minutes');
    expect(received.html).toContain(code);
    // Stored hashed, never in clear.
    expect((await resetCodeRow(user.id))!.codeHash).not.toContain(code);

    const done = await reset({ email: user.email.toUpperCase(), code, password: NEW_PASSWORD });
    expect(done.status, done.text).toBe(200);
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.json).toEqual({ success: true, data: { reset: true } });
    await expectContract(server, 'POST', '/api/v1/auth/reset-password', done);

    // Every session of the account is over: the bearer token and the web session.
    expectError(await server.request(`/api/v1/users/${user.id}`, { token: before.token }), 401, 'UNAUTHORIZED');
    expect(await getActiveSession(before.webSessionId)).toBeUndefined();
    expectError(await login(user.email, OLD_PASSWORD), 401, 'INVALID_CREDENTIALS');
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
    // Single use.
    expectError(await reset({ email: user.email, code, password: 'another-pass-3' }), 400, 'CODE_EXPIRED');
  });

  it('tells the owner by mail, in the account language, that the password was changed (and nothing on a wrong code)', async () => {
    const user = await person({ locale: 'ja' });
    const { code } = await requestCode(user.email);
    const sent = mailCount(mail.sink, user.email);
    expectError(await reset({ email: user.email, code: wrong(code), password: NEW_PASSWORD }), 400, 'INVALID_CODE');
    expect(mailCount(mail.sink, user.email)).toBe(sent);
    const changed = await mailCausedBy(mail.sink, user.email, async () => {
      const done = await reset({ email: user.email, code, password: NEW_PASSWORD });
      expect(done.status, done.text).toBe(200);
    });
    expect(changed.subject).toBe('旅遊助手のパスワードが変更されました');
    expect(changed.text).toContain('すべての端末でログアウトしました');
    expect(changed.text).toMatch(/https?:\/\/[^\s]+\/forgot-password/);
    expect(changed.text).not.toContain(NEW_PASSWORD);
    expect(changed.text).not.toContain(code);
  });

  it('answers unknown, blocked, archived and real addresses alike, and mails only the real one', async () => {
    const real = await person();
    const blocked = await person({ blockedAt: new Date() });
    const archived = await person({ deletedAt: new Date() });
    const unknown = uniqueEmail('nobody');
    const before = mail.sink.messages.length;
    const answers = [];
    for (const email of [real.email, blocked.email, archived.email, unknown]) answers.push(await forgot(email));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({ success: true, data: { sent: true } });
      expect(answer.headers.get('content-type')).toBe(answers[0]!.headers.get('content-type'));
      expect(answer.text).toBe(answers[0]!.text);
    }
    await mail.sink.waitFor(real.email, { after: before });
    await settle();
    expect(mail.sink.messages.slice(before).map((m) => m.to).flat()).toEqual([real.email]);

    // A second request for the same address within the minute: 429 RESEND_COOLDOWN for every address alike.
    const again = [];
    for (const email of [real.email, blocked.email, unknown]) again.push(await forgot(email));
    for (const answer of again) {
      expectError(answer, 429, 'RESEND_COOLDOWN');
      const retryAfter = Number(answer.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    await expectContract(server, 'POST', '/api/v1/auth/forgot-password', again[0]!);
    await settle();
    expect(mailCount(mail.sink, real.email)).toBe(1);
  });

  it('a blocked or unknown account cannot reset, and says so exactly like a wrong code', async () => {
    const blocked = await person({ blockedAt: new Date() });
    const real = await person();
    const { code } = await requestCode(real.email);
    const forUnknown = await reset({ email: uniqueEmail('nobody'), code, password: NEW_PASSWORD });
    const forBlocked = await reset({ email: blocked.email, code, password: NEW_PASSWORD });
    const wrongCode = await reset({ email: real.email, code: wrong(code), password: NEW_PASSWORD });
    for (const answer of [forUnknown, forBlocked, wrongCode]) expectError(answer, 400, 'INVALID_CODE');
    expect(forUnknown.json.message).toBe(wrongCode.json.message);
    expect(forBlocked.json.message).toBe(wrongCode.json.message);
    await expectContract(server, 'POST', '/api/v1/auth/reset-password', wrongCode);
    expect(await verifyPassword((await findUserById(blocked.id))!.passwordHash!, OLD_PASSWORD)).toBe(true);
  });

  it('refuses a bad body with 400 VALIDATION_ERROR naming the fields (new password rules)', async () => {
    const res = await reset({ email: 'not-an-email', code: '12ab', password: '123' });
    expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(res.json.errors).sort()).toEqual(['code', 'email', 'password']);
    await expectContract(server, 'POST', '/api/v1/auth/reset-password', res);
    expectError(await forgot(''), 400, 'VALIDATION_ERROR');
  });

  it('a wrong code counts a try: the fifth voids the code (CODE_EXPIRED), and so does time', async () => {
    const user = await person();
    const { code } = await requestCode(user.email);
    for (let i = 1; i < MAX_CODE_ATTEMPTS; i++) {
      expectError(await reset({ email: user.email, code: wrong(code), password: NEW_PASSWORD }), 400, 'INVALID_CODE');
    }
    expectError(await reset({ email: user.email, code: wrong(code), password: NEW_PASSWORD }), 400, 'CODE_EXPIRED');
    const late = await reset({ email: user.email, code, password: NEW_PASSWORD });
    expectError(late, 400, 'CODE_EXPIRED');
    await expectContract(server, 'POST', '/api/v1/auth/reset-password', late);

    resetRateLimits();
    const other = await person();
    const fresh = await requestCode(other.email);
    await getDb()
      .update(emailCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(emailCodes.userId, other.id));
    expectError(await reset({ email: other.email, code: fresh.code, password: NEW_PASSWORD }), 400, 'CODE_EXPIRED');
    expect(await verifyPassword((await findUserById(other.id))!.passwordHash!, OLD_PASSWORD)).toBe(true);
  });

  it('limits wrong codes per client address: 429 with Retry-After, and the right code is refused meanwhile', async () => {
    const people = await Promise.all(Array.from({ length: 3 }, () => person()));
    let last!: TestResponse;
    // 10 wrong codes a minute from one address, spread over accounts that have no code at all.
    for (let i = 0; i < 11; i++) last = await reset({ email: people[i % 3]!.email, code: '000000', password: NEW_PASSWORD });
    expectError(last, 429, 'RATE_LIMIT_EXCEEDED');
    const retryAfter = Number(last.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await expectContract(server, 'POST', '/api/v1/auth/reset-password', last);
  });
});

describe(`codes have a purpose (${testDriver})`, () => {
  beforeEach(() => resetRateLimits());

  it('a verification code cannot reset a password, and a reset code cannot verify an address', async () => {
    const user = await person({ isEmailVerified: false, emailVerifiedAt: null });
    const verification = codeFrom(await mailCausedBy(mail.sink, user.email, () => sendVerificationCode(user)));
    const { code: resetCode } = await requestCode(user.email);
    // Both live side by side: asking for one did not replace the other.
    const rows = await getDb().select().from(emailCodes).where(eq(emailCodes.userId, user.id));
    expect(rows.map((r) => r.purpose).sort()).toEqual(['reset_password', 'verify_email']);

    if (verification !== resetCode) {
      expectError(await reset({ email: user.email, code: verification, password: NEW_PASSWORD }), 400, 'INVALID_CODE');
      const refused = await appError(verifyEmail({ email: user.email, code: resetCode }, undefined, { ip: '198.51.100.9' }));
      expect(refused.code).toBe('INVALID_CODE');
    }
    expect((await findUserById(user.id))!.isEmailVerified).toBe(false);

    // Each still works for its own purpose. The reset proves the mailbox, so the address counts as verified.
    expect((await reset({ email: user.email, code: resetCode, password: NEW_PASSWORD })).status).toBe(200);
    const after = (await findUserById(user.id))!;
    expect(after.isEmailVerified).toBe(true);
    expect(after.emailVerifiedAt).not.toBeNull();
    await expect(verifyPassword(after.passwordHash!, NEW_PASSWORD)).resolves.toBe(true);
  });

  it('a reset code issued by the service is only for the account it was mailed to', async () => {
    const [alice, bob] = [await person(), await person()];
    const code = codeFrom(await mailCausedBy(mail.sink, alice.email, () => requestPasswordReset(alice.email, { ip: '198.51.100.10' })));
    await mailCausedBy(mail.sink, bob.email, () => requestPasswordReset(bob.email, { ip: '198.51.100.10' }));
    const refused = await appError(resetPassword({ email: bob.email, code, password: NEW_PASSWORD }, { ip: '198.51.100.10' }));
    expect(refused.code).toBe('INVALID_CODE');
    await resetPassword({ email: alice.email, code, password: NEW_PASSWORD }, { ip: '198.51.100.10' });
    expect(await verifyPassword((await findUserById(bob.id))!.passwordHash!, OLD_PASSWORD)).toBe(true);
  });
});

describe(`the two pages as plain forms (${testDriver})`, () => {
  beforeEach(() => resetRateLimits());

  const formBody = (values: Record<string, string>) => new URLSearchParams(values).toString();
  const post = (path: string, values: Record<string, string>, headers: Record<string, string> = {}) =>
    server.request(path, {
      method: 'POST',
      body: formBody(values),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.baseUrl, ...headers },
    });

  it('step 1 answers every address with the same redirect to step 2', async () => {
    const real = await person();
    const unknown = uniqueEmail('nobody');
    const a = await post('/forgot-password', { email: real.email });
    const b = await post('/forgot-password', { email: unknown });
    expect(a.status).toBe(302);
    expect(b.status).toBe(302);
    expect(a.headers.get('location')).toBe(`/reset-password?${new URLSearchParams({ email: real.email })}`);
    expect(b.headers.get('location')).toBe(`/reset-password?${new URLSearchParams({ email: unknown })}`);
    expect(a.headers.getSetCookie()).toEqual(b.headers.getSetCookie());
    // Asking again within the minute still goes on to step 2 (the first code is still valid), for both.
    expect((await post('/forgot-password', { email: unknown })).status).toBe(302);
    expect((await post('/forgot-password', { email: real.email })).status).toBe(302);
    await mail.sink.waitFor(real.email);

    const page = await server.request(`/reset-password?${new URLSearchParams({ email: unknown })}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('已註冊帳號，我們已寄出 6 位數驗證碼');
    expect(page.text).toContain(`value="${unknown}"`);
  });

  it('step 1 is a public form with a honeypot: a filled one mails nothing and says only that it failed', async () => {
    const real = await person();
    const bot = await post('/forgot-password', { email: real.email, website: 'http://spam.example' }, { 'accept-language': 'zh-TW' });
    expect(bot.status).toBe(400);
    expect(bot.text).toContain('<p class="form-error" role="alert">無法寄出重設碼，請重試</p>');
    // The address typed stays in the form; nothing was sent or stored.
    expect(bot.text).toContain(`value="${real.email}"`);
    const codes = await getDb().select().from(emailCodes).where(eq(emailCodes.userId, real.id));
    expect(codes).toHaveLength(0);
  });

  it('step 2 sets the password, ends the sessions and lands on /login with a toast; a wrong code keeps the address', async () => {
    const user = await person();
    const session = await loginAs(user);
    const received = await mailCausedBy(mail.sink, user.email, () => post('/forgot-password', { email: user.email }));
    const code = codeFrom(received);
    expect(received.subject).toBe(`旅遊助手 重設密碼驗證碼：${code}`);
    const step2 = `/reset-password?${new URLSearchParams({ email: user.email })}`;

    const bad = await post(step2, { intent: 'reset', email: user.email, code: wrong(code), password: NEW_PASSWORD });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('認證失敗，請檢查認證碼是否正確');
    expect(bad.text).toContain(`value="${user.email}"`);
    expect(bad.text).not.toContain(NEW_PASSWORD);

    const short = await post(step2, { intent: 'reset', email: user.email, code, password: '123' });
    expect(short.status).toBe(400);

    const done = await post(step2, { intent: 'reset', email: user.email, code, password: NEW_PASSWORD }, { cookie: session.cookie });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/login');
    const cookies = done.headers.getSetCookie();
    expect(cookies.some((c) => c.startsWith('toast='))).toBe(true);
    expect(cookies.some((c) => c.startsWith('__session=;') || /^__session=[^;]*;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/i.test(c))).toBe(true);
    expect(await getActiveSession(session.webSessionId)).toBeUndefined();

    const toast = cookies.find((c) => c.startsWith('toast='))!.split(';')[0]!;
    const loginPage = await server.request('/login', { cookie: toast });
    expect(loginPage.text).toContain('密碼已更新，請使用新密碼登入。');
    expect(loginPage.text).toContain('href="/forgot-password"');
    expect((await login(user.email, NEW_PASSWORD)).status).toBe(200);
  });

  it('step 2 without a valid address goes back to step 1', async () => {
    const res = await server.request('/reset-password?email=nope');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/forgot-password');
  });

  it('resend on step 2 answers the same for every address, with the wait on a second try', async () => {
    const unknown = uniqueEmail('nobody');
    const step2 = `/reset-password?${new URLSearchParams({ email: unknown })}`;
    const first = await post(step2, { intent: 'resend', email: unknown });
    expect(first.status).toBe(200);
    expect(first.text).toContain('如果此電子郵件已註冊帳號，新的驗證碼已寄出。');
    const second = await post(step2, { intent: 'resend', email: unknown });
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(second.text).toMatch(/請在 \d+ 秒後再重新發送/);
  });
});

describe(`the account row (${testDriver})`, () => {
  it('the reset leaves other fields alone', async () => {
    resetRateLimits();
    const user = await createUser({ email: uniqueEmail('admin'), type: 'admin', passwordHash: await hashPassword(OLD_PASSWORD) });
    const { code } = await requestCode(user.email);
    expect((await reset({ email: user.email, code, password: NEW_PASSWORD })).status).toBe(200);
    const [row] = await getDb().select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ type: 'admin', email: user.email, name: user.name, isEmailVerified: true });
  });
});
