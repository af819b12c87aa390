import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { boardPosts, boardReplies, notifications, users } from '~db/schema';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 35, "Chat and the board" (board half): a repeated submit of a post or a reply (its one-time key) lands on
 * the same one; a reply an admin hid stays visible to its author with the reason, and they are told; a guide's
 * name links to their page only while the public may see it.
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const form = (path: string, cookie: string, values: Record<string, string>) => server.postForm(path, cookie, values);
const formKey = (html: string) => /name="idempotencyKey" value="([^"]+)"/.exec(html)?.[1];
const trip = { intent: 'post', city: 'tainan', languages: 'zh', body: '想找台南一日遊的導遊' };

describe(`board forms and hidden replies (${testDriver})`, () => {
  it('a post sent twice with the page’s key is one post and both land on it; other words with the same key are a new post', async () => {
    const traveler = await createTraveler();
    const author = await loginAs(traveler);
    const page = await server.request('/board', { cookie: author.cookie });
    const key = formKey(page.text);
    expect(key).toBeTruthy();
    const first = await form('/board', author.cookie, { ...trip, idempotencyKey: key! });
    const second = await form('/board', author.cookie, { ...trip, idempotencyKey: key! });
    expect(first.status).toBe(302);
    expect(second.status).toBe(302);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    const mine = () => getDb().select().from(boardPosts).where(eq(boardPosts.authorId, traveler.id));
    expect(await mine()).toHaveLength(1);
    expect(first.headers.get('location')).toBe(`/board#post-${(await mine())[0]!.id}`);
    // Back, then submit again: the page hands out the same key for a while, and the same words still land there.
    expect(formKey((await server.request('/board', { cookie: author.cookie })).text)).toBe(key);
    expect((await form('/board', author.cookie, { ...trip, idempotencyKey: key! })).headers.get('location')).toBe(first.headers.get('location'));
    expect(await mine()).toHaveLength(1);
    const other = await form('/board', author.cookie, { ...trip, body: '改成高雄也可以', idempotencyKey: key! });
    expect(other.status).toBe(302);
    expect(await mine()).toHaveLength(2);
  });

  it('a reply sent twice with the page’s key is one reply; both land on it', async () => {
    const traveler = await createTraveler();
    await form('/board', (await loginAs(traveler)).cookie, trip);
    const [post] = await getDb().select().from(boardPosts).where(eq(boardPosts.authorId, traveler.id));
    const guide = await loginAs(await createGuide());
    const key = formKey((await server.request(`/board/${post!.id}`, { cookie: guide.cookie })).text);
    expect(key).toBeTruthy();
    const values = { intent: 'reply', body: '我可以帶', idempotencyKey: key! };
    const first = await form(`/board/${post!.id}`, guide.cookie, values);
    const second = await form(`/board/${post!.id}`, guide.cookie, values);
    expect(first.status).toBe(302);
    expect(second.headers.get('location')).toBe(first.headers.get('location'));
    const replies = await getDb().select().from(boardReplies).where(eq(boardReplies.postId, post!.id));
    expect(replies).toHaveLength(1);
    expect(first.headers.get('location')).toBe(`/board/${post!.id}#reply-${replies[0]!.id}`);
  });

  it('a reply an admin hid: its author sees it marked with the reason and gets a notification; others do not see it', async () => {
    const author = await loginAs(await createTraveler());
    const posted = await server.request('/api/v1/board/posts', { token: author.token, json: { city: 'tainan', languages: ['zh'], body: '想找導遊' } });
    const postId: number = posted.json.data.post.id;
    const guideUser = await createGuide({ name: '阿明', locale: 'en' });
    const guide = await loginAs(guideUser);
    const replyId: number = (await server.request(`/api/v1/board/posts/${postId}/replies`, { token: guide.token, json: { body: '加我 0912-345-678' } })).json.data.reply.id;
    const admin = await loginAs(await createUser({ type: 'admin' }));
    expect((await form(`/board/${postId}`, admin.cookie, { intent: 'hide', replyId: String(replyId), reason: '留聯絡方式' })).status).toBe(302);

    const own = await server.request(`/board/${postId}`, { cookie: guide.cookie, headers: { 'accept-language': 'en' } });
    expect(own.text).toContain('An admin hid this reply: only you and the admins see it. Reason: 留聯絡方式');
    expect(own.text).toContain(`id="reply-${replyId}"`);
    const api = await server.request(`/api/v1/board/posts/${postId}/replies`, { token: guide.token });
    expect(api.json.data.replies).toEqual([expect.objectContaining({ id: replyId, isHidden: true, hiddenReason: '留聯絡方式', canDelete: false })]);
    for (const who of [author, await loginAs(await createGuide())]) {
      const page = await server.request(`/board/${postId}`, { cookie: who.cookie });
      expect(page.text).not.toContain(`id="reply-${replyId}"`);
      expect(page.text).not.toContain('留聯絡方式');
    }
    expect((await server.request(`/api/v1/board/posts/${postId}/replies`)).json.data.replies).toEqual([]);
    // The board's card counts it for its author (it said "0 replies"), not for others.
    const card = (token?: string) => server.request('/api/v1/board/posts', token ? { token } : {});
    expect((await card(guide.token)).json.data.posts.find((p: { id: number }) => p.id === postId).replyCount).toBe(1);
    expect((await card(author.token)).json.data.posts.find((p: { id: number }) => p.id === postId).replyCount).toBe(0);

    const notes = await getDb()
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, guideUser.id), eq(notifications.type, 'board.replyHidden')));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ title: 'Your board reply was hidden', link: `/board/${postId}#reply-${replyId}` });
    expect(notes[0]!.body).toContain('Reason: 留聯絡方式');
    const list = await server.request('/notifications', { cookie: guide.cookie });
    expect(list.text).toContain('你的留言板回覆已被隱藏');
  });

  it('a guide’s name links to their page only while the public may see the guide', async () => {
    const author = await loginAs(await createTraveler());
    const postId: number = (await server.request('/api/v1/board/posts', { token: author.token, json: { city: 'tainan', languages: ['zh'], body: '想找導遊' } })).json.data.post.id;
    const listed = await createGuide({ name: '公開導遊' });
    const unlisted = await createGuide({ name: '未公開導遊' });
    for (const g of [listed, unlisted]) {
      const login = await loginAs(g);
      expect((await server.request(`/api/v1/board/posts/${postId}/replies`, { token: login.token, json: { body: `我是${g.name}` } })).status).toBe(201);
    }
    await getDb().update(users).set({ description: '' }).where(eq(users.id, unlisted.id));
    const page = (await server.request(`/board/${postId}`)).text;
    expect(page).toMatch(new RegExp(`<a [^>]*href="/guides/${listed.id}"[^>]*>公開導遊（導遊）</a>`));
    expect(page).not.toContain(`href="/guides/${unlisted.id}"`);
    expect(page).toContain('未公開導遊（導遊）');
  });
});
