import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { emailCodes, sessions, users } from '~db/schema';
import { sendVerificationCode } from '~/services/accounts/email-codes.server';
import { hashPassword } from '~/services/accounts/passwords.server';
import { LOGIN_FAILURES_PER_IP, RESENDS_PER_IP, resetRateLimits } from '~/services/platform/rate-limit.server';
import { revokeUserSessions } from '~/services/accounts/sessions.server';
import type { UserRow } from '~/services/accounts/users.server';
import { createTraveler } from '~server/seed/factories';
import { useTestServer, type TestResponse } from '../support/http-server';
import { mailCausedBy, mailCount, outboxFor, useSmtpSink } from '../support/mail';
import { codeFrom } from '../support/smtp-sink';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * /api/v1/auth/* over real HTTP (the Express app with the Remix handler on a free port), with mail going
 * through a real SMTP server. Service-level rules are in auth.test.ts; this file checks what API clients see:
 * status lines, headers and the JSON envelope.
 */
useTestDatabase();
const mail = useSmtpSink();
const server = useTestServer();

let counter = 0;
const uniqueEmail = (prefix = 'api') => `${prefix}${++counter}-${Date.now().toString(36)}@example.test`;
const lang = (value: string) => ({ 'accept-language': value });

const registerRoute = '/api/v1/auth/register';
const verifyRoute = '/api/v1/auth/verify-email';
const resendRoute = '/api/v1/auth/resend-verification';
const loginRoute = '/api/v1/auth/login';
const logoutRoute = '/api/v1/auth/logout';

interface PostOptions {
  token?: string;
  /** The client address: sent as X-Forwarded-For, which the app trusts from the loopback proxy only. */
  ip?: string;
  headers?: Record<string, string>;
}

/** POST a JSON body (or a FormData form) to an API path. */
const post = (path: string, body: unknown, options: PostOptions = {}) =>
  server.request(path, {
    method: 'POST',
    ...(body instanceof FormData ? { body } : { json: body }),
    token: options.token,
    headers: { ...options.headers, ...(options.ip ? { 'x-forwarded-for': options.ip } : {}) },
  });

/** "Does this token work?": GET the token's own account, as any API client would. */
const probe = (token: string, userId: number) => server.request(`/api/v1/users/${userId}`, { token });

/** An API answer as a client reads it: this status, a JSON body, and never stored by a cache (tokens, accounts). */
function expectApi(res: TestResponse, status: number, label = '') {
  expect(res.status, `${label} ${res.text}`).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.json?.success).toBe(status < 400);
}

const travelerBody = (email: string, extra: Record<string, unknown> = {}) => ({
  type: 'traveler',
  name: 'API 旅客',
  email,
  password: 'secret1',
  ...extra,
});
const guideBody = (email: string, extra: Record<string, unknown> = {}) => ({
  type: 'guide',
  name: 'API 導遊',
  email,
  password: 'secret1',
  city: 'hualien',
  language: ['zh', 'en'],
  price: 1800,
  description: '太魯閣一日遊',
  ...extra,
});

/** Registers through the API and returns the response and the code from the SMTP mail. */
async function registerViaApi(body: Record<string, unknown>, options: PostOptions = {}) {
  let res!: TestResponse;
  const received = await mailCausedBy(mail.sink, String(body.email), async () => {
    res = await post(registerRoute, body, options);
    expectApi(res, 201);
  });
  return { res, mail: received, code: codeFrom(received) };
}

const userRow = async (email: string) => (await getDb().select().from(users).where(eq(users.email, email.toLowerCase())))[0]!;
const codeRow = async (userId: number) => (await getDb().select().from(emailCodes).where(eq(emailCodes.userId, userId)))[0];
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
/** Retry-After is the time left in the limit's window, which began a few seconds ago in these tests. */
function expectRetryAfterNearFullWindow(headers: Headers) {
  const seconds = Number(headers.get('retry-after'));
  expect(seconds).toBeGreaterThanOrEqual(45);
  expect(seconds).toBeLessThanOrEqual(60);
}
const decodePayload = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describe(`/api/v1/auth (${testDriver})`, () => {
  beforeEach(() => resetRateLimits());

  describe('register', () => {
    it('creates an unverified traveler (201) and mails the code through SMTP in the language of Accept-Language', async () => {
      const email = uniqueEmail('Ja.User');
      const { res, mail: received, code } = await registerViaApi(travelerBody(email.toUpperCase()), { headers: lang('ja-JP,ja;q=0.9') });
      expect(res.json.success).toBe(true);
      expect(res.json.data.requiresVerification).toBe(true);
      expect(res.json.data.user).toMatchObject({ email: email.toLowerCase(), type: 'traveler', isEmailVerified: false, locale: 'ja' });
      expect(res.json.data.user).not.toHaveProperty('passwordHash');
      expect(JSON.stringify(res.json)).not.toContain('argon2');
      expect(res.headers.get('cache-control')).toBe('no-store');

      expect(received.subject).toBe(`旅遊助手 メール認証コード：${code}`);
      expect(received.text).toContain('API 旅客 様');
      expect(received.text).toContain('有効期限は 15 分');
      expect(received.html).toContain(code);
      expect((await userRow(email)).locale).toBe('ja');
      // It left through the outbox, queued once (decision 017).
      expect((await outboxFor(email)).map((m) => m.subject)).toEqual([received.subject]);
    });

    it('stores en for an English client and zh-TW when the header names no language we have', async () => {
      const en = uniqueEmail('en');
      const { mail: enMail, code } = await registerViaApi(travelerBody(en), { headers: lang('en-GB,en;q=0.8') });
      expect(enMail.subject).toBe(`Travel Assistant verification code: ${code}`);
      expect(enMail.text).toContain('The code is valid for 15 minutes');
      expect((await userRow(en)).locale).toBe('en');

      const fr = uniqueEmail('fr');
      const { mail: frMail } = await registerViaApi(travelerBody(fr), { headers: lang('fr-FR,de;q=0.5') });
      expect(frMail.text).toContain('認證碼 15 分鐘內有效');
      expect((await userRow(fr)).locale).toBe('zh-TW');

      // A later preference in the list is still used when the first is unknown.
      const mixed = uniqueEmail('mixed');
      await registerViaApi(travelerBody(mixed), { headers: lang('fr-FR, ja;q=0.5') });
      expect((await userRow(mixed)).locale).toBe('ja');
    });

    it('registers a guide (pending approval) with a JSON body', async () => {
      const email = uniqueEmail('guide');
      const { res } = await registerViaApi(guideBody(email));
      expect(res.json.data.user).toMatchObject({
        type: 'guide',
        guideStatus: 'active',
        city: 'hualien',
        language: ['zh', 'en'],
        price: 1800,
        description: '太魯閣一日遊',
      });
    });

    it('accepts a form-encoded body, with one value per ticked language', async () => {
      const email = uniqueEmail('form');
      const form = new FormData();
      for (const [k, v] of Object.entries(guideBody(email, { language: undefined, price: '2200' }))) {
        if (v !== undefined) form.append(k, String(v));
      }
      form.append('language', 'zh');
      form.append('language', 'ja');
      const received = await mailCausedBy(mail.sink, email, async () => {
        const res = await post(registerRoute, form);
        expectApi(res, 201);
        expect(res.json.data.user).toMatchObject({ language: ['zh', 'ja'], price: 2200 });
      });
      expect(codeFrom(received)).toMatch(/^\d{6}$/);
    });

    it('answers 409 EMAIL_TAKEN for an address already registered in another case', async () => {
      const email = uniqueEmail('taken');
      await registerViaApi(travelerBody(email));
      const before = mailCount(mail.sink, email);
      const res = await post(registerRoute, guideBody(email.toUpperCase()), { headers: lang('en') });
      expectApi(res, 409);
      expect(res.json).toEqual({
        success: false,
        code: 'EMAIL_TAKEN',
        message: 'This email is already registered',
        errors: { email: ['This email is already registered'] },
        requestId: res.headers.get('x-request-id'),
      });
      const zh = await post(registerRoute, travelerBody(`  ${email} `));
      expectApi(zh, 409);
      expect(zh.json.message).toBe('此電子郵件已被註冊');
      expect(mailCount(mail.sink, email)).toBe(before);
    });
  });

  describe('registration validation (400 VALIDATION_ERROR, translated per field)', () => {
    const required = {
      'zh-TW': {
        email: '電子郵件地址不能為空',
        password: '請輸入密碼',
        name: '請輸入姓名',
        city: '請選擇城市',
        language: '請選擇至少一種服務語言',
        price: '請輸入每個時段的價格',
        description: '請輸入自我介紹',
        message: '資料格式不正確，請檢查標示的欄位',
      },
      en: {
        email: 'Email address cannot be empty',
        password: 'Please enter a password',
        name: 'Please enter your name',
        city: 'Please choose a city',
        language: 'Please choose at least one service language',
        price: 'Please enter a price per slot',
        description: 'Please write an introduction',
        message: 'Some fields are not valid; please check them',
      },
      ja: {
        email: 'メールアドレスを入力してください',
        password: 'パスワードを入力してください',
        name: '名前を入力してください',
        city: '都市を選んでください',
        language: '対応言語を 1 つ以上選んでください',
        price: '1枠あたりの料金を入力してください',
        description: '自己紹介を入力してください',
        message: '入力内容に誤りがあります。表示された項目を確認してください',
      },
    } as const;

    for (const locale of ['zh-TW', 'en', 'ja'] as const) {
      const m = required[locale];
      it(`names every missing field of a traveler and of a guide (${locale})`, async () => {
        const traveler = await post(registerRoute, { type: 'traveler' }, { headers: lang(locale) });
        expectApi(traveler, 400);
        expect(traveler.json).toEqual({
          success: false,
          code: 'VALIDATION_ERROR',
          message: m.message,
          errors: { email: [m.email], password: [m.password], name: [m.name] },
          requestId: traveler.headers.get('x-request-id'),
        });

        const guide = await post(registerRoute, { type: 'guide' }, { headers: lang(locale) });
        expectApi(guide, 400);
        expect(guide.json.errors).toEqual({
          email: [m.email],
          password: [m.password],
          name: [m.name],
          city: [m.city],
          language: [m.language],
          price: [m.price],
          description: [m.description],
        });
      });
    }

    it('names each broken rule: email format, password length, blank name, city, language, price, introduction', async () => {
      const traveler = await post(registerRoute, travelerBody('not-an-email', { password: '12345', name: '   ' }));
      expectApi(traveler, 400);
      expect(traveler.json.errors).toEqual({
        email: ['電子郵件格式不正確'],
        password: ['密碼至少需要 6 個字元'],
        name: ['請輸入姓名'],
      });

      const guide = await post(
        registerRoute,
        guideBody('also@bad', { email: 'a b@example.test', city: 'atlantis', language: [], price: 0, description: '  ' }),
        { headers: lang('en') },
      );
      expectApi(guide, 400);
      expect(guide.json.errors).toEqual({
        email: ['Invalid email format'],
        // An unknown city names the accepted ones (validation.cityUnknown, since f86e398).
        city: [expect.stringMatching(/^Unknown city\. Use a city code or name .*\bhualien\b/)],
        language: ['Please choose at least one service language'],
        price: ['Price must be a positive number'],
        description: ['Please write an introduction'],
      });

      for (const price of [-100, '-5', 1.5]) {
        const res = await post(registerRoute, guideBody(uniqueEmail(), { price }), { headers: lang('ja') });
        expectApi(res, 400);
        expect(res.json.errors).toEqual({ price: ['料金は正の数にしてください'] });
      }
      for (const price of ['', null]) {
        const res = await post(registerRoute, guideBody(uniqueEmail(), { price }));
        expectApi(res, 400);
        expect(res.json.errors).toEqual({ price: ['請輸入每個時段的價格'] });
      }
    });

    it('lets no one register as an admin, refuses a filled honeypot and a malformed body, and creates nothing', async () => {
      const admin = uniqueEmail('admin');
      const res = await post(registerRoute, travelerBody(admin, { type: 'admin' }));
      expectApi(res, 400);
      expect(res.json.code).toBe('VALIDATION_ERROR');
      const bot = uniqueEmail('bot');
      expectApi(await post(registerRoute, travelerBody(bot, { website: 'http://spam.example' })), 400);
      // An empty JSON body reads as {} (every field missing); a broken one is refused as such.
      const empty = await server.request(registerRoute, { method: 'POST', headers: { 'content-type': 'application/json' } });
      expectApi(empty, 400);
      expect(empty.json.code).toBe('VALIDATION_ERROR');
      const broken = await server.request(registerRoute, {
        method: 'POST',
        body: `{"type": "admin", "email": "${admin}", `,
        headers: { 'content-type': 'application/json' },
      });
      expectApi(broken, 400);
      expect(broken.json.code).toBe('VALIDATION_ERROR');
      expect(await getDb().select().from(users).where(eq(users.email, admin))).toHaveLength(0);
      expect(await getDb().select().from(users).where(eq(users.email, bot))).toHaveLength(0);
    });
  });

  describe('verify-email and resend-verification', () => {
    it(`resend-verification: at most ${RESENDS_PER_IP} a minute per client address over all addresses (429 with Retry-After), others unaffected`, async () => {
      const ip = '203.0.113.77';
      const fresh = await createTraveler({ email: uniqueEmail('resend-ip'), isEmailVerified: false, emailVerifiedAt: null });
      for (let i = 0; i < RESENDS_PER_IP; i++) expectApi(await post(resendRoute, { email: uniqueEmail('stranger') }, { ip }), 200, `request ${i + 1}`);
      // The next one is refused before anything is looked up or mailed, for a real account too.
      const refused = await post(resendRoute, { email: fresh.email }, { ip });
      expectApi(refused, 429);
      expect(refused.json.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(mailCount(mail.sink, fresh.email)).toBe(0);
      // The refused request left the address's own cooldown alone: from another client address it is mailed.
      const mailed = await mailCausedBy(mail.sink, fresh.email, async () => {
        expectApi(await post(resendRoute, { email: fresh.email }, { ip: '203.0.113.78' }), 200);
      });
      expect(codeFrom(mailed)).toMatch(/^\d{6}$/);
    });

    it('verifies with the mailed code → token and verified user; the code is single use', async () => {
      const email = uniqueEmail('verify');
      const { code } = await registerViaApi(travelerBody(email));
      const res = await post(verifyRoute, { email: email.toUpperCase(), code });
      expectApi(res, 200);
      expect(res.json.data.user).toMatchObject({ email, isEmailVerified: true });
      expect(res.json.data.user.emailVerificationDate).toBeTruthy();
      expect(decodePayload(res.json.data.token)).toMatchObject({ email, isEmailVerified: true });
      const own = await probe(res.json.data.token, res.json.data.user.id);
      expectApi(own, 200);
      expect(own.json.data.user).toMatchObject({ id: res.json.data.user.id, email, isEmailVerified: true });

      // Used again: a verified address answers exactly like a wrong code (no 409 ALREADY_VERIFIED, which
      // would tell a stranger the address has an account).
      const again = await post(verifyRoute, { email, code });
      expectApi(again, 400);
      expect(again.json.code).toBe('INVALID_CODE');
    });

    it('checks the code format (400 VALIDATION_ERROR) before looking at the code', async () => {
      const res = await post(verifyRoute, { email: '', code: '12ab' }, { headers: lang('en') });
      expectApi(res, 400);
      expect(res.json.errors).toEqual({ email: ['Email address cannot be empty'], code: ['The code must be 6 digits'] });
    });

    it('voids the code after five wrong tries: the right code is then refused', async () => {
      const email = uniqueEmail('wrong');
      const { code } = await registerViaApi(travelerBody(email));
      for (let i = 0; i < 4; i++) {
        const res = await post(verifyRoute, { email, code: wrong(code) }, { headers: lang('en') });
        expectApi(res, 400);
        expect(res.json).toMatchObject({ code: 'INVALID_CODE', message: 'Verification failed; please check the code' });
      }
      const fifth = await post(verifyRoute, { email, code: wrong(code) });
      expectApi(fifth, 400);
      expect(fifth.json).toMatchObject({ code: 'CODE_EXPIRED', message: '認證碼已失效，請重新發送' });
      const right = await post(verifyRoute, { email, code });
      expectApi(right, 400);
      expect(right.json.code).toBe('CODE_EXPIRED');
      expect(right.json.data).toBeUndefined();
      expect((await userRow(email)).isEmailVerified).toBe(false);
    });

    it('refuses an expired code', async () => {
      const email = uniqueEmail('expired');
      const { code } = await registerViaApi(travelerBody(email));
      const user = await userRow(email);
      await getDb().update(emailCodes).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(emailCodes.userId, user.id));
      const res = await post(verifyRoute, { email, code }, { headers: lang('ja') });
      expectApi(res, 400);
      expect(res.json).toMatchObject({ code: 'CODE_EXPIRED', message: 'この認証コードは無効です。再送信してください' });
      expect((await userRow(email)).isEmailVerified).toBe(false);
    });

    it('refuses a resend within 60 s (429 + Retry-After); after 60 s a new code is mailed and the old one stops working', async () => {
      const email = uniqueEmail('resend');
      const { code: first } = await registerViaApi(travelerBody(email), { headers: lang('en') });
      const before = mailCount(mail.sink, email);

      const early = await post(resendRoute, { email }, { headers: lang('en') });
      expectApi(early, 429);
      expect(early.json.code).toBe('RESEND_COOLDOWN');
      const retryAfter = Number(early.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(50);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(early.json.message).toBe(`You can send a new code in ${retryAfter} seconds`);
      expect(mailCount(mail.sink, email)).toBe(before);

      const user = await userRow(email);
      await getDb().update(emailCodes).set({ sentAt: new Date(Date.now() - 61_000) }).where(eq(emailCodes.userId, user.id));
      let res!: TestResponse;
      const second = await mailCausedBy(mail.sink, email, async () => {
        res = await post(resendRoute, { email });
      });
      expectApi(res, 200);
      expect(res.json.data).toEqual({ sent: true, cooldownSeconds: 60 });
      expect(second.subject).toContain('Travel Assistant'); // still the person's language, not the header's
      const fresh = codeFrom(second);
      expect((await codeRow(user.id))!.sentAt.getTime()).toBeGreaterThan(Date.now() - 10_000);

      if (fresh !== first) {
        const old = await post(verifyRoute, { email, code: first });
        expectApi(old, 400);
        expect(old.json.code).toBe('INVALID_CODE');
      }
      const ok = await post(verifyRoute, { email, code: fresh });
      expectApi(ok, 200);
      expect(ok.json.data.token).toBeTruthy();
      // Verified now: a resend (a minute later) is the unknown address's quiet success, and mails nothing.
      resetRateLimits();
      const sentBefore = mailCount(mail.sink, email);
      const already = await post(resendRoute, { email });
      expectApi(already, 200);
      expect(already.json).toEqual({ success: true, data: { sent: true, cooldownSeconds: 60 } });
      await new Promise((r) => setTimeout(r, 100));
      expect(mailCount(mail.sink, email)).toBe(sentBefore);
    });

    it('limits wrong codes per address: after 10 in a minute even the right code gets 429 from that IP', async () => {
      const ip = '203.0.113.150';
      const people = [];
      for (const prefix of ['guessA', 'guessB', 'guessC']) {
        const person = await createTraveler({ email: uniqueEmail(prefix), isEmailVerified: false, emailVerifiedAt: null });
        const received = await mailCausedBy(mail.sink, person.email, () => sendVerificationCode(person));
        people.push({ email: person.email, code: codeFrom(received) });
      }
      for (const { email, code } of people.slice(0, 2)) {
        for (let i = 0; i < 5; i++) expectApi(await post(verifyRoute, { email, code: wrong(code) }, { ip }), 400);
      }
      const { email, code } = people[2]!;
      const limited = await post(verifyRoute, { email, code }, { ip });
      expectApi(limited, 429);
      expectRetryAfterNearFullWindow(limited.headers);
      expect(limited.json.code).toBe('RATE_LIMIT_EXCEEDED');
      expectApi(await post(verifyRoute, { email, code }, { ip: '203.0.113.151' }), 200);
    });

    it('answers a resend for an unknown address like a known one, and mails nothing', async () => {
      const email = uniqueEmail('ghost');
      const res = await post(resendRoute, { email });
      expectApi(res, 200);
      expect(res.json).toEqual({ success: true, data: { sent: true, cooldownSeconds: 60 } });
      await new Promise((r) => setTimeout(r, 100));
      expect(mailCount(mail.sink, email)).toBe(0);
    });
  });

  describe('login and logout', () => {
    const password = 'api-pass-1';
    let user: UserRow;
    beforeAll(async () => {
      user = await createTraveler({ email: uniqueEmail('login'), passwordHash: await hashPassword(password), name: '登入者' });
    });

    it('returns data.token and data.user; the token payload names the user and the session', async () => {
      const res = await post(loginRoute, { email: `  ${user.email.toUpperCase()}  `, password });
      expectApi(res, 200);
      expect(res.json.success).toBe(true);
      expect(res.json.data.user).toMatchObject({ id: user.id, email: user.email, type: 'traveler', name: '登入者' });
      expect(res.json.data.user.lastLogin).toBeTruthy();
      expect(res.json.data.user).not.toHaveProperty('passwordHash');
      const payload = decodePayload(res.json.data.token);
      expect(payload).toMatchObject({ id: user.id, email: user.email, type: 'traveler', isEmailVerified: true, isIdVerified: false });
      const [session] = await getDb().select().from(sessions).where(eq(sessions.id, payload.sid));
      expect(session).toMatchObject({ userId: user.id, kind: 'api', revokedAt: null });
      expect(new Date(res.json.data.expiresAt).getTime()).toBe(session!.expiresAt.getTime());
      expectApi(await probe(res.json.data.token, user.id), 200);
    });

    it('answers an unknown email exactly like a wrong password, in the client language (zh-TW fallback)', async () => {
      const unknown = await post(loginRoute, { email: uniqueEmail('nobody'), password });
      const wrongPassword = await post(loginRoute, { email: user.email, password: 'nope-nope' });
      expectApi(unknown, 401);
      expect(unknown.json).toEqual({ success: false, code: 'INVALID_CREDENTIALS', message: '帳號或密碼錯誤，請重新確認', requestId: unknown.headers.get('x-request-id') });
      expect(wrongPassword.status).toBe(unknown.status);
      // The same answer but for the request's own id.
      expect({ ...wrongPassword.json, requestId: 'x' }).toEqual({ ...unknown.json, requestId: 'x' });

      const messages = {
        'en-US,en;q=0.9': 'Incorrect email or password; please check and try again',
        ja: 'メールアドレスまたはパスワードが正しくありません',
        'zh-Hant-TW': '帳號或密碼錯誤，請重新確認',
        'ko-KR,fr;q=0.8': '帳號或密碼錯誤，請重新確認',
      };
      for (const [header, message] of Object.entries(messages)) {
        const res = await post(loginRoute, { email: user.email, password: 'nope-nope' }, { headers: lang(header) });
        expect(res.json.message, header).toBe(message);
      }
    });

    it('asks for both fields (400)', async () => {
      const res = await post(loginRoute, { email: ' ', password: '' }, { headers: lang('en') });
      expectApi(res, 400);
      expect(res.json.errors).toEqual({
        email: ['Please fill in all required fields'],
        password: ['Please fill in all required fields'],
      });
    });

    it('answers 403 EMAIL_NOT_VERIFIED for an unverified account and mails a new code when the old one expired', async () => {
      const email = uniqueEmail('unverified');
      const { code: first } = await registerViaApi(travelerBody(email, { password }), { headers: lang('en') });
      const before = mailCount(mail.sink, email);

      const live = await post(loginRoute, { email, password }, { headers: lang('en') });
      expectApi(live, 403);
      expect(live.json).toMatchObject({ code: 'EMAIL_NOT_VERIFIED', message: 'Please verify your email first' });
      expect(live.json.data).toBeUndefined();
      await new Promise((r) => setTimeout(r, 100));
      expect(mailCount(mail.sink, email)).toBe(before); // the live code is still good: no new mail

      const userId = (await userRow(email)).id;
      await getDb()
        .update(emailCodes)
        .set({ expiresAt: new Date(Date.now() - 1000), sentAt: new Date(Date.now() - 16 * 60_000) })
        .where(eq(emailCodes.userId, userId));
      let res!: TestResponse;
      const received = await mailCausedBy(mail.sink, email, async () => {
        res = await post(loginRoute, { email, password });
      });
      expectApi(res, 403);
      expect(res.json.code).toBe('EMAIL_NOT_VERIFIED');
      const fresh = codeFrom(received);
      expect(received.text).toContain('valid for 15 minutes');
      if (fresh !== first) expect((await post(verifyRoute, { email, code: first })).json.code).toBe('INVALID_CODE');
      const verified = await post(verifyRoute, { email, code: fresh });
      expectApi(verified, 200);
      expectApi(await post(loginRoute, { email, password }), 200);
    });

    it('limits by account and address: after 10 failures from one IP the right password from it gets 429; the owner elsewhere gets in', async () => {
      const target = await createTraveler({ email: uniqueEmail('target'), passwordHash: await hashPassword(password) });
      const ip = '192.0.2.10';
      for (let i = 0; i < 10; i++) {
        const res = await post(loginRoute, { email: target.email, password: `bad-${i}` }, { ip });
        expectApi(res, 401);
      }
      const limited = await post(loginRoute, { email: target.email, password }, { ip, headers: lang('en') });
      expectApi(limited, 429);
      expectRetryAfterNearFullWindow(limited.headers);
      expect(limited.json).toEqual({ success: false, code: 'RATE_LIMIT_EXCEEDED', message: 'Too many requests; please try again later', requestId: limited.headers.get('x-request-id') });
      expect(limited.json.data).toBeUndefined();
      // A stranger cannot lock the owner out: from another address the right password works.
      expectApi(await post(loginRoute, { email: target.email, password }, { ip: '192.0.2.250' }), 200);
      // Another account from the same address is not affected.
      expectApi(await post(loginRoute, { email: user.email, password }, { ip }), 200);
    });

    it('limits by address: after 100 failures from one IP (many accounts) even a correct login from it gets 429; other IPs do not', async () => {
      const ip = '198.51.100.201';
      const sprayed = await Promise.all(
        Array.from({ length: LOGIN_FAILURES_PER_IP }, () => post(loginRoute, { email: uniqueEmail('spray'), password: 'guess1' }, { ip })),
      );
      expect(sprayed.map((r) => r.status)).toEqual(Array(LOGIN_FAILURES_PER_IP).fill(401));
      const limited = await post(loginRoute, { email: user.email, password }, { ip });
      expectApi(limited, 429);
      expectRetryAfterNearFullWindow(limited.headers);
      expect(limited.json.message).toBe('請求過於頻繁，請稍後再試');
      expectApi(await post(loginRoute, { email: user.email, password }, { ip: '198.51.100.202' }), 200);
    });

    it('logout revokes the session: the same token is 401 afterwards; no token is 401', async () => {
      const { json } = await post(loginRoute, { email: user.email, password });
      const token: string = json.data.token;
      const out = await post(logoutRoute, {}, { token });
      expectApi(out, 200);
      expect(out.json).toEqual({ success: true, data: { loggedOut: true } });
      const [row] = await getDb().select().from(sessions).where(eq(sessions.id, decodePayload(token).sid));
      expect(row!.revokedAt).toBeInstanceOf(Date);

      const again = await post(logoutRoute, {}, { token, headers: lang('en') });
      expectApi(again, 401);
      expect(again.json).toEqual({ success: false, code: 'UNAUTHORIZED', message: 'Please log in first', requestId: again.headers.get('x-request-id') });
      expectApi(await probe(token, user.id), 401);
      expectApi(await post(logoutRoute, {}), 401);
    });

    it('refuses a tampered or foreign token (401)', async () => {
      const { json } = await post(loginRoute, { email: user.email, password });
      const token: string = json.data.token;
      const [header, body, signature] = token.split('.') as [string, string, string];
      const forgedBody = Buffer.from(JSON.stringify({ ...decodePayload(token), type: 'admin' })).toString('base64url');
      const otherSig = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
      for (const bad of [`${header}.${forgedBody}.${signature}`, `${header}.${body}.${otherSig}`, `${header}.${body}`, 'garbage']) {
        const res = await probe(bad, user.id);
        expectApi(res, 401, bad);
        expect(res.json.code).toBe('UNAUTHORIZED');
      }
      expectApi(await probe(token, user.id), 200);
    });

    it('keeps a blocked user out, and their token stops working after revokeUserSessions (for good)', async () => {
      const blocked = await createTraveler({ email: uniqueEmail('blocked'), passwordHash: await hashPassword(password) });
      const { json } = await post(loginRoute, { email: blocked.email, password });
      const token: string = json.data.token;
      expectApi(await probe(token, blocked.id), 200);

      await getDb().update(users).set({ blockedAt: new Date() }).where(eq(users.id, blocked.id));
      await revokeUserSessions(blocked.id);
      expectApi(await probe(token, blocked.id), 401);
      const login = await post(loginRoute, { email: blocked.email, password }, { headers: lang('en') });
      expectApi(login, 403);
      expect(login.json).toMatchObject({ code: 'ACCOUNT_BLOCKED', message: 'This account has been disabled; please contact support' });
      // A wrong password still reads as wrong credentials, so blocking does not confirm the address.
      expect((await post(loginRoute, { email: blocked.email, password: 'wrong-pass' })).json.code).toBe('INVALID_CREDENTIALS');

      await getDb().update(users).set({ blockedAt: null }).where(eq(users.id, blocked.id));
      expectApi(await probe(token, blocked.id), 401);
    });
  });

  describe('methods', () => {
    it('every auth route answers POST only: GET and PUT are 405 with Allow: POST, in the envelope', async () => {
      for (const path of [registerRoute, verifyRoute, resendRoute, loginRoute, logoutRoute]) {
        for (const method of ['GET', 'PUT']) {
          const res = await server.request(path, { method, json: method === 'GET' ? undefined : {}, headers: lang('en') });
          expectApi(res, 405, `${method} ${path}`);
          expect(res.json.code).toBe('METHOD_NOT_ALLOWED');
          expect(res.headers.get('allow'), `${method} ${path}`).toBe('POST');
        }
      }
    });
  });
});
