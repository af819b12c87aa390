import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { boardPosts } from '~db/schema';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { MASK } from '~/lib/contact-mask';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** The author edits their board post (issue 23): PUT /api/v1/board/posts/{id} and the no-JS form on /board/:postId. */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const trip = { city: 'tainan', languages: ['zh'], body: '想找台南一日遊的導遊' };
const form = (path: string, cookie: string, values: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) for (const one of [v].flat()) body.append(k, one);
  return server.request(path, {
    method: 'POST',
    cookie,
    origin: server.baseUrl,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
};
const stored = async (id: number) => (await getDb().select().from(boardPosts).where(eq(boardPosts.id, id)))[0]!;

async function world() {
  const author = await loginAs(await createTraveler({ name: '小美' }));
  const postId: number = (await server.request('/api/v1/board/posts', { token: author.token, json: trip })).json.data.post.id;
  return { author, postId };
}

describe(`editing a board post over HTTP (${testDriver})`, () => {
  it('the author edits through the API; the answer and the board show it masked; a field left out keeps its value', async () => {
    const { author, postId } = await world();
    const res = await server.request(`/api/v1/board/posts/${postId}`, {
      token: author.token,
      method: 'PUT',
      json: { city: 'taipei', languages: ['zh', 'en'], startDate: '2027-03-01', endDate: '2027-03-02', body: '改成台北，LINE: mei88' },
    });
    expect(res.status).toBe(200);
    await expectContract(server, 'PUT', '/api/v1/board/posts/{id}', res);
    expect(res.json.data.post).toMatchObject({ id: postId, city: 'taipei', languages: ['zh', 'en'], startDate: '2027-03-01', body: `改成台北，${MASK}`, masked: true, canEdit: true });
    expect((await stored(postId)).body).toBe('改成台北，LINE: mei88');
    const list = (await server.request('/api/v1/board/posts')).json.data.posts;
    expect(list[0]).toMatchObject({ id: postId, city: 'taipei', body: `改成台北，${MASK}`, canEdit: false });

    const partial = await server.request(`/api/v1/board/posts/${postId}`, { token: author.token, method: 'PUT', json: { body: '只改內容' } });
    expect(partial.status).toBe(200);
    expect(partial.json.data.post).toMatchObject({ city: 'taipei', languages: ['zh', 'en'], body: '只改內容' });
  });

  it('nobody else edits: another traveler, a guide and an admin get 403, a visitor 401, a hidden or missing post 404', async () => {
    const { author, postId } = await world();
    const before = await stored(postId);
    const edit = { body: '被別人改掉了' };
    for (const who of [await createTraveler(), await createGuide(), await createUser({ type: 'admin' })]) {
      const other = await loginAs(who);
      const res = await server.request(`/api/v1/board/posts/${postId}`, { token: other.token, method: 'PUT', json: edit });
      expect(res.status).toBe(403);
      // Access first: an invalid body changes nothing in the answer.
      expect((await server.request(`/api/v1/board/posts/${postId}`, { token: other.token, method: 'PUT', json: { body: '' } })).status).toBe(403);
      expect((await form(`/board/${postId}`, other.cookie, { intent: 'edit', ...trip, body: '被別人改掉了' })).status).toBe(403);
    }
    expect((await server.request(`/api/v1/board/posts/${postId}`, { method: 'PUT', json: edit })).status).toBe(401);
    expect((await server.request('/api/v1/board/posts/999999', { token: author.token, method: 'PUT', json: edit })).status).toBe(404);
    expect(await stored(postId)).toEqual(before);

    const admin = await loginAs(await createUser({ type: 'admin' }));
    expect((await server.request(`/api/v1/board/posts/${postId}/hide`, { token: admin.token, method: 'PATCH', json: { reason: '廣告' } })).status).toBe(200);
    expect((await server.request(`/api/v1/board/posts/${postId}`, { token: author.token, method: 'PUT', json: edit })).status).toBe(404);
    expect((await stored(postId)).body).toBe(trip.body);
  });

  it('invalid input is 400 with translated errors and nothing changed', async () => {
    const { author, postId } = await world();
    const before = await stored(postId);
    const empty = await server.request(`/api/v1/board/posts/${postId}`, { token: author.token, method: 'PUT', json: { body: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.json.errors.body).toEqual(['請輸入內容']);
    const dates = await server.request(`/api/v1/board/posts/${postId}`, { token: author.token, method: 'PUT', json: { startDate: '2027-03-05', endDate: '2027-03-01' } });
    expect(dates.status).toBe(400);
    expect(dates.json.errors.endDate).toBeDefined();
    const en = await server.request(`/api/v1/board/posts/${postId}`, { token: author.token, method: 'PUT', json: { body: 'x'.repeat(2001) }, headers: { 'accept-language': 'en' } });
    expect(en.status).toBe(400);
    expect(en.json.errors.body).toEqual(['A post can be up to 2,000 characters']);
    expect(await stored(postId)).toEqual(before);
  });

  it('the page form (no JS): the author sees their own words to edit; a bad edit comes back typed and translated; a good one redirects', async () => {
    const { author, postId } = await world();
    await server.request(`/api/v1/board/posts/${postId}`, { token: author.token, method: 'PUT', json: { body: '加我 LINE: mei88' } });
    const page = await server.request(`/board/${postId}`, { cookie: author.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('編輯貼文');
    expect(page.text).toContain('加我 LINE: mei88</textarea>');
    const publicPage = await server.request(`/board/${postId}`);
    expect(publicPage.text).not.toContain('編輯貼文');
    expect(publicPage.text).not.toContain('mei88');

    const long = `很長${'長'.repeat(2000)}`;
    const bad = await form(`/board/${postId}`, author.cookie, { intent: 'edit', city: 'tainan', languages: 'zh', body: long });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('內容最多 2,000 字');
    expect(bad.text).toContain(`${long}</textarea>`);
    expect((await stored(postId)).body).toBe('加我 LINE: mei88');

    const good = await form(`/board/${postId}`, author.cookie, { intent: 'edit', city: 'hualien', languages: ['zh', 'ja'], body: '改去花蓮' });
    expect(good.status).toBe(302);
    expect(good.headers.get('location')).toBe(`/board/${postId}`);
    expect(await stored(postId)).toMatchObject({ city: 'hualien', languages: ['zh', 'ja'], body: '改去花蓮' });
  });
});
