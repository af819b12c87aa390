import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { emailCodes, users } from '~db/schema';
import { hashPassword } from '~/services/accounts/passwords.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { getActiveSession } from '~/services/accounts/sessions.server';
import { findUserByEmail } from '~/services/accounts/users.server';
import { loginAs } from '../support/api';
import { createGuide, createTraveler } from '~server/seed/factories';
import { useTestServer } from '../support/http-server';
import { codeInText, outboxFor } from '../support/mail';
import { useTestDatabase } from '../support/test-database';

/**
 * The account pages (register, code entry, login, login-success, logout, the email banner's
 * /email-verification) as a browser with JS off uses them: real HTTP requests to the real server, form
 * posts to the page URL, statuses and headers read off the response, the page read off its HTML; real
 * database, mail in the dev outbox.
 */
useTestDatabase();
const server = useTestServer();

const ZH = { 'accept-language': 'zh-TW' };
const PASSWORD = 'secret-pass-1';

/** A urlencoded form body (repeated names for lists), as a browser sends it. */
function form(values: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const item of [v].flat()) params.append(k, item);
  return params.toString();
}

/** A browser with JS off submitting a form of this site to `path` (Origin is always sent on a POST). */
function submit(
  path: string,
  values: Record<string, string | string[]>,
  options: { cookie?: string; headers?: Record<string, string>; ip?: string } = {},
) {
  return server.request(path, {
    method: 'POST',
    origin: server.baseUrl,
    cookie: options.cookie,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...options.headers,
      ...(options.ip ? { 'x-forwarded-for': options.ip } : {}),
    },
    body: form(values),
  });
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

/** Every cookie a response sets, as one Cookie header for the next request. */
function cookiesOf(headers: Headers): string {
  return setCookies(headers)
    .map((c) => c.split(';')[0]!)
    .join('; ');
}

async function sessionIdOf(pair: string): Promise<string | undefined> {
  const { getSession } = await import('~/http/session.server');
  return (await getSession(new Request('http://localhost/', { headers: { cookie: pair } })))?.id;
}

async function latestCode(email: string): Promise<string> {
  const mails = await outboxFor(email);
  return codeInText(mails.at(-1)!.text);
}

// --- Reading the HTML a browser gets -------------------------------------------------------------------

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]!);
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The `<form id="…">…</form>` of a page. */
function formById(html: string, id: string): string {
  const match = new RegExp(`<form\\b[^>]*\\bid="${id}"[^>]*>[\\s\\S]*?</form>`).exec(html);
  if (!match) throw new Error(`no form #${id} in the page`);
  return match[0];
}

/** The `<input>` tags named `name`. */
function inputsNamed(html: string, name: string): string[] {
  return [...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).filter((tag) => tag.includes(` name="${name}"`));
}

/** The one `<input name="…">` of this fragment. */
function inputNamed(html: string, name: string): string {
  const tags = inputsNamed(html, name);
  if (tags.length !== 1) throw new Error(`expected one input named ${name}, found ${tags.length}`);
  return tags[0]!;
}

/** An attribute of a tag (decoded), or undefined when the tag has none. */
function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decode(match[1]!) : undefined;
}

/** The text of the element with this id (a leaf element: no tags inside). */
function textOf(html: string, id: string): string | undefined {
  const match = new RegExp(`\\bid="${id}"[^>]*>([^<]*)<`).exec(html);
  return match ? decode(match[1]!) : undefined;
}

/** The ids of every field error shown (`<p class="field-error" id="…">`). */
function fieldErrorIds(html: string): string[] {
  return [...html.matchAll(/<p class="field-error" id="([^"]+)"/g)].map((m) => m[1]!);
}

/** The seconds in the no-JS cooldown line of the code view ("N 秒後可重新發送驗證碼"). */
function cooldownShown(html: string): number | undefined {
  const match = /(\d+) 秒後可重新發送驗證碼/.exec(html);
  return match ? Number(match[1]) : undefined;
}

/** The `<h1>` of a page. */
function heading(html: string): string | undefined {
  const match = /<h1\b[^>]*>([^<]*)<\/h1>/.exec(html);
  return match ? decode(match[1]!) : undefined;
}

beforeEach(() => resetRateLimits());

describe('register', () => {
  it('creates the account in the reader’s language, mails a code and goes to the code view', async () => {
    const email = `new-${Date.now()}@example.test`;
    const res = await submit(
      '/register',
      { type: 'guide', name: 'Mei', email, password: PASSWORD, city: 'tainan', language: ['zh', 'ja'], price: '2400', description: '府城', agreeToTerms: 'on' },
      { headers: { 'accept-language': 'en' } },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/register/verify?email=${encodeURIComponent(email)}`);
    const user = await findUserByEmail(email);
    expect(user).toMatchObject({ type: 'guide', city: 'tainan', language: ['zh', 'ja'], price: 2400, locale: 'en', isEmailVerified: false });
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it('keeps the values, never the password, and reports a taken address on the email field (409)', async () => {
    const existing = await createTraveler();
    const res = await submit('/register', { type: 'traveler', name: '小明 & <co>', email: existing.email, password: PASSWORD, website: '', agreeToTerms: 'on' }, { headers: ZH });
    expect(res.status).toBe(409);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = formById(res.text, 'register');
    expect(fieldErrorIds(page)).toEqual(['register-email-error']);
    expect(textOf(page, 'register-email-error')).toBe('此電子郵件已被註冊');
    const email = inputNamed(page, 'email');
    expect(attr(email, 'aria-invalid')).toBe('true');
    expect(attr(email, 'aria-describedby')).toBe('register-email-error');
    expect(attr(email, 'value')).toBe(existing.email);
    expect(attr(inputNamed(page, 'name'), 'value')).toBe('小明 & <co>');
    expect(attr(inputNamed(page, 'password'), 'value')).toBeUndefined();
    expect(res.text).not.toContain(PASSWORD);
  });

  it('refuses a filled honeypot and missing guide fields with 400, creating nothing', async () => {
    const email = `bot-${Date.now()}@example.test`;
    const bot = await submit('/register', { type: 'traveler', name: 'Bot', email, password: PASSWORD, website: 'http://spam.example', agreeToTerms: 'on' }, { headers: ZH });
    expect(bot.status).toBe(400);
    expect(formById(bot.text, 'register')).toContain('<p class="form-error" role="alert">註冊失敗</p>');

    const guide = await submit('/register', { type: 'guide', name: 'G', email, password: PASSWORD, agreeToTerms: 'on' }, { headers: ZH });
    expect(guide.status).toBe(400);
    const page = formById(guide.text, 'register');
    expect(fieldErrorIds(page).sort()).toEqual(['register-city-error', 'register-description-error', 'register-language-error', 'register-price-error']);
    // The guide choice and the values typed so far stay in the form.
    expect(attr(inputsNamed(page, 'type').find((tag) => tag.includes('value="guide"'))!, 'checked')).toBe('');
    expect(attr(inputNamed(page, 'name'), 'value')).toBe('G');
    expect(attr(inputNamed(page, 'email'), 'value')).toBe(email);
    expect(await findUserByEmail(email)).toBeUndefined();
  });

  it('sends a logged-in visitor to their home instead', async () => {
    const { cookie } = await loginAs(await createGuide());
    const res = await server.request('/register', { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/guide');
  });
});

describe('code entry (/register/verify)', () => {
  const verifyPath = (email: string) => `/register/verify?email=${encodeURIComponent(email)}`;

  async function registered() {
    const email = `code-${Date.now()}-${Math.random().toString(36).slice(2, 6)}@example.test`;
    const res = await submit('/register', { type: 'traveler', name: '阿明', email, password: PASSWORD, agreeToTerms: 'on' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(verifyPath(email));
    return email;
  }

  it('shows the cooldown left and refuses an early resend with 429 and Retry-After', async () => {
    const email = await registered();
    const view = await server.request(verifyPath(email), { headers: ZH });
    expect(view.status).toBe(200);
    const page = formById(view.text, 'email-code');
    expect(attr(page, 'action')).toBe(verifyPath(email));
    expect(attr(inputNamed(page, 'email'), 'value')).toBe(email);
    expect(cooldownShown(page), 'cooldown shown').toBeGreaterThan(55);

    const res = await submit(verifyPath(email), { intent: 'resend', email }, { headers: ZH });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after')), 'Retry-After').toBeGreaterThan(55);
    expect(textOf(formById(res.text, 'email-code'), 'email-code-error')).toMatch(/^請在 \d+ 秒後再重新發送$/);
    expect(await outboxFor(email)).toHaveLength(1);
  });

  it('a wrong code is an error on the code field (cleared); the right one logs in with a new web session', async () => {
    const email = await registered();
    const code = await latestCode(email);
    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
    const refused = await submit(verifyPath(email), { intent: 'verify', email, code: wrong }, { headers: ZH });
    expect(refused.status).toBe(400);
    let page = formById(refused.text, 'email-code');
    expect(fieldErrorIds(page)).toEqual(['email-code-code-error']);
    expect(textOf(page, 'email-code-code-error')).toBe('認證失敗，請檢查認證碼是否正確');
    expect(attr(inputNamed(page, 'code'), 'value')).toBe('');
    expect(attr(inputNamed(page, 'code'), 'aria-invalid')).toBe('true');
    expect(attr(inputNamed(page, 'email'), 'value')).toBe(email);

    const empty = await submit(verifyPath(email), { intent: 'verify', email, code: '' }, { headers: ZH });
    expect(empty.status).toBe(400);
    page = formById(empty.text, 'email-code');
    expect(textOf(page, 'email-code-code-error')).toBe('請輸入完整的6位數驗證碼');

    const ok = await submit(verifyPath(email), { intent: 'verify', email, code }, { headers: ZH });
    expect(ok.status).toBe(302);
    // Finishing the registration is the account's first login: "welcome", not "welcome back".
    expect(ok.headers.get('location')).toBe('/login-success?first=1');
    const sid = await sessionIdOf(sessionPair(ok.headers));
    const session = await getActiveSession(sid!);
    expect(session).toMatchObject({ kind: 'web', user: { email, isEmailVerified: true } });
    // The success message rides the toast cookie to /login-success, where the page shows it.
    expect(setCookies(ok.headers).some((c) => c.startsWith('toast='))).toBe(true);
    const success = await server.request(ok.headers.get('location')!, { cookie: cookiesOf(ok.headers), headers: ZH });
    expect(success.status).toBe(200);
    expect(heading(success.text)).toBe('歡迎，阿明！');
    expect(success.text).toMatch(/<div class="toast toast-success" role="status">驗證成功！正在完成註冊\.\.\.<\/div>/);
  });

  it('sends an already verified address to /login', async () => {
    const user = await createTraveler();
    const res = await server.request(verifyPath(user.email));
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
    const res = await submit('/login?redirectTo=%2Fme', { email: user.email.toUpperCase(), password: PASSWORD, redirectTo: '/me' }, { cookie: before.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login-success?redirectTo=%2Fme');
    const newId = await sessionIdOf(sessionPair(res.headers));
    expect(newId).toBeDefined();
    expect(newId).not.toBe(before.webSessionId);
    expect(await getActiveSession(before.webSessionId)).toBeUndefined();
  });

  it('ignores a redirectTo that leaves the site', async () => {
    const user = await traveler();
    const res = await submit('/login', { email: user.email, password: PASSWORD, redirectTo: '//evil.example/' });
    expect(res.status).toBe(302);
    // Never logged in before: the page says "welcome" rather than "welcome back".
    expect(res.headers.get('location')).toBe('/login-success?first=1');
    const success = await server.request('/login-success?redirectTo=https%3A%2F%2Fevil.example&first=1', {
      cookie: sessionPair(res.headers),
      headers: ZH,
    });
    expect(success.status).toBe(200);
    expect(heading(success.text)).toBe(`歡迎，${user.name}！`);
    expect(success.text).toMatch(/<meta http-equiv="refresh" content="[\d.]+;url=\/traveler"/);
    expect(success.text).toContain('<a class="button" data-discover="true" href="/traveler">');
    // Where the page sends the browser: the meta refresh and every link (the preference forms carry the
    // current URL as their own redirectTo, which the preferences action checks again).
    const targets = [...success.text.matchAll(/(?:url=|href=")([^"]*)/g)].map((m) => m[1]!);
    expect(targets.filter((t) => t.includes('evil')), targets.join(' ')).toEqual([]);
  });

  it('greets a first login with welcome and later ones with welcome back (issue 7)', async () => {
    const user = await traveler();
    const first = await submit('/login', { email: user.email, password: PASSWORD });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/login-success?first=1');
    resetRateLimits();
    const again = await submit('/login', { email: user.email, password: PASSWORD });
    expect(again.status).toBe(302);
    expect(again.headers.get('location')).toBe('/login-success');
    const page = await server.request('/login-success', { cookie: sessionPair(again.headers), headers: ZH });
    expect(page.status).toBe(200);
    expect(heading(page.text)).toBe(`歡迎回來，${user.name}！`);
  });

  it('empty fields: 400 with 請填寫所有必填欄位; a filled honeypot never logs in', async () => {
    const empty = await submit('/login', { email: '', password: '' }, { headers: ZH });
    expect(empty.status).toBe(400);
    const page = formById(empty.text, 'login');
    // One message for both fields, shown once and pointed at by each.
    expect(textOf(page, 'login-field-errors')).toBe('請填寫所有必填欄位');
    expect(page.split('請填寫所有必填欄位')).toHaveLength(2);
    for (const name of ['email', 'password']) {
      expect(attr(inputNamed(page, name), 'aria-invalid'), name).toBe('true');
      expect(attr(inputNamed(page, name), 'aria-describedby'), name).toBe('login-field-errors');
    }
    const user = await traveler();
    const bot = await submit('/login', { email: user.email, password: PASSWORD, website: 'x' }, { headers: ZH });
    expect(bot.status).toBe(400);
    expect(setCookies(bot.headers)).toEqual([]);
    expect(formById(bot.text, 'login')).toContain('<p class="form-error" role="alert">登入失敗</p>');
  });

  it('wrong password: 401 帳號或密碼錯誤; after 10 failures a minute (account + address): 429, Retry-After and the page’s wording', async () => {
    const user = await traveler();
    const attempt = () => submit('/login', { email: user.email, password: 'nope-nope' }, { ip: '203.0.113.77', headers: ZH });
    const first = await attempt();
    expect(first.status).toBe(401);
    let page = formById(first.text, 'login');
    expect(textOf(page, 'login-error')).toBe('帳號或密碼錯誤，請重新確認');
    expect(attr(inputNamed(page, 'email'), 'value')).toBe(user.email);
    expect(attr(inputNamed(page, 'password'), 'value')).toBeUndefined();
    expect(first.text).not.toContain('nope-nope');
    let last = first;
    for (let i = 0; i < 10 && last.status !== 429; i++) last = await attempt();
    expect(last.status).toBe(429);
    // The seconds left in the window that began with the first failure.
    expect(Number(last.headers.get('retry-after'))).toBeGreaterThanOrEqual(45);
    expect(Number(last.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    page = formById(last.text, 'login');
    expect(textOf(page, 'login-error')).toBe('請求過於頻繁，請稍後再試。服務器需要一些時間來處理請求。');
    expect(attr(inputNamed(page, 'email'), 'value')).toBe(user.email);
  });

  it('an unverified account gets the code view (a code is mailed) and can finish there', async () => {
    const user = await traveler({ isEmailVerified: false, emailVerifiedAt: null });
    const res = await submit('/login?redirectTo=%2Forders', { email: user.email, password: PASSWORD, redirectTo: '/orders' }, { headers: ZH });
    expect(res.status).toBe(200);
    expect(setCookies(res.headers)).toEqual([]);
    expect(res.text).toContain('您的電子郵件尚未完成驗證，請輸入寄到電子郵件的驗證碼。');
    const page = formById(res.text, 'email-code');
    expect(attr(inputNamed(page, 'email'), 'value')).toBe(user.email);
    // The page's redirectTo rides along with the code.
    expect(attr(inputNamed(page, 'redirectTo'), 'value')).toBe('/orders');
    expect(cooldownShown(page), 'cooldown shown').toBeGreaterThan(55);
    expect(page).toContain('href="/login"');

    const code = await latestCode(user.email);
    const done = await submit(attr(page, 'action')!, { intent: 'verify', email: user.email, code, redirectTo: '/orders' });
    expect(done.status).toBe(302);
    // The account's first login: "welcome", not "welcome back".
    expect(done.headers.get('location')).toBe('/login-success?redirectTo=%2Forders&first=1');
    expect((await findUserByEmail(user.email))?.isEmailVerified).toBe(true);
  });
});

describe('logout', () => {
  it('POST ends the session and clears the cookie; GET changes nothing', async () => {
    const user = await createTraveler();
    const { cookie, webSessionId } = await loginAs(user);
    const get = await server.request('/logout', { cookie });
    expect(get.status).toBe(302);
    expect(get.headers.get('location')).toBe('/');
    expect(await getActiveSession(webSessionId)).toBeDefined();

    const post = await submit('/logout', {}, { cookie });
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
    const sent = await submit(
      '/email-verification',
      { intent: 'send', redirectTo: '/guides', email: 'someone-else@example.test' },
      { cookie, headers: ZH },
    );
    expect(sent.status).toBe(200);
    expect(sent.text).toContain(`<p class="email-sent" role="status">認證碼已發送到 ${escapeHtml(user.email)}</p>`);
    expect(sent.text).not.toContain('someone-else@example.test');
    // Both forms keep the page the banner was on.
    expect(inputsNamed(sent.text, 'redirectTo').filter((tag) => attr(tag, 'value') === '/guides')).toHaveLength(2);
    expect(await outboxFor(user.email)).toHaveLength(1);
    expect(await outboxFor('someone-else@example.test')).toHaveLength(0);

    const again = await submit('/email-verification', { intent: 'send' }, { cookie, headers: ZH });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(50);
    const error = /<p class="field-error" role="alert">([^<]*)<\/p>/.exec(again.text);
    expect(error?.[1]).toMatch(/^請在 \d+ 秒後再重新發送$/);
    expect(await outboxFor(user.email)).toHaveLength(1);
  });

  it('checks a code: empty → 請輸入認證碼, wrong → the server message, right → verified and back with a toast', async () => {
    const { user, cookie } = await unverified();
    expect((await submit('/email-verification', { intent: 'send' }, { cookie })).status).toBe(200);
    const code = await latestCode(user.email);

    const empty = await submit('/email-verification', { intent: 'verify', code: '' }, { cookie, headers: ZH });
    expect(empty.status).toBe(400);
    expect(textOf(empty.text, 'email-page-code-error')).toBe('請輸入認證碼');
    expect(attr(inputNamed(empty.text, 'code'), 'aria-invalid')).toBe('true');

    const wrong = `${(Number(code[0]) + 1) % 10}${code.slice(1)}`;
    const refused = await submit('/email-verification', { intent: 'verify', code: wrong }, { cookie, headers: ZH });
    expect(refused.status).toBe(400);
    expect(textOf(refused.text, 'email-page-code-error')).toBe('認證失敗，請檢查認證碼是否正確');

    const ok = await submit('/email-verification', { intent: 'verify', code, redirectTo: '/guides?sort=price_asc' }, { cookie, headers: ZH });
    expect(ok.status).toBe(302);
    expect(ok.headers.get('location')).toBe('/guides?sort=price_asc');
    expect(setCookies(ok.headers).some((c) => c.startsWith('toast='))).toBe(true);
    const back = await server.request('/guides?sort=price_asc', { cookie: `${cookie}; ${cookiesOf(ok.headers)}`, headers: ZH });
    expect(back.text).toMatch(/<div class="toast toast-success" role="status">電子郵件認證成功！<\/div>/);
    const [row] = await getDb().select().from(users).where(eq(users.id, user.id));
    expect(row!.isEmailVerified).toBe(true);
    expect(await getDb().select().from(emailCodes).where(eq(emailCodes.userId, user.id))).toHaveLength(0);
  });

  it('dismiss sets a session cookie (no Max-Age) and goes back to a same-site page only', async () => {
    const { cookie } = await unverified();
    const res = await submit('/email-verification', { intent: 'dismiss', redirectTo: 'https://evil.example/' }, { cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/');
    const set = setCookies(res.headers);
    expect(set).toHaveLength(1);
    expect(set[0]).toMatch(/^email-banner-dismissed=1; Path=\/; SameSite=Lax$/);
  });

  it('needs a login', async () => {
    const res = await submit('/email-verification', { intent: 'send' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
  });
});
