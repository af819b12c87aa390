import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayInTaipei } from '~/lib/dates';
import { loginAs } from '../../support/api';
import {
  createAvailability,
  createCompletedOrder,
  createGuide,
  createOrder,
  createReview,
  createTraveler,
  createUser,
} from '~server/seed/factories';
import { useTestServer } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** Guide search, suggestions, detail and the profile API over real HTTP (issue 9), against a set with known answers. */
useTestDatabase();
const server = useTestServer();

const ids: Record<string, number> = {};
const day = addDays(todayInTaipei(), 3);

async function review(guideId: number, rating: number) {
  const traveler = await createTraveler();
  // Each order a past day of its own (the factory's): a completed tour keeps its slot.
  const order = await createCompletedOrder({ travelerId: traveler.id, guideId });
  await createReview({ orderId: order.id, reviewerId: traveler.id, revieweeId: guideId, role: 'traveler', rating });
}

const reg = (d: number) => new Date(Date.UTC(2025, 0, d));

beforeAll(async () => {
  const a = await createGuide({ name: '陳台北', city: 'taipei', language: ['zh', 'en'], price: 1500, description: '夜市美食導覽', registerDate: reg(1) });
  const b = await createGuide({
    name: 'Alice Wang',
    city: 'taipei',
    language: ['en', 'ja'],
    price: 3000,
    bio: 'photographer',
    description: 'Photography walk, 100% fun_',
    registerDate: reg(2),
  });
  const c = await createGuide({ name: '林花蓮', city: 'hualien', language: ['zh'], price: 2000, bio: '臺灣東部的山', description: '太魯閣 步道', registerDate: reg(3) });
  const d = await createGuide({ name: '王高雄', city: 'kaohsiung', language: ['zh', 'ja'], price: 2000, description: 'ＡＢＣ全形 tour', registerDate: reg(4) });
  const e = await createGuide({ name: '臺南小吃', city: 'tainan', language: ['zh'], price: 1200, description: '小吃', registerDate: reg(5), isIdVerified: false });
  Object.assign(ids, { a: a.id, b: b.id, c: c.id, d: d.id, e: e.id });
  // Never listed.
  const hidden = {
    unverified: await createGuide({ name: '未驗證台北', isEmailVerified: false }),
    blocked: await createGuide({ name: '封鎖台北', blockedAt: new Date() }),
    archived: await createGuide({ name: '封存台北', deletedAt: new Date() }),
    suspended: await createGuide({ name: '停權台北', guideStatus: 'suspended' }),
    inactive: await createGuide({ name: '停用台北', status: 'suspended' }),
    noPrice: await createGuide({ name: '無價台北', price: null }),
    noDescription: await createGuide({ name: '無介紹台北', description: null }),
    noLanguage: await createGuide({ name: '無語言台北', language: [] }),
    traveler: await createTraveler({ name: '旅客台北', city: 'taipei' }),
  };
  for (const [k, v] of Object.entries(hidden)) ids[k] = v.id;

  await review(a.id, 5);
  await review(a.id, 5);
  await review(b.id, 4);
  await review(c.id, 3);

  // On `day`: A has an open morning; B's afternoon is booked; C's evening is switched off.
  await createAvailability(a.id, { from: day, days: 1, price: 1500, slots: ['morning'] });
  await createAvailability(b.id, { from: day, days: 1, price: 3000, slots: ['afternoon'] });
  await createOrder({ travelerId: hidden.traveler.id, guideId: b.id, date: day, timeSlot: 'afternoon', status: 'pending' });
  await createAvailability(c.id, { from: day, days: 1, price: 2000, slots: ['evening'], isAvailable: () => false });
});

const names = (body: { data: { guides: { name: string }[] } }) => body.data.guides.map((g) => g.name);
async function search(query: string) {
  const response = await server.request(`/api/v1/guides?${query}`);
  expect(response.status, `${query}: ${response.text.slice(0, 300)}`).toBe(200);
  return response;
}
async function found(query: string) {
  return names((await search(query)).json);
}

const A = '陳台北';
const B = 'Alice Wang';
const C = '林花蓮';
const D = '王高雄';
const E = '臺南小吃';

describe(`GET /api/v1/guides (${testDriver})`, () => {
  it('lists only publishable guides, newest first, in the documented shape', async () => {
    const response = await search('');
    expect(names(response.json)).toEqual([E, D, C, B, A]);
    expect(response.json.data.pagination).toEqual({ page: 1, limit: 10, total: 5, totalPages: 1, hasNext: false, hasPrev: false });
    await expectContract(server, 'GET', '/api/v1/guides', response);
  });

  it('filters by city (code or name), language, price range and minimum rating', async () => {
    expect(await found('city=taipei')).toEqual([B, A]);
    expect(await found(`city=${encodeURIComponent('臺北市')}`)).toEqual([B, A]);
    expect(await found('language=ja')).toEqual([D, B]);
    expect(await found(`language=${encodeURIComponent('日本語')}`)).toEqual([D, B]);
    expect(await found('minPrice=2000')).toEqual([D, C, B]);
    expect(await found('maxPrice=1500')).toEqual([E, A]);
    expect(await found('minPrice=1500&maxPrice=2000')).toEqual([D, C, A]);
    expect(await found('minRating=4')).toEqual([B, A]);
    expect(await found('city=taipei&language=zh&maxPrice=2000&minRating=4.5')).toEqual([A]);
  });

  it('filters by a day with an open, unbooked slot, and by its time slot', async () => {
    expect(await found(`date=${day}`)).toEqual([A]);
    expect(await found(`date=${day}&timeSlot=morning`)).toEqual([A]);
    expect(await found(`date=${day}&timeSlot=afternoon`)).toEqual([]);
    expect(await found(`date=${addDays(day, 1)}`)).toEqual([]);
  });

  it('sorts six ways, ties broken by id', async () => {
    expect(await found('sort=oldest')).toEqual([A, B, C, D, E]);
    expect(await found('sort=price_asc')).toEqual([E, A, C, D, B]);
    expect(await found('sort=price_desc')).toEqual([B, C, D, A, E]);
    expect(await found('sort=rating_desc')).toEqual([A, B, C, D, E]);
    expect(await found('sort=rating_asc')).toEqual([C, B, A, D, E]);
    expect(await found('sort=newest')).toEqual([E, D, C, B, A]);
  });

  it('matches keywords in names, bios, descriptions and city names, whatever the spelling', async () => {
    expect(await found(`keyword=${encodeURIComponent('台北')}`)).toEqual([B, A]);
    expect(await found(`keyword=${encodeURIComponent('臺北')}`)).toEqual([B, A]);
    expect(await found('keyword=TAIPEI')).toEqual([B, A]);
    expect(await found(`keyword=${encodeURIComponent('タイペイ')}`)).toEqual([B, A]);
    expect(await found(`keyword=${encodeURIComponent('台灣')}`)).toEqual([C]);
    expect(await found(`keyword=${encodeURIComponent('台南')}`)).toEqual([E]);
    expect(await found(`keyword=${encodeURIComponent('ａｂｃ')}`)).toEqual([D]);
    expect(await found('keyword=abc')).toEqual([D]);
    expect(await found(`keyword=${encodeURIComponent('Ｐｈｏｔｏｇｒａｐｈｙ　WALK')}`)).toEqual([B]);
    expect(await found(`keyword=${encodeURIComponent('美食')}`)).toEqual([A]);
    expect(await found(`keyword=${encodeURIComponent('花蓮')}&city=hualien`)).toEqual([C]);
    // Two characters (served by the bigram index), alone, with a longer word, and beside a wildcard character.
    expect(await found('keyword=ab')).toEqual([D]);
    expect(await found(`keyword=${encodeURIComponent('台北 photography')}`)).toEqual([B]);
    expect(await found(`keyword=${encodeURIComponent('0%')}`)).toEqual([B]);
    expect(await found(`keyword=${encodeURIComponent('0_')}`)).toEqual([]);
  });

  it('takes %, _ and \\ literally', async () => {
    expect(await found(`keyword=${encodeURIComponent('%')}`)).toEqual([B]);
    expect(await found(`keyword=${encodeURIComponent('100%')}`)).toEqual([B]);
    expect(await found('keyword=_')).toEqual([B]);
    expect(await found(`keyword=${encodeURIComponent('\\')}`)).toEqual([]);
    expect(await found(`keyword=${encodeURIComponent('a%e')}`)).toEqual([]);
  });

  it('pages: last page, past the end (empty, true totalPages), limit clamped to 100', async () => {
    const last = await search('limit=2&page=3&sort=oldest');
    expect(names(last.json)).toEqual([E]);
    expect(last.json.data.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true });
    const second = await search('limit=2&page=2&sort=oldest');
    expect(names(second.json)).toEqual([C, D]);
    const beyond = await search('limit=2&page=9');
    expect(beyond.json.data.guides).toEqual([]);
    expect(beyond.json.data.pagination).toMatchObject({ page: 9, totalPages: 3, hasNext: false, hasPrev: true });
    expect((await search('limit=100')).json.data.pagination.limit).toBe(100);
    expect((await search('limit=500')).json.data.pagination.limit).toBe(100);
  });

  it('counts the whole match on every page of a keyword search, and 0 when nothing matches', async () => {
    // The page and its total come from one query; walking it page by page must give each match once.
    const walked: string[] = [];
    for (let page = 1; page <= 4; page++) {
      const response = await search(`keyword=${encodeURIComponent('台')}&sort=rating_desc&limit=1&page=${page}`);
      expect(response.json.data.pagination).toMatchObject({ page, limit: 1, total: 4, totalPages: 4 });
      walked.push(...names(response.json));
    }
    // 台 is in 台北 (A, B: the city's names), 臺灣 (C's bio) and 臺南 (E).
    expect(walked).toEqual([A, B, C, E]);
    const beyond = await search(`keyword=${encodeURIComponent('台')}&minPrice=1500&limit=1&page=7`);
    expect(beyond.json.data.guides).toEqual([]);
    expect(beyond.json.data.pagination).toMatchObject({ page: 7, total: 3, totalPages: 3 });
    const none = await search(`keyword=${encodeURIComponent('不存在的詞')}`);
    expect(none.json.data.pagination).toEqual({ page: 1, limit: 10, total: 0, totalPages: 1, hasNext: false, hasPrev: false });
  });

  it('refuses values it cannot use, naming the field', async () => {
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['page=abc', 'page'],
      ['sort=cheapest', 'sort'],
      ['city=atlantis', 'city'],
      ['date=2025-02-30', 'date'],
      ['minPrice=3000&maxPrice=1000', 'maxPrice'],
      ['minRating=6', 'minRating'],
    ] as const) {
      const response = await server.request(`/api/v1/guides?${query}`, { headers: { 'accept-language': 'en' } });
      expect(response.status, query).toBe(400);
      expect(response.json.code).toBe('VALIDATION_ERROR');
      expect(Object.keys(response.json.errors ?? {}), query).toContain(field);
    }
  });
});

describe(`GET /api/v1/guides/suggestions (${testDriver})`, () => {
  it('a blank query gives nothing', async () => {
    for (const q of ['', 'query=', 'query=%20%20']) {
      const response = await server.request(`/api/v1/guides/suggestions?${q}`);
      expect(response.status).toBe(200);
      expect(response.json.data.suggestions).toEqual([]);
    }
  });

  it('suggests guide names and cities, by type', async () => {
    const all = await server.request(`/api/v1/guides/suggestions?query=${encodeURIComponent('花蓮')}`, { headers: { 'accept-language': 'en' } });
    expect(all.json.data.suggestions).toEqual([
      { type: 'city', id: 'hualien', value: expect.any(String), label: expect.stringMatching(/Hualien/) },
      { type: 'guide', id: ids.c, value: C, label: expect.stringContaining(C) },
    ]);
    await expectContract(server, 'GET', '/api/v1/guides/suggestions', all);
    const cities = await server.request(`/api/v1/guides/suggestions?type=city&query=${encodeURIComponent('台')}`);
    expect(cities.json.data.suggestions.every((s: { type: string }) => s.type === 'city')).toBe(true);
    expect(cities.json.data.suggestions.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining(['taipei', 'taichung', 'tainan', 'taitung']));
    const guides = await server.request(`/api/v1/guides/suggestions?type=guide&query=${encodeURIComponent('臺北')}`);
    // The hidden 台北 guides are never suggested; 陳台北's name matches 臺北.
    expect(guides.json.data.suggestions.map((s: { value: string }) => s.value)).toEqual([A]);
    const limited = await server.request(`/api/v1/guides/suggestions?type=city&query=t&limit=2`);
    expect(limited.json.data.suggestions).toHaveLength(2);
  });
});

describe(`guide detail (${testDriver})`, () => {
  it('answers a publishable guide with open days, distribution and reviews', async () => {
    const response = await server.request(`/api/v1/guides/${ids.a}`);
    expect(response.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/guides/{id}', response);
    expect(response.json.data.guide).toMatchObject({ name: A, averageRating: 5, reviewCount: 2, isIdVerified: true, nextAvailable: day });
    expect(response.json.data.openDays).toEqual([{ date: day, slots: [{ id: expect.any(Number), timeSlot: 'morning', price: 1500 }] }]);
    expect(response.json.data.ratingDistribution[0]).toEqual({ stars: 5, count: 2 });
    expect(response.json.data.reviews).toHaveLength(2);
    // B's only slot is booked: not bookable.
    expect((await server.request(`/api/v1/guides/${ids.b}`)).json.data.guide.nextAvailable).toBeNull();
  });

  it('a traveler, an unknown id or an unpublishable guide is 404 on the API and the page', async () => {
    const hidden = ['unverified', 'blocked', 'archived', 'suspended', 'inactive', 'noPrice', 'noDescription', 'noLanguage', 'traveler'];
    for (const key of [...hidden.map((k) => String(ids[k])), '99999', 'abc']) {
      const api = await server.request(`/api/v1/guides/${key}`);
      expect(api.status, key).toBe(404);
      if (/^\d+$/.test(key) && Number(key) < 99999) expect(api.json.code).toBe('GUIDE_NOT_FOUND');
      expect((await server.request(`/guides/${key}`)).status, key).toBe(404);
      expect((await server.request(`/guide/${key}`)).status, key).toBe(404);
    }
  });

  it('the page has the book action, og tags and a canonical URL', async () => {
    const page = await server.request(`/guides/${ids.a}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/booking/${ids.a}"`);
    expect(page.text).toMatch(/<meta property="og:title" content="陳台北[^"]*"/);
    expect(page.text).toMatch(/<meta property="og:image" content="http[^"]+"/);
    expect(page.text).toMatch(new RegExp(`<link rel="canonical" href="http[^"]+/guides/${ids.a}"`));
    expect(page.text).toContain('name="intent" value="toggle"');
  });
});

describe(`/guides page (${testDriver})`, () => {
  it('reads the same parameters, and a page past the end redirects to the last page', async () => {
    const page = await server.request('/guides?city=taipei&sort=price_asc');
    expect(page.status).toBe(200);
    expect(page.text.indexOf(A)).toBeLessThan(page.text.indexOf(B));
    expect(page.text).not.toContain(C);
    const past = await server.request('/guides?city=taipei&limit=1&page=99', { redirect: 'manual' });
    expect(past.status).toBe(302);
    expect(past.headers.get('location')).toBe('/guides?city=taipei&page=2&limit=1');
    const none = await server.request('/guides?keyword=nothing-like-this&page=3', { redirect: 'manual' });
    expect(none.headers.get('location')).toBe('/guides?keyword=nothing-like-this');
  });

  it('no results: names the filters to loosen and links to a cleared search', async () => {
    const page = await server.request('/guides?city=penghu&maxPrice=100&sort=price_asc', { headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('No guides match your search.');
    expect(page.text).toContain('Try loosening these filters: area, maximum price.');
    expect(page.text).toContain('href="/guides?sort=price_asc"');
  });

  it('a value it cannot use is left out with a message, and shown as typed', async () => {
    const page = await server.request('/guides?minPrice=3000&maxPrice=1000', { headers: { 'accept-language': 'en' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('The maximum price cannot be below the minimum price');
    expect(page.text).toMatch(/name="maxPrice"[^>]*value="1000"|value="1000"[^>]*name="maxPrice"/);
  });
});

describe(`search history (${testDriver})`, () => {
  it('keeps the last 20 searches per person, newest first, without duplicates', async () => {
    const alice = await loginAs(await createTraveler());
    const bob = await loginAs(await createTraveler());
    const history = async (cookie: string) => {
      const response = await server.request('/guides.data', { cookie });
      expect(response.status).toBe(200);
      return response.text;
    };
    await server.request('/guides?city=taipei', { cookie: alice.cookie });
    await server.request('/guides?keyword=abc', { cookie: alice.cookie });
    await server.request('/guides?city=taipei&sort=price_asc', { cookie: alice.cookie }); // the same search, sorted
    const text = await history(alice.cookie);
    const cityAt = text.indexOf('"city=taipei"');
    const keywordAt = text.indexOf('"keyword=abc"');
    expect(cityAt).toBeGreaterThan(-1);
    expect(keywordAt).toBeGreaterThan(cityAt); // taipei again: moved to the top
    expect(text.split('"city=taipei"').length - 1).toBe(1);
    expect(await history(bob.cookie)).not.toContain('city=taipei');

    for (let i = 0; i < 25; i++) await server.request(`/guides?minPrice=${100 + i}`, { cookie: alice.cookie });
    const full = await history(alice.cookie);
    expect(full.match(/"minPrice=\d+"/g)).toHaveLength(20);
    expect(full).toContain('"minPrice=124"');
    expect(full).not.toContain('"minPrice=104"');
    expect(full).not.toContain('"keyword=abc"');

    const cleared = await server.request('/guides', {
      method: 'POST',
      cookie: alice.cookie,
      body: new URLSearchParams({ intent: 'clearHistory' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      redirect: 'manual',
    });
    expect(cleared.status).toBe(302);
    expect(await history(alice.cookie)).not.toContain('minPrice=');
  });
});

describe(`PUT /api/v1/guides/{id}/profile (${testDriver})`, () => {
  const body = {
    city: '花蓮',
    language: ['zh', 'en'],
    price: 2600,
    description: '帶你走太魯閣。',
    headline: '太魯閣步道專家',
    headlineEn: 'Taroko trail expert',
    descriptionEn: 'I walk you through Taroko Gorge.',
  };

  it('the guide or an admin saves it; readers get their language or the 中文 text with a note', async () => {
    const guide = await createGuide({ name: '翻譯導遊', city: 'yilan' });
    const { token } = await loginAs(guide);
    const saved = await server.request(`/api/v1/guides/${guide.id}/profile`, { method: 'PUT', token, json: body });
    expect(saved.status, saved.text).toBe(200);
    await expectContract(server, 'PUT', '/api/v1/guides/{id}/profile', saved);
    expect(saved.json.data.user).toMatchObject({ city: 'hualien', price: 2600, headline: '太魯閣步道專家', localized: { en: { headline: 'Taroko trail expert' } } });

    const en = await server.request(`/api/v1/guides/${guide.id}`, { headers: { 'accept-language': 'en' } });
    expect(en.json.data.guide).toMatchObject({ headline: 'Taroko trail expert', description: 'I walk you through Taroko Gorge.', writtenIn: null });
    const ja = await server.request(`/api/v1/guides/${guide.id}`, { headers: { 'accept-language': 'ja' } });
    expect(ja.json.data.guide).toMatchObject({ headline: '太魯閣步道專家', description: '帶你走太魯閣。', writtenIn: 'zh-TW' });
    const jaPage = await server.request(`/guides/${guide.id}`, { headers: { 'accept-language': 'ja' } });
    expect(jaPage.text).toContain('中国語で記載');
    // The new texts are searchable at once.
    expect(await found('keyword=gorge')).toEqual(['翻譯導遊']);

    const admin = await loginAs(await createUser({ type: 'admin' }));
    const byAdmin = await server.request(`/api/v1/guides/${guide.id}/profile`, { method: 'PUT', token: admin.token, json: { ...body, price: 2700 } });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.json.data.user.price).toBe(2700);
  });

  it('anyone else is refused; bad fields are named; a non-guide is GUIDE_NOT_FOUND', async () => {
    const guide = await createGuide();
    const other = await loginAs(await createGuide());
    const traveler = await loginAs(await createTraveler());
    expect((await server.request(`/api/v1/guides/${guide.id}/profile`, { method: 'PUT', json: body })).status).toBe(401);
    expect((await server.request(`/api/v1/guides/${guide.id}/profile`, { method: 'PUT', token: other.token, json: body })).status).toBe(403);
    expect((await server.request(`/api/v1/guides/${guide.id}/profile`, { method: 'PUT', token: traveler.token, json: body })).status).toBe(403);
    const own = await loginAs(guide);
    const bad = await server.request(`/api/v1/guides/${guide.id}/profile`, { method: 'PUT', token: own.token, json: { ...body, price: 0, description: '' } });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.json.errors)).toEqual(expect.arrayContaining(['price', 'description']));
    const admin = await loginAs(await createUser({ type: 'admin' }));
    const travelerId = (await createTraveler()).id;
    const notGuide = await server.request(`/api/v1/guides/${travelerId}/profile`, { method: 'PUT', token: admin.token, json: body });
    expect(notGuide.status).toBe(404);
    expect(notGuide.json.code).toBe('GUIDE_NOT_FOUND');
  });
});
