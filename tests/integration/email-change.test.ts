import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { emailCodes } from '~db/schema';
import { verifyEmail } from '~/services/accounts/accounts.server';
import { sendVerificationCode } from '~/services/accounts/email-codes.server';
import { AppError } from '~/services/platform/errors.server';
import { hashPassword } from '~/services/accounts/passwords.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { findUserById } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { createTraveler, createUser } from '~server/seed/factories';
import { useTestServer, type TestResponse } from '../support/http-server';
import { mailCausedBy, mailCount, useSmtpSink } from '../support/mail';
import { expectContract } from '../support/openapi';
import { codeFrom } from '../support/smtp-sink';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Changing the email address (issue 7): the old, verified address stays the login until the new one is
 * confirmed with the code mailed to it. PUT /api/v1/users/{id} and POST /api/v1/users/{id}/email/confirm
 * over real HTTP, the /me card's forms over real HTTP, mail through a real SMTP server.
 */
useTestDatabase();
const mail = useSmtpSink();
const server = useTestServer();

const PASSWORD = 'secret-pass-1';
let counter = 0;
const uniqueEmail = (prefix = 'change') => `${prefix}${++counter}-${Date.now().toString(36)}@example.test`;
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function person(overrides: Parameters<typeof createTraveler>[0] = {}) {
  return createTraveler({ email: uniqueEmail('old'), passwordHash: await hashPassword(PASSWORD), ...overrides });
}

const put = (id: number, body: Record<string, unknown>, token: string) =>
  server.request(`/api/v1/users/${id}`, { method: 'PUT', json: body, token });
const confirm = (id: number, code: string, token?: string) =>
  server.request(`/api/v1/users/${id}/email/confirm`, { json: { code }, token });
const login = (email: string) => server.request('/api/v1/auth/login', { json: { email, password: PASSWORD } });

/** Asks for a new address over the API and returns the answer and the code mailed to the new address. */
async function requestChange(user: { id: number; name: string }, to: string, token: string) {
  let response!: TestResponse;
  const received = await mailCausedBy(mail.sink, to, async () => {
    response = await put(user.id, { name: user.name, email: to }, token);
  });
  expect(response.status, response.text).toBe(200);
  return { response, mail: received, code: codeFrom(received) };
}

function expectError(response: TestResponse, status: number, code: string) {
  expect(response.status, response.text).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(response.json).toMatchObject({ success: false, code });
}

describe(`email change over the API (${testDriver})`, () => {
  beforeEach(() => resetRateLimits());

  it('keeps the old verified address until the code mailed to the new one is confirmed', async () => {
    const me = await person({ locale: 'ja' });
    const { token } = await loginAs(me);
    const next = uniqueEmail('New');
    const { response, mail: received, code } = await requestChange(me, next, token);
    expect(response.json.data.user).toMatchObject({ email: me.email, pendingEmail: next.toLowerCase(), isEmailVerified: true });
    await expectContract(server, 'PUT', '/api/v1/users/{id}', response);
    expect(received.subject).toBe(`旅遊助手 新しいメールアドレスの確認コード：${code}`);
    expect(received.text).toContain('現在のメールアドレスがそのまま使われます');
    expect(mailCount(mail.sink, me.email)).toBe(0);

    // Meanwhile the old address is the login and the new one is nobody's.
    expect((await login(me.email)).status).toBe(200);
    expectError(await login(next), 401, 'INVALID_CREDENTIALS');
    const read = await server.request(`/api/v1/users/${me.id}`, { token });
    expect(read.json.data.user).toMatchObject({ email: me.email, pendingEmail: next.toLowerCase() });

    const done = await confirm(me.id, code, token);
    expect(done.status, done.text).toBe(200);
    expect(done.headers.get('cache-control')).toBe('no-store');
    expect(done.json.data.user).toMatchObject({ id: me.id, email: next.toLowerCase(), pendingEmail: null, isEmailVerified: true });
    await expectContract(server, 'POST', '/api/v1/users/{id}/email/confirm', done);
    const row = (await findUserById(me.id))!;
    expect(row.emailVerifiedAt!.getTime()).toBeGreaterThan(me.emailVerifiedAt!.getTime());

    expect((await login(next)).status).toBe(200);
    expectError(await login(me.email), 401, 'INVALID_CREDENTIALS');
    // Single use.
    expectError(await confirm(me.id, code, token), 400, 'INVALID_CODE');
  });

  it('refuses a wrong code (400 INVALID_CODE), then voids the code after 5 tries (CODE_EXPIRED)', async () => {
    const me = await person();
    const { token } = await loginAs(me);
    const { code } = await requestChange(me, uniqueEmail('new'), token);
    const bad = await confirm(me.id, wrong(code), token);
    expectError(bad, 400, 'INVALID_CODE');
    await expectContract(server, 'POST', '/api/v1/users/{id}/email/confirm', bad);
    for (let i = 0; i < 3; i++) expectError(await confirm(me.id, wrong(code), token), 400, 'INVALID_CODE');
    expectError(await confirm(me.id, wrong(code), token), 400, 'CODE_EXPIRED');
    expectError(await confirm(me.id, code, token), 400, 'CODE_EXPIRED');
    expect((await findUserById(me.id))!.email).toBe(me.email);
  });

  it('confirms only for the account itself: 401 anonymous, 403 for another account and for an admin', async () => {
    const me = await person();
    const other = await person();
    const admin = await createUser({ type: 'admin', email: uniqueEmail('admin') });
    const { token } = await loginAs(me);
    const { code } = await requestChange(me, uniqueEmail('new'), token);
    expectError(await confirm(me.id, code), 401, 'UNAUTHORIZED');
    const forbidden = await confirm(me.id, code, (await loginAs(other)).token);
    expectError(forbidden, 403, 'FORBIDDEN');
    await expectContract(server, 'POST', '/api/v1/users/{id}/email/confirm', forbidden);
    expectError(await confirm(me.id, code, (await loginAs(admin)).token), 403, 'FORBIDDEN');
    expectError(await confirm(me.id, '12', token), 400, 'VALIDATION_ERROR');
    expect((await findUserById(me.id))!.pendingEmail).not.toBeNull();
  });

  it('with nothing pending a code is refused', async () => {
    const me = await person();
    const { token } = await loginAs(me);
    expectError(await confirm(me.id, '123456', token), 400, 'INVALID_CODE');
  });

  it('409 EMAIL_TAKEN when someone registered the address meanwhile; the change is dropped', async () => {
    const me = await person();
    const { token } = await loginAs(me);
    const next = uniqueEmail('contested');
    const { code } = await requestChange(me, next, token);
    const register = await server.request('/api/v1/auth/register', {
      json: { type: 'traveler', name: '搶先的人', email: next, password: 'secret123' },
    });
    expect(register.status).toBe(201);
    const taken = await confirm(me.id, code, token);
    expectError(taken, 409, 'EMAIL_TAKEN');
    await expectContract(server, 'POST', '/api/v1/users/{id}/email/confirm', taken);
    expect(await findUserById(me.id)).toMatchObject({ email: me.email, pendingEmail: null, isEmailVerified: true });
  });

  it('asking for an address another account has is 409 on the email field, and nothing is pending', async () => {
    const me = await person();
    const other = await person();
    const { token } = await loginAs(me);
    const res = await put(me.id, { name: me.name, email: other.email.toUpperCase() }, token);
    expectError(res, 409, 'EMAIL_TAKEN');
    expect(res.json.errors).toHaveProperty('email');
    expect((await findUserById(me.id))!.pendingEmail).toBeNull();
  });

  it('a code is bound to the address it was mailed to; a change of mind needs the new code', async () => {
    const me = await person();
    const { token } = await loginAs(me);
    const first = uniqueEmail('first');
    const { code: firstCode } = await requestChange(me, first, token);
    // Within the minute no second code goes out, and the first one does not fit the second address.
    const second = uniqueEmail('second');
    const changed = await put(me.id, { name: me.name, email: second }, token);
    expect(changed.json.data.user.pendingEmail).toBe(second);
    expectError(await confirm(me.id, firstCode, token), 400, 'INVALID_CODE');
    expect(mailCount(mail.sink, second)).toBe(0);

    // A minute later the card's resend mails a code to the second address, and that one works.
    await getDb()
      .update(emailCodes)
      .set({ sentAt: new Date(Date.now() - 61_000) })
      .where(and(eq(emailCodes.userId, me.id), eq(emailCodes.purpose, 'change_email')));
    const { resendEmailChangeCode } = await import('~/services/accounts/users.server');
    const received = await mailCausedBy(mail.sink, second, () => resendEmailChangeCode(me, me.id));
    const done = await confirm(me.id, codeFrom(received), token);
    expect(done.status, done.text).toBe(200);
    expect(done.json.data.user.email).toBe(second);
  });

  it('a verification code cannot confirm a new address, and a change code cannot verify one', async () => {
    const me = await person({ isEmailVerified: false, emailVerifiedAt: null });
    const verification = codeFrom(await mailCausedBy(mail.sink, me.email, () => sendVerificationCode(me)));
    const { token } = await loginAs(me);
    const next = uniqueEmail('new');
    const { code: changeCode } = await requestChange(me, next, token);
    if (verification !== changeCode) {
      expectError(await confirm(me.id, verification, token), 400, 'INVALID_CODE');
      const refused = await verifyEmail({ email: me.email, code: changeCode }, undefined, { ip: '198.51.100.30' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(AppError);
      expect((refused as AppError).code).toBe('INVALID_CODE');
    }
    expect((await findUserById(me.id))!.isEmailVerified).toBe(false);
    // Confirming the new address proves that mailbox: the account is verified from then on.
    const done = await confirm(me.id, changeCode, token);
    expect(done.json.data.user).toMatchObject({ email: next, isEmailVerified: true, pendingEmail: null });
  });
});

describe(`the pending-email card on /me (${testDriver})`, () => {
  beforeEach(() => resetRateLimits());

  const postMe = (cookie: string, values: Record<string, string>) =>
    server.request('/me?index', {
      method: 'POST',
      cookie,
      body: new URLSearchParams(values).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('saving a new address keeps the old one and shows the card; the code form swaps them (no JS)', async () => {
    const me = await person();
    const { cookie } = await loginAs(me);
    const next = uniqueEmail('web');
    let saved!: TestResponse;
    const received = await mailCausedBy(mail.sink, next, async () => {
      saved = await postMe(cookie, { intent: 'save', name: me.name, email: next });
    });
    expect(saved.status).toBe(302);
    expect(saved.headers.get('location')).toBe('/me');
    const toast = saved.headers.getSetCookie().find((c) => c.startsWith('toast='))!.split(';')[0]!;
    expect(await findUserById(me.id)).toMatchObject({ email: me.email, pendingEmail: next, isEmailVerified: true });

    const page = await server.request('/me', { cookie: `${cookie}; ${toast}` });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`驗證碼已寄到 ${next}，輸入驗證碼後新電子郵件才會生效。`);
    expect(page.text).toContain('<h2 id="pending-email-title">確認新的電子郵件</h2>');
    expect(page.text).toMatch(new RegExp(`待確認的新電子郵件：<strong[^>]*>${next.replace(/[.]/g, '\\.')}</strong>`));
    expect(page.text).toContain('name="intent" value="confirm-email"');

    const bad = await postMe(cookie, { intent: 'confirm-email', code: wrong(codeFrom(received)) });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('認證失敗，請檢查認證碼是否正確');
    // The wrong code is not the profile editor's answer: the page stays in view mode.
    expect(bad.text).not.toContain('id="profile-edit-title"');

    const done = await postMe(cookie, { intent: 'confirm-email', code: codeFrom(received) });
    expect(done.status).toBe(302);
    expect(await findUserById(me.id)).toMatchObject({ email: next, pendingEmail: null, isEmailVerified: true });
    const after = await server.request('/me', { cookie });
    expect(after.text).not.toContain('id="pending-email-title"');
  });

  it('cancel drops the pending address and its code; resend within the minute says how long to wait', async () => {
    const me = await person();
    const { cookie, token } = await loginAs(me);
    await requestChange(me, uniqueEmail('cancel'), token);
    const wait = await postMe(cookie, { intent: 'resend-email-code' });
    expect(wait.status).toBe(429);
    expect(Number(wait.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(wait.text).toMatch(/請在 \d+ 秒後再重新發送/);

    const cancelled = await postMe(cookie, { intent: 'cancel-email' });
    expect(cancelled.status).toBe(302);
    expect(await findUserById(me.id)).toMatchObject({ email: me.email, pendingEmail: null });
    const codes = await getDb()
      .select()
      .from(emailCodes)
      .where(and(eq(emailCodes.userId, me.id), eq(emailCodes.purpose, 'change_email')));
    expect(codes).toHaveLength(0);
  });
});
