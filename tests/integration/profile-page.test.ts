import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInTaipei } from '~/lib/dates';
import * as me from '~/routes/me+/_index';
import { findUserById, type UserRow } from '~/services/accounts/users.server';
import { callRoute, loginAs } from '../support/api';
import {
  createAvailability,
  createCompletedOrder,
  createGuide,
  createOrder,
  createPhoto,
  createReview,
  createTraveler,
  createUser,
} from '~server/seed/factories';
import { useTestServer } from '../support/http-server';
import { outboxFor } from '../support/mail';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The profile page /me (SPEC §2 Profile) over real HTTP, as a browser with JS off: who gets in, which tab
 * shows, what the cards say, and the edit form's answers (statuses and headers off the response, messages
 * and kept values off the HTML).
 */
useTestDatabase();
const server = useTestServer();

const ZH = { 'accept-language': 'zh-TW' };

/** The edit form's fields as FormData, for the route's action called directly (the email-change test). */
function form(values: Record<string, string | string[]>) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(values)) for (const item of [v].flat()) fd.append(k, item);
  return fd;
}

const save = (cookie: string, body: FormData) =>
  callRoute(me.action, { method: 'POST', path: '/me?edit=1', cookie, body, headers: ZH });

/** GET a page as this browser (zh-TW). */
const page = (cookie: string | undefined, path = '/me') => server.request(path, { cookie, headers: ZH });

/** The edit form at /me?edit=1 submitted with JS off (urlencoded, repeated names for lists). */
function submit(cookie: string | undefined, values: Record<string, string | string[]>) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const item of [v].flat()) body.append(k, item);
  return server.request('/me?edit=1', {
    method: 'POST',
    origin: server.baseUrl,
    cookie,
    headers: { ...ZH, 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
}

function guideValues(guide: UserRow, overrides: Record<string, string | string[]> = {}) {
  return {
    intent: 'save',
    name: guide.name,
    email: guide.email,
    bio: guide.bio ?? '',
    city: guide.city ?? '',
    language: guide.language,
    price: String(guide.price ?? ''),
    description: guide.description ?? '',
    ...overrides,
  };
}

// --- Reading the HTML a browser gets -------------------------------------------------------------------

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" };
const decode = (text: string) => text.replace(/&(amp|lt|gt|quot|#x27|#39);/g, (_, e: string) => ENTITIES[e]!);
/** Text without tags (React's `<!-- -->` separators included), decoded and trimmed. */
const plain = (html: string) => decode(html.replace(/<[^>]*>/g, '')).trim();

/** The `<section aria-labelledby="…">` (a card or panel) of the page, or undefined. */
function section(html: string, labelledBy: string): string | undefined {
  return new RegExp(`<section\\b[^>]*aria-labelledby="${labelledBy}"[^>]*>[\\s\\S]*?</section>`).exec(html)?.[0];
}

/** The `<dt>` → `<dd>` texts of a fragment. */
function definitions(html: string): Record<string, string> {
  return Object.fromEntries([...html.matchAll(/<dt>([^<]*)<\/dt><dd[^>]*>([\s\S]*?)<\/dd>/g)].map((m) => [decode(m[1]!), plain(m[2]!)]));
}

/** The tab row: which tab is the current page, and the count each tab shows. */
function tabs(html: string): { active?: string; counts: Record<string, number | undefined> } {
  const nav = /<nav class="profile-tabs[^"]*"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1];
  if (!nav) throw new Error('no tab row in the page');
  const links = [...nav.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)].map((m) => ({
    tab: /href="\/me\?tab=(\w+)"/.exec(m[1]!)![1]!,
    current: m[1]!.includes('aria-current="page"'),
    count: /<span class="tab-count">(\d+)<\/span>/.exec(m[2]!)?.[1],
  }));
  return {
    active: links.find((l) => l.current)?.tab,
    counts: Object.fromEntries(links.map((l) => [l.tab, l.count === undefined ? undefined : Number(l.count)])),
  };
}

/** The edit form (`<form id="profile-edit">`), or undefined when the page is not editing. */
const editForm = (html: string) => /<form\b[^>]*\bid="profile-edit"[^>]*>[\s\S]*?<\/form>/.exec(html)?.[0];

/** The `<input>` tags named `name`. */
const inputsNamed = (html: string, name: string) =>
  [...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).filter((tag) => tag.includes(` name="${name}"`));

/** An attribute of a tag (decoded), or undefined when the tag has none. */
function attr(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decode(match[1]!) : undefined;
}

/** The value the form shows for a field: input value, textarea text, selected option or checked boxes. */
function shown(html: string, name: string): string | string[] | undefined {
  const textarea = new RegExp(`<textarea\\b[^>]*\\bname="${name}"[^>]*>([\\s\\S]*?)</textarea>`).exec(html);
  if (textarea) return decode(textarea[1]!).trim();
  const select = new RegExp(`<select\\b[^>]*\\bname="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(html);
  if (select) return attr(/<option\b[^>]*\bselected=""[^>]*>/.exec(select[1]!)?.[0] ?? '', 'value');
  const inputs = inputsNamed(html, name);
  if (inputs.length === 1 && attr(inputs[0]!, 'type') !== 'checkbox') return attr(inputs[0]!, 'value');
  return inputs.filter((tag) => tag.includes(' checked=""')).map((tag) => attr(tag, 'value')!);
}

/** The text of the element with this id (a leaf element: no tags inside), or undefined. */
function textOf(html: string, id: string): string | undefined {
  const match = new RegExp(`\\bid="${id}"[^>]*>([^<]*)<`).exec(html);
  return match ? decode(match[1]!) : undefined;
}

/** The field errors of the edit form, by field name. */
function fieldErrors(html: string): Record<string, string> {
  return Object.fromEntries(
    [...html.matchAll(/<p class="field-error" id="profile-edit-(\w+)-error">([^<]*)<\/p>/g)].map((m) => [m[1]!, decode(m[2]!)]),
  );
}

describe(`/me loader (${testDriver})`, () => {
  let guide: UserRow;
  let traveler: UserRow;
  let admin: UserRow;

  beforeAll(async () => {
    guide = await createGuide({ name: '林導遊' });
    traveler = await createTraveler({ name: '陳旅客' });
    admin = await createUser({ type: 'admin', name: '管理員' });
    const today = todayInTaipei();
    const done = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, totalPrice: 2400, date: addDays(today, -2) });
    await createOrder({ travelerId: traveler.id, guideId: guide.id, totalPrice: 1800, status: 'confirmed' });
    await createReview({ orderId: done.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 4 });
    await createAvailability(guide.id, { from: today, days: 3, price: 1500, slots: ['morning', 'evening'] });
    await createAvailability(guide.id, { from: addDays(today, 61), days: 2, price: 1500 }); // beyond the 60-day window
    await createPhoto(guide.id, { status: 'approved' });
    await createPhoto(guide.id, { status: 'pending_review' });
    await createPhoto(guide.id, { status: 'pending_review' });
  });

  it('sends logged-out visitors to /login, coming back to /me afterwards', async () => {
    const res = await page(undefined);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login?redirectTo=%2Fme');
  });

  it('gives a guide their profile, tabs data and the guide cards', async () => {
    const { cookie } = await loginAs(guide);
    const res = await page(cookie);
    expect(res.status).toBe(200);
    const html = res.text;
    expect(tabs(html).active).toBe('profile');
    expect(editForm(html)).toBeUndefined();
    expect(html).toContain('<a class="button" data-discover="true" href="/me?edit=1">');
    expect(textOf(html, 'profile-name')).toBe('林導遊');
    expect(html).toContain('<li class="badge badge-role">導遊</li>');
    expect(definitions(section(html, 'profile-details-title')!)).toMatchObject({ 帳號類型: '導遊', 服務地區: '台北' });
    // Nothing of the password reaches the page, neither the markup nor the data it was rendered from.
    expect(html).not.toContain('passwordHash');
    expect(html).not.toContain('$argon2');
    // Orders: 2; reviews: the 1 received (a guide gives none).
    expect(tabs(html).counts).toEqual({ profile: undefined, orders: 2, reviews: 1, earnings: undefined });
    const stats = definitions(section(html, 'stats-card')!);
    expect(stats).toMatchObject({ 總訂單數: '2', 已完成訂單: '1', 收到的評價: '1', 服務時數: '3 小時' /* one morning */, 預約狀態: '開放預約中' });
    // The stars are drawn by the stylesheet; the text is the figure.
    expect(stats['平均評分']).toMatch(/(^| )4\.0$/);
    expect(section(html, 'id-verification-card')).toMatch(/^<section class="[^"]*\bid-verified\b/);
    expect(plain(section(html, 'availability-card')!)).toContain('未來 60 天有 6 個可預約時段');
    // The gallery (issue 11): each photo with its status label.
    const gallery = plain(section(html, 'photos-card')!);
    expect(gallery.match(/已通過/g)).toHaveLength(1);
    expect(gallery.match(/審核中/g)).toHaveLength(2);

    // The tabs behind the counts: the newest order first, the review received, the earnings.
    const orders = section((await page(cookie, '/me?tab=orders')).text, 'orders-title')!;
    const items = [...orders.matchAll(/<li class="order-item">([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    expect(items).toHaveLength(2);
    expect(items[0]).toContain('<span class="status-pill status-confirmed">');
    expect(plain(items[0]!)).toContain('旅客：陳旅客');
    const reviews = (await page(cookie, '/me?tab=reviews')).text;
    expect(/<h2 id="reviews-received-title">[\s\S]*?<span class="tab-count">(\d+)<\/span>/.exec(reviews)?.[1]).toBe('1');
    const earnings = definitions(section((await page(cookie, '/me?tab=earnings')).text, 'earnings-title')!);
    // Earnings are the ledger's (issue 32): these orders were made without payments, so no money moved for them
    // (tests/integration/guide-earnings.test.ts follows money through every state); the spec's counts still count them.
    expect(earnings).toEqual({
      總收入: 'NT$0',
      已完成訂單: '1',
      平均每筆訂單: 'NT$0',
      總訂單數: '2',
      待出團: 'NT$0',
      待撥款: 'NT$0下次撥款：NT$0',
      轉帳中: 'NT$0',
      已撥款: 'NT$0',
    });
  });

  it('picks the tab from ?tab=, falling back to the profile for unknown tabs and earnings of non-guides', async () => {
    const guideCookie = (await loginAs(guide)).cookie;
    const travelerCookie = (await loginAs(traveler)).cookie;
    // The current tab, and the panel shown under it.
    const panels = { profile: 'profile-details-title', orders: 'orders-title', reviews: 'reviews-received-title', earnings: 'earnings-title' };
    const tabOf = async (cookie: string, path: string) => {
      const res = await page(cookie, path);
      expect(res.status, path).toBe(200);
      const active = tabs(res.text).active as keyof typeof panels;
      expect(res.text, path).toContain(`id="${panels[active]}"`);
      return active;
    };
    expect(await tabOf(guideCookie, '/me?tab=orders')).toBe('orders');
    expect(await tabOf(guideCookie, '/me?tab=reviews')).toBe('reviews');
    expect(await tabOf(guideCookie, '/me?tab=earnings')).toBe('earnings');
    expect(await tabOf(guideCookie, '/me?tab=nonsense')).toBe('profile');
    expect(await tabOf(travelerCookie, '/me?tab=earnings')).toBe('profile');
    expect(await tabOf(travelerCookie, '/me?tab=reviews')).toBe('reviews');
    const editing = await page(travelerCookie, '/me?edit=1&tab=orders');
    expect(editing.status).toBe(200);
    expect(editForm(editing.text)).toBeDefined();
    expect(tabs(editing.text).active).toBe('profile');
  });

  it('gives travelers no guide data, and admins no verification card', async () => {
    const t = (await page((await loginAs(traveler)).cookie)).text;
    expect(tabs(t).counts).not.toHaveProperty('earnings');
    expect(section(t, 'availability-card')).toBeUndefined();
    expect(section(t, 'photos-card')).toBeUndefined();
    expect(section(t, 'id-verification-card')).toMatch(/^<section class="[^"]*\bid-not_verified\b/);
    expect(definitions(section(t, 'stats-card')!)).toMatchObject({ 預約次數: '2', 收藏的導遊: '0', 給出的評價: '1' });
    const a = (await page((await loginAs(admin)).cookie)).text;
    expect(section(a, 'id-verification-card')).toBeUndefined();
    expect(tabs(a).counts).not.toHaveProperty('earnings');
    expect(a).toContain('<li class="badge badge-admin">');
  });
});

describe(`/me review figures (${testDriver})`, () => {
  it("a guide's review count is the same on the reviews tab and the stats card, hidden and given ones alike (issue 19)", async () => {
    const guide = await createGuide({ name: '數字導遊' });
    const travelers = [await createTraveler(), await createTraveler(), await createTraveler()];
    for (const [i, traveler] of travelers.entries()) {
      const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
      // Three travelers review the guide (one review hidden by an admin); the guide reviews two of them.
      await createReview({ orderId: order.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 5, isHidden: i === 2, hiddenReason: i === 2 ? '不當' : null });
      if (i < 2) await createReview({ orderId: order.id, reviewerId: guide.id, revieweeId: traveler.id, role: 'guide', rating: 4 });
    }
    const html = (await page((await loginAs(guide)).cookie, '/me?tab=reviews')).text;
    const card = definitions(section(html, 'stats-card')!);
    expect(card).toMatchObject({ 收到的評價: '2', 給出的評價: '2' });
    expect(tabs(html).counts.reviews).toBe(4);
    expect(/id="reviews-received-title">[\s\S]*?<span class="tab-count">(\d+)/.exec(html)?.[1]).toBe('2');
    expect(/id="reviews-given-title">[\s\S]*?<span class="tab-count">(\d+)/.exec(html)?.[1]).toBe('2');
  });
});

describe(`/me action (${testDriver})`, () => {
  it('saves the profile and redirects to /me with a toast', async () => {
    const traveler = await createTraveler({ name: '舊名字' });
    const { cookie } = await loginAs(traveler);
    const res = await submit(cookie, { intent: 'save', name: '新名字', email: traveler.email, bio: '愛吃小吃' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/me');
    const set = res.headers.getSetCookie();
    expect(set.some((c) => c.startsWith('toast='))).toBe(true);
    const after = await findUserById(traveler.id);
    expect(after).toMatchObject({ name: '新名字', bio: '愛吃小吃', isEmailVerified: true });
    // The next page shows the toast.
    const toast = set.map((c) => c.split(';')[0]!).find((c) => c.startsWith('toast='))!;
    const next = await page(`${cookie}; ${toast}`);
    expect(next.text).toMatch(/<div class="toast toast-success" role="status">個人資料已更新<\/div>/);
  });

  it('answers a bad guide form with 400, the messages and every typed value, and saves nothing', async () => {
    const guide = await createGuide({ price: 2000, description: '原本的介紹' });
    const { cookie } = await loginAs(guide);
    const res = await submit(cookie, guideValues(guide, { name: '打了新名字', price: '', description: '', bio: '新的簡介' }));
    expect(res.status).toBe(400);
    const edit = editForm(res.text)!;
    expect(edit).toBeDefined();
    expect(textOf(edit, 'profile-edit-error')).toBe('所有欄位都必須填寫');
    expect(fieldErrors(edit)).toEqual({ price: '請輸入每個時段的價格', description: '請輸入自我介紹' });
    expect(shown(edit, 'name')).toBe('打了新名字');
    expect(shown(edit, 'bio')).toBe('新的簡介');
    expect(shown(edit, 'city')).toBe('taipei');
    expect(shown(edit, 'language')).toEqual(['zh', 'en']);
    const after = await findUserById(guide.id);
    expect(after).toMatchObject({ name: guide.name, price: 2000, description: '原本的介紹' });
  });

  it('a guide saves a headline and English and Japanese texts from the form (issue 9), shown again on edit', async () => {
    const guide = await createGuide({ description: '原本的介紹' });
    const { cookie } = await loginAs(guide);
    const res = await submit(
      cookie,
      guideValues(guide, { headline: '老城說書人', headlineEn: 'Old town storyteller', descriptionEn: 'Walks through old Taipei.', descriptionJa: '台北の下町を歩きます。' }),
    );
    expect(res.status).toBe(302);
    const after = await findUserById(guide.id);
    expect(after).toMatchObject({
      headline: '老城說書人',
      localized: { en: { headline: 'Old town storyteller', description: 'Walks through old Taipei.' }, ja: { description: '台北の下町を歩きます。' } },
    });
    expect(after!.searchText).toContain('storyteller');
    const edit = editForm((await page(cookie, '/me?edit=1')).text)!;
    expect(shown(edit, 'headlineEn')).toBe('Old town storyteller');
    expect(shown(edit, 'descriptionJa')).toBe('台北の下町を歩きます。');
  });

  it('refuses prices that are not above 0 with the positive-price message', async () => {
    const guide = await createGuide({ price: 2000 });
    const { cookie } = await loginAs(guide);
    for (const price of ['0', '-5', 'abc']) {
      const res = await submit(cookie, guideValues(guide, { price }));
      expect(res.status, price).toBe(400);
      const edit = editForm(res.text)!;
      expect(fieldErrors(edit), price).toEqual({ price: '價格必須為正數' });
      expect(textOf(edit, 'profile-edit-error'), price).toBeUndefined();
      expect(shown(edit, 'price'), price).toBe(price);
    }
    expect((await findUserById(guide.id))!.price).toBe(2000);
  });

  it('puts a taken email on the email field (409) and keeps the values', async () => {
    const other = await createTraveler();
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);
    const res = await submit(cookie, { intent: 'save', name: '想改名', email: other.email });
    expect(res.status).toBe(409);
    const edit = editForm(res.text)!;
    expect(fieldErrors(edit)).toEqual({ email: '此電子郵件已被註冊' });
    expect(attr(inputsNamed(edit, 'email')[0]!, 'aria-invalid')).toBe('true');
    expect(shown(edit, 'name')).toBe('想改名');
    expect(shown(edit, 'email')).toBe(other.email);
    expect((await findUserById(traveler.id))!.name).toBe(traveler.name);
  });

  it('keeps the verified address when the email changes: the new one waits for its code (issue 7)', async () => {
    const traveler = await createTraveler();
    const { cookie } = await loginAs(traveler);
    const email = `changed-${Date.now().toString(36)}@example.test`;
    const res = await save(cookie, form({ intent: 'save', name: traveler.name, email }));
    expect(res.status).toBe(302);
    expect((await findUserById(traveler.id))!).toMatchObject({ email: traveler.email, pendingEmail: email, isEmailVerified: true });
    expect(await outboxFor(email)).toHaveLength(1);
    expect(await outboxFor(traveler.email)).toHaveLength(0);
  });

  it('needs a login and a known intent', async () => {
    const anonymous = await submit(undefined, { intent: 'save', name: 'x', email: 'x@example.test' });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get('location')).toMatch(/^\/login\?redirectTo=/);
    const { cookie } = await loginAs(await createTraveler());
    const unknown = await submit(cookie, { intent: 'delete-everything' });
    expect(unknown.status).toBe(400);
    expect(unknown.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
