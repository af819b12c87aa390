import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { emailCodes, users } from '~db/schema';
import * as emailVerificationRoute from '~/routes/email-verification';
import * as loginRoute from '~/routes/login';
import * as loginSuccessRoute from '~/routes/login-success';
import * as logoutRoute from '~/routes/logout';
import * as registerRoute from '~/routes/register';
import * as registerVerifyRoute from '~/routes/register_.verify';
import { hashPassword } from '~/services/passwords.server';
import { resetRateLimits } from '~/services/rate-limit.server';
import { getActiveSession } from '~/services/sessions.server';
import { findUserByEmail } from '~/services/users.server';
import { callRoute, loginAs } from '../support/api';
import { createGuide, createTraveler } from '../support/factories';
import { codeInText, outboxFor } from '../support/mail';
import { useTestDatabase } from '../support/test-database';

/**
 * The account pages' loaders and actions (register, code entry, login, login-success, logout, the email
 * banner's /email-verification) as Remix calls them: real requests, real database, mail in the dev outbox.
 */
useTestDatabase();

const ZH = { 'accept-language': 'zh-TW' };
const PASSWORD = 'secret-pass-1';

function form(values: Record<string, string | string[]>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) for (const item of [v].flat()) fd.append(k, item);
  return fd;
}

function setCookies(headers: Headers): string[] {
  return headers.getSetCookie();
}

/** The `__session=…` pair of a response, for the next request. */
function sessionPair(headers: Headers): string {
  const cookie = setCookies(headers).find((c) => c.startsWith('__session='));
  if (!cookie) throw new Error('no session cookie set');
  return cookie.split(';')[0]!;
}

async function sessionIdOf(pair: string): Promise<string | undefined> {
  const { getSession } = await import('~/http/auth.server');
  return (await getSession(new Request('http://localhost/', { headers: { cookie: pair } })))?.id;
}

async function latestCode(email: string): Promise<string> {
  const mails = await outboxFor(email);
  return codeInText(mails.at(-1)!.text);
}

beforeEach(() => resetRateLimits());

describe('register', () => {
  it('creates the account in the reader’s language, mails a code and goes to the code view', async () => {
    const email = `new-${Date.now()}@example.test`;
    const res = await callRoute(registerRoute.action, {
      path: '/register',
      headers: { 'accept-language': 'en' },
      body: form({ type: 'guide', name: 'Mei', email, password: PASSWORD, city: 'tainan', language: ['zh', 'ja'], price: '2400', description: '府城' }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/register/verify?email=${encodeURIComponent(email)}`);
    const user = await findUserByEmail(email);
    expect(user).toMatchObject({ type: 'guide', city: 'tainan', language: ['zh', 'ja'], price: 2400, locale: 'en', isEmailVerified: false });
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it('keeps the values, never the password, and reports a taken address on the email field (409)', async () => {
    const existing = await createTraveler();
    const res = await callRoute(registerRoute.action, {
      path: '/register',
      headers: ZH,
      body: form({ type: 'traveler', name: '小明', email: existing.email, password: PASSWORD, website: '' }),
    });
    expect(res.status).toBe(409);
    expect(res.json.result.error).toEqual({ email: ['errors.codes.EMAIL_TAKEN'] });
    expect(res.json.result.initialValue).toMatchObject({ name: '小明', email: existing.email });
    expect(res.json.result.initialValue.password).toBeUndefined();
  });

  it('refuses a filled honeypot and missing guide fields with 400, creating nothing', async () => {
    const email = `bot-${Date.now()}@example.test`;
    const bot = await callRoute(registerRoute.action, {
      path: '/register',
      body: form({ type: 'traveler', name: 'Bot', email, password: PASSWORD, website: 'http://spam.example' }),
    });
    expect(bot.status).toBe(400);
    const guide = await callRoute(registerRoute.action, {
      path: '/register',
      body: form({ type: 'guide', name: 'G', email, password: PASSWORD }),
    });
    expect(guide.status).toBe(400);
    expect(Object.keys(guide.json.result.error).sort()).toEqual(['city', 'description', 'language', 'price']);
    expect(await findUserByEmail(email)).toBeUndefined();
  });

  it('sends a logged-in visitor to their home instead', async () => {
    const { cookie } = await loginAs(await createGuide());
    const res = await callRoute(registerRoute.loader, { path: '/register', cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/guide');
  });
});

describe('code entry (/register/verify)', () => {
  async function registered() {
    const email = `code-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
    await callRoute(registerRoute.action, {
      path: '/register',
      body: form({ type: 'traveler', name: '阿明', email, password: PASSWORD }),
    });
    return email;
  }

  it('shows the cooldown left and refuses an early resend with 429 and Retry-After', async () => {
    const email = await registered();
    const view = await callRoute(registerVerifyRoute.loader, { path: `/register/verify?email=${encodeURIComponent(email)}` });
    expect(view.json.email).toBe(email);
    expect(view.json.cooldown).toBeGreaterThan(55);
    const res = await callRoute(registerVerifyRoute.action, {
      path: `/register/verify?email=${encodeURIComponent(email)}`,
      headers: ZH,
      body: form({ intent: 'resend', email }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(55);
    expect(res.json.result.error[''][0]).toMatch(/^請在 \d+ 秒後再重新發送$/);
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it('a wrong code is an error on the code field (cleared); the right one logs in with a new web session', async () => {
    const email = await registered();
    const code = await latestCode(email);
    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
    const refused = await callRoute(registerVerifyRoute.action, { path: '/register/verify', body: form({ intent: 'verify', email, code: wrong }) });
    expect(refused.status).toBe(400);
    expect(refused.json.result.error.code).toEqual(['errors.codes.INVALID_CODE']);
    expect(refused.json.result.initialValue.code).toBeUndefined();

    const empty = await callRoute(registerVerifyRoute.action, { path: '/register/verify', body: form({ intent: 'verify', email, code: '' }) });
    expect(empty.json.result.error.code).toEqual(['validation.codeRequired']);

    const ok = await callRoute(registerVerifyRoute.action, { path: '/register/verify', body: form({ intent: 'verify', email, code }) });
    expect(ok.status).toBe(302);
    // Finishing registration is the account's first login: "welcome", not "welcome back".
    expect(ok.headers.get('location')).toBe('/login-success?first=1');
    const sid = await sessionIdOf(sessionPair(ok.headers));
    const session = await getActiveSession(sid!);
    expect(session).toMatchObject({ kind: 'web', user: { email, isEmailVerified: true } });
    // The success message rides the toast cookie to /login-success.
    expect(setCookies(ok.headers).some((c) => c.startsWith('toast='))).toBe(true);
  });

  it('sends an already verified address to /login', async () => {
    const user = await createTraveler();
    const res = await callRoute(registerVerifyRoute.loader, { path: `/register/verify?email=${encodeURIComponent(user.email)}` });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login');
  });
});

describe('login', () => {
  async function traveler(overrides = {}) {
    return createTraveler({ passwordHash: await hashPassword(PASSWORD), ...overrides });
  }

  it('opens a new web session, ends the one the browser had, and keeps a safe redirectTo', async () => {
    const user = await traveler({ lastLogin: new Date(Date.now() - 86_400_000) });
    const before = await loginAs(user);
    const res = await callRoute(loginRoute.action, {
      path: '/login?redirectTo=%2Fme',
      cookie: before.cookie,
      body: form({ email: user.email.toUpperCase(), password: PASSWORD, redirectTo: '/me' }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login-success?redirectTo=%2Fme');
    const newId = await sessionIdOf(sessionPair(res.headers));
    expect(newId).toBeDefined();
    expect(newId).not.toBe(before.webSessionId);
    expect(await getActiveSession(before.webSessionId)).toBeUndefined();
  });

  it('ignores a redirectTo that leaves the site', async () => {
    const user = await traveler();
    const res = await callRoute(loginRoute.action, {
      path: '/login',
      body: form({ email: user.email, password: PASSWORD, redirectTo: '//evil.example/' }),
    });
    // Never logged in before: the page says "welcome" rather than "welcome back".
    expect(res.headers.get('location')).toBe('/login-success?first=1');
    const success = await callRoute(loginSuccessRoute.loader, {
      path: '/login-success?redirectTo=https%3A%2F%2Fevil.example&first=1',
      cookie: sessionPair(res.headers),
    });
    expect(success.json).toMatchObject({ name: user.name, type: 'traveler', target: '/traveler', first: true });
  });

  it('greets a first login with welcome and later ones with welcome back (issue 7)', async () => {
    const user = await traveler();
    const first = await callRoute(loginRoute.action, { path: '/login', body: form({ email: user.email, password: PASSWORD }) });
    expect(first.headers.get('location')).toBe('/login-success?first=1');
    resetRateLimits();
    const again = await callRoute(loginRoute.action, { path: '/login', body: form({ email: user.email, password: PASSWORD }) });
    expect(again.headers.get('location')).toBe('/login-success');
    const page = await callRoute(loginSuccessRoute.loader, { path: '/login-success', cookie: sessionPair(again.headers) });
    expect(page.json).toMatchObject({ first: false, type: 'traveler' });
  });

  it('empty fields: 400 with 請填寫所有必填欄位; a filled honeypot never logs in', async () => {
    const empty = await callRoute(loginRoute.action, { path: '/login', body: form({ email: '', password: '' }) });
    expect(empty.status).toBe(400);
    expect(empty.json.result.error).toEqual({ email: ['validation.requiredFields'], password: ['validation.requiredFields'] });
    const user = await traveler();
    const bot = await callRoute(loginRoute.action, { path: '/login', body: form({ email: user.email, password: PASSWORD, website: 'x' }) });
    expect(bot.status).toBe(400);
    expect(setCookies(bot.headers)).toEqual([]);
  });

  it('wrong password: 401 帳號或密碼錯誤; after 10 failures a minute (account + address): 429, Retry-After and the page’s wording', async () => {
    const user = await traveler();
    const attempt = () =>
      callRoute(loginRoute.action, { path: '/login', ip: '203.0.113.77', headers: ZH, body: form({ email: user.email, password: 'nope-nope' }) });
    const first = await attempt();
    expect(first.status).toBe(401);
    expect(first.json.result.error['']).toEqual(['帳號或密碼錯誤，請重新確認']);
    expect(first.json.result.initialValue).toMatchObject({ email: user.email });
    expect(first.json.result.initialValue.password).toBeUndefined();
    let last = first;
    for (let i = 0; i < 10 && last.status !== 429; i++) last = await attempt();
    expect(last.status).toBe(429);
    // The seconds left in the window that began with the first failure.
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(45);
    expect(Number(last.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(last.json.result.error['']).toEqual(['請求過於頻繁，請稍後再試。服務器需要一些時間來處理請求。']);
  });

  it('an unverified account gets the code view (a code is mailed) and can finish there', async () => {
    const user = await traveler({ isEmailVerified: false, emailVerifiedAt: null });
    const res = await callRoute(loginRoute.action, { path: '/login', body: form({ email: user.email, password: PASSWORD }) });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ view: 'verify', email: user.email });
    expect(res.json.cooldown).toBeGreaterThan(55);
    expect(setCookies(res.headers)).toEqual([]);
    const code = await latestCode(user.email);
    const done = await callRoute(loginRoute.action, {
      path: '/login',
      body: form({ intent: 'verify', email: user.email, code, redirectTo: '/orders' }),
    });
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe('/login-success?redirectTo=%2Forders');
    expect((await findUserByEmail(user.email))?.isEmailVerified).toBe(true);
  });
});

describe('logout', () => {
  it('POST ends the session and clears the cookie; GET changes nothing', async () => {
    const user = await createTraveler();
    const { cookie, webSessionId } = await loginAs(user);
    const get = await callRoute(logoutRoute.loader as never, { path: '/logout', cookie });
    expect(get.status).toBe(302);
    expect(get.headers.get('location')).toBe('/');
    expect(await getActiveSession(webSessionId)).toBeDefined();

    const post = await callRoute(logoutRoute.action, { path: '/logout', cookie, body: form({}) });
    expect(post.status).toBe(302);
    expect(post.headers.get('location')).toBe('/logout-success');
    expect(setCookies(post.headers).find((c) => c.startsWith('__session='))).toMatch(/Max-Age=0/i);
    expect(await getActiveSession(webSessionId)).toBeUndefined();
  });
});

describe('email banner (/email-verification)', () => {
  async function unverified() {
    const user = await createTraveler({ isEmailVerified: false, emailVerifiedAt: null });
    return { user, ...(await loginAs(user)) };
  }

  it('sends a code to the person’s own address, then refuses another within 60 s', async () => {
    const { user, cookie } = await unverified();
    const sent = await callRoute(emailVerificationRoute.action, {
      path: '/email-verification',
      cookie,
      headers: ZH,
      body: form({ intent: 'send', redirectTo: '/guides', email: 'someone-else@example.test' }),
    });
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ intent: 'send', sent: true, email: user.email });
    expect(await outboxFor(user.email)).toHaveLength(1);
    expect(await outboxFor('someone-else@example.test')).toHaveLength(0);

    const again = await callRoute(emailVerificationRoute.action, { path: '/email-verification', cookie, headers: ZH, body: form({ intent: 'send' }) });
    expect(again.status).toBe(429);
    expect(again.json.sendError).toMatch(/^請在 \d+ 秒後再重新發送$/);
  });

  it('checks a code: empty → 請輸入認證碼, wrong → the server message, right → verified and back with a toast', async () => {
    const { user, cookie } = await unverified();
    await callRoute(emailVerificationRoute.action, { path: '/email-verification', cookie, body: form({ intent: 'send' }) });
    const code = await latestCode(user.email);

    const empty = await callRoute(emailVerificationRoute.action, { path: '/email-verification', cookie, headers: ZH, body: form({ intent: 'verify', code: '' }) });
    expect(empty.status).toBe(400);
    expect(empty.json.codeError).toBe('請輸入認證碼');

    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
    const refused = await callRoute(emailVerificationRoute.action, { path: '/email-verification', cookie, headers: ZH, body: form({ intent: 'verify', code: wrong }) });
    expect(refused.status).toBe(400);
    expect(refused.json.codeError).toBe('認證失敗，請檢查認證碼是否正確');

    const ok = await callRoute(emailVerificationRoute.action, {
      path: '/email-verification',
      cookie,
      body: form({ intent: 'verify', code, redirectTo: '/guides?page=2' }),
    });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/guides?page=2');
    expect(setCookies(ok.headers).some((c) => c.startsWith('toast='))).toBe(true);
    const [row] = await getDb().select().from(users).where(eq(users.id, user.id));
    expect(row!.isEmailVerified).toBe(true);
    expect(await getDb().select().from(emailCodes).where(eq(emailCodes.userId, user.id))).toHaveLength(0);
  });

  it('dismiss sets a session cookie (no Max-Age) and goes back to a same-site page only', async () => {
    const { cookie } = await unverified();
    const res = await callRoute(emailVerificationRoute.action, {
      path: '/email-verification',
      cookie,
      body: form({ intent: 'dismiss', redirectTo: 'https://evil.example/' }),
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    const set = setCookies(res.headers);
    expect(set).toHaveLength(1);
    expect(set[0]).toMatch(/^email-banner-dismissed=1; Path=\/; SameSite=Lax$/);
  });

  it('needs a login', async () => {
    const res = await callRoute(emailVerificationRoute.action, { path: '/email-verification', body: form({ intent: 'send' }) });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
  });
});
