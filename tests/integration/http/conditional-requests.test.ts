import { describe, expect, it } from 'vitest';
import { SHARED_CACHE } from '~/http/contract';
import { updateGuideProfile } from '~/services/accounts/guide-profile.server';
import type { GuideProfileUpdate } from '~/schemas/guide-profile';
import { createGuide, createOrder, createTraveler } from '~server/seed/factories';
import { loginAs } from '../../support/api';
import { useTestServer, type TestResponse } from '../../support/http-server';
import { openApiDocument } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 33, conditional GETs (docs/decisions/043-conditional-requests.md): an ETag on JSON reads and pages, 304 with
 * no body on If-None-Match, Cache-Control public only for an anonymous catalogue read, Vary. Real HTTP.
 */
useTestDatabase();
const server = useTestServer();

const ZH = { 'accept-language': 'zh-TW' };

function expectNotModified(response: TestResponse, etag: string) {
  expect(response.status).toBe(304);
  expect(response.text).toBe('');
  expect(response.headers.get('etag')).toBe(etag);
  expect(response.headers.get('content-length') ?? '0').toBe('0');
  expect(response.headers.get('content-type')).toBeNull();
}

async function changeProfile(guide: Awaited<ReturnType<typeof createGuide>>, description: string) {
  const input = { city: guide.city, language: guide.language, price: guide.price, maxGroupSize: guide.maxGroupSize, description };
  await updateGuideProfile(guide, guide.id, input as GuideProfileUpdate);
}

describe(`conditional GETs (${testDriver})`, () => {
  it('an anonymous catalogue list: ETag, public for a minute, 304 with no body on a repeat; HEAD too; a POST is never 304', async () => {
    await createGuide();
    const first = await server.request('/api/v1/guides', { headers: ZH });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{27}"$/);
    expect(first.headers.get('cache-control')).toBe(SHARED_CACHE);
    expect(first.headers.get('vary')).toMatch(/Accept-Language, Authorization, Cookie/);

    expectNotModified(await server.request('/api/v1/guides', { headers: { ...ZH, 'if-none-match': etag } }), etag);
    const repeat = await server.request('/api/v1/guides', { headers: { ...ZH, 'if-none-match': etag } });
    expect(repeat.headers.get('cache-control')).toBe(SHARED_CACHE);
    expect(repeat.headers.get('vary')).toMatch(/Accept-Language/);
    // A list of tags, the strong form of ours (weak comparison), and `*` all match; another tag does not.
    expect((await server.request('/api/v1/guides', { headers: { ...ZH, 'if-none-match': `"x", ${etag.slice(2)}` } })).status).toBe(304);
    expect((await server.request('/api/v1/guides', { headers: { ...ZH, 'if-none-match': '*' } })).status).toBe(304);
    expect((await server.request('/api/v1/guides', { headers: { ...ZH, 'if-none-match': 'W/"other"' } })).status).toBe(200);

    const head = await server.request('/api/v1/guides', { method: 'HEAD', headers: ZH });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    expect(head.text).toBe('');
    expectNotModified(await server.request('/api/v1/guides', { method: 'HEAD', headers: { ...ZH, 'if-none-match': etag } }), etag);

    // Another language is another answer, with another tag.
    const ja = await server.request('/api/v1/guides', { headers: { 'accept-language': 'ja' } });
    expect(ja.headers.get('etag')).not.toBe(etag);

    // A write is never answered 304, whatever it sends; its answer is never kept.
    const { token } = await loginAs(await createTraveler());
    const post = await server.request('/api/v1/favorites', { token, json: { guideId: 999_999 }, headers: { 'if-none-match': '*' } });
    expect(post.status).not.toBe(304);
    expect(post.headers.get('etag')).toBeNull();
    expect(post.headers.get('cache-control')).toBe('no-store');
  });

  it('the same list asked with a login is private; a logged-in read (orders) is 304 on a repeat, per user', async () => {
    const guide = await createGuide();
    const traveler = await createTraveler();
    await createOrder({ travelerId: traveler.id, guideId: guide.id });
    const { token } = await loginAs(traveler);
    const list = await server.request('/api/v1/guides', { token });
    expect(list.headers.get('cache-control')).toBe('private, no-cache');

    const orders = await server.request('/api/v1/orders', { token });
    expect(orders.status).toBe(200);
    const etag = orders.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(orders.headers.get('cache-control')).toBe('private, no-cache');
    expect(orders.headers.get('vary')).toContain('Authorization');
    expectNotModified(await server.request('/api/v1/orders', { token, headers: { 'if-none-match': etag } }), etag);

    // Someone else's (empty) list never matches the tag of this one.
    const other = await loginAs(await createTraveler());
    expect((await server.request('/api/v1/orders', { token: other.token, headers: { 'if-none-match': etag } })).status).toBe(200);
    // An account's own record is never kept anywhere (and admin calls never are).
    expect((await server.request(`/api/v1/users/${traveler.id}`, { token })).headers.get('cache-control')).toBe('no-store');
  });

  it('a changed guide is never served stale: the old tag gets 200 with the new data, on the API and the page', async () => {
    const guide = await createGuide({ description: '舊的介紹：我帶大家走遍台北的老街與夜市，也熟悉各地的小吃。' });
    const first = await server.request(`/api/v1/guides/${guide.id}`, { headers: ZH });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toMatch(/max-age=60\b/);
    const page = await server.request(`/guides/${guide.id}`, { headers: ZH });
    expect(page.status).toBe(200);
    const pageTag = page.headers.get('etag')!;
    expect(pageTag).toBeTruthy();
    expect(page.headers.get('cache-control')).toBe(SHARED_CACHE);
    expect(page.headers.get('vary')).toMatch(/Accept-Language, Cookie/);
    // Nothing changed: the page (new CSP nonce and all) is still the same to its tag, and the 304 keeps its old policy.
    const samePage = await server.request(`/guides/${guide.id}`, { headers: { ...ZH, 'if-none-match': pageTag } });
    expectNotModified(samePage, pageTag);
    expect(samePage.headers.get('content-security-policy')).toBeNull();

    await changeProfile(guide, '新的介紹：現在也帶九份與平溪的一日遊，歡迎詢問行程細節。');
    const after = await server.request(`/api/v1/guides/${guide.id}`, { headers: { ...ZH, 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.text).toContain('新的介紹');
    const pageAfter = await server.request(`/guides/${guide.id}`, { headers: { ...ZH, 'if-none-match': pageTag } });
    expect(pageAfter.status).toBe(200);
    expect(pageAfter.headers.get('etag')).not.toBe(pageTag);
    expect(pageAfter.text).toContain('新的介紹');
  });

  it('pages: a public page is 304 on a repeat; logged in it is private, no-store; another language, another tag', async () => {
    await createGuide();
    const list = await server.request('/guides', { headers: ZH });
    expect(list.status).toBe(200);
    const etag = list.headers.get('etag')!;
    expect(list.headers.get('cache-control')).toBe(SHARED_CACHE);
    expectNotModified(await server.request('/guides', { headers: { ...ZH, 'if-none-match': etag } }), etag);
    const en = await server.request('/guides', { headers: { 'accept-language': 'en' } });
    expect(en.headers.get('etag')).not.toBe(etag);
    // Another anonymous page may be kept by the service worker, but is asked again each time.
    expect((await server.request('/terms', { headers: ZH })).headers.get('cache-control')).toBe('no-cache');

    const { cookie } = await loginAs(await createTraveler());
    const mine = await server.request('/guides', { cookie, headers: ZH });
    expect(mine.headers.get('cache-control')).toBe('private, no-store');
    expect(mine.headers.get('cache-control')).not.toContain('public');
  });

  it('the OpenAPI document names the ETag, If-None-Match and the 304 of a read', async () => {
    const { doc } = await openApiDocument(server);
    const get = doc.paths['/api/v1/guides']!.get!;
    expect(get.responses['304']).toBeDefined();
    expect(Object.keys(get.responses['200'].headers)).toEqual(expect.arrayContaining(['ETag', 'Cache-Control', 'Vary']));
    expect((get as { parameters?: Array<{ name: string }> }).parameters?.map((p) => p.name)).toContain('If-None-Match');
    expect(doc.paths['/api/v1/orders']!.post!.responses['304']).toBeUndefined();
  });
});
