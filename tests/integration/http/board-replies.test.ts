import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { auditLogs, boardReplies } from '~db/schema';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { MASK } from '~/lib/contact-mask';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** Public replies under a board post (issue 23): API and the no-JS page, masking, who may write, delete, hide. */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const trip = { city: 'tainan', languages: ['zh'], body: '想找台南一日遊的導遊' };
const form = (path: string, cookie: string, values: Record<string, string>) => server.postForm(path, cookie, values);

async function world() {
  const author = await loginAs(await createTraveler({ name: '小美' }));
  const guide = await loginAs(await createGuide({ name: '阿明' }));
  const postId: number = (await server.request('/api/v1/board/posts', { token: author.token, json: trip })).json.data.post.id;
  return { author, guide, postId };
}

describe(`board replies over HTTP (${testDriver})`, () => {
  it('a guide replies; anyone reads it masked, oldest first; the author answers; the post counts its replies', async () => {
    const { author, guide, postId } = await world();
    const first = await server.request(`/api/v1/board/posts/${postId}/replies`, { token: guide.token, json: { body: '我可以帶，LINE: aming77' } });
    expect(first.status).toBe(201);
    await expectContract(server, 'POST', '/api/v1/board/posts/{id}/replies', first);
    expect(first.json.data.reply).toMatchObject({ postId, authorName: '阿明', authorType: 'guide', body: `我可以帶，${MASK}`, masked: true });
    expect((await server.request(`/api/v1/board/posts/${postId}/replies`, { token: author.token, json: { body: '謝謝！' } })).status).toBe(201);

    const list = await server.request(`/api/v1/board/posts/${postId}/replies`);
    expect(list.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/board/posts/{id}/replies', list);
    expect(list.json.data.replies.map((r: { body: string }) => r.body)).toEqual([`我可以帶，${MASK}`, '謝謝！']);
    expect((await server.request('/api/v1/board/posts')).json.data.posts[0]).toMatchObject({ id: postId, replyCount: 2 });

    const page = await server.request(`/board/${postId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('阿明（導遊）');
    // The guide who answered links to their page (issue 35: a plain name).
    const guideId = first.json.data.reply.authorId;
    expect(page.text).toMatch(new RegExp(`<a [^>]*href="/guides/${guideId}"[^>]*>阿明（導遊）</a>`));
    expect(page.text).not.toContain('aming77');
    expect((await server.request('/board/999999')).status).toBe(404);
    expect((await server.request(`/api/v1/board/posts/999999/replies`)).status).toBe(404);
  });

  it('only guides and the post author reply, with a verified e-mail; bad input is 400 and stores nothing', async () => {
    const { postId } = await world();
    const other = await loginAs(await createTraveler());
    const refused = await server.request(`/api/v1/board/posts/${postId}/replies`, { token: other.token, json: { body: '我也想去' } });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe('只有導遊與貼文作者可以回覆');
    const unverified = await loginAs(await createGuide({ isEmailVerified: false, emailVerifiedAt: null }));
    expect((await server.request(`/api/v1/board/posts/${postId}/replies`, { token: unverified.token, json: { body: '你好' } })).json.code).toBe('EMAIL_NOT_VERIFIED');
    const guide = await loginAs(await createGuide());
    const long = await server.request(`/api/v1/board/posts/${postId}/replies`, { token: guide.token, json: { body: 'x'.repeat(1001) } });
    expect(long.status).toBe(400);
    expect(long.json.errors.body).toEqual(['回覆最多 1,000 字']);
    expect(await getDb().select().from(boardReplies).where(eq(boardReplies.postId, postId))).toEqual([]);
  });

  it('the page form: a refused reply comes back with the typed text and the translated reason; a good one redirects', async () => {
    const { guide, postId } = await world();
    const long = `很長的回覆${'長'.repeat(1000)}`;
    const bad = await form(`/board/${postId}`, guide.cookie, { intent: 'reply', body: long });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('回覆最多 1,000 字');
    expect(bad.text).toContain(`${long}</textarea>`);
    const empty = await form(`/board/${postId}`, guide.cookie, { intent: 'reply', body: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('請輸入回覆內容');

    const good = await form(`/board/${postId}`, guide.cookie, { intent: 'reply', body: '歡迎私訊我' });
    expect(good.status).toBe(302);
    // It lands on the new reply (issue 35), its own anchor.
    expect(good.headers.get('location')).toMatch(new RegExp(`^/board/${postId}#reply-\\d+$`));
    expect((await server.request(`/board/${postId}`)).text).toContain('歡迎私訊我');
  });

  it('the author deletes their own reply, nobody else can; an admin hides one with a reason and deletes one, audited', async () => {
    const { guide, postId } = await world();
    const otherGuide = await loginAs(await createGuide());
    const reply = async (body: string) => (await server.request(`/api/v1/board/posts/${postId}/replies`, { token: guide.token, json: { body } })).json.data.reply.id as number;
    const a = await reply('第一則');
    expect((await server.request(`/api/v1/board/replies/${a}`, { token: otherGuide.token, method: 'DELETE' })).status).toBe(403);
    expect((await form(`/board/${postId}`, otherGuide.cookie, { intent: 'delete', replyId: String(a) })).status).toBe(403);
    const deleted = await server.request(`/api/v1/board/replies/${a}`, { token: guide.token, method: 'DELETE' });
    expect(deleted.status).toBe(200);
    await expectContract(server, 'DELETE', '/api/v1/board/replies/{id}', deleted);
    expect(await getDb().select().from(boardReplies).where(eq(boardReplies.id, a))).toEqual([]);

    const admin = await createUser({ type: 'admin' });
    const adminLogin = await loginAs(admin);
    const b = await reply('加我 0912-345-678');
    expect((await server.request(`/api/v1/board/replies/${b}/hide`, { token: guide.token, method: 'PATCH', json: { reason: 'x' } })).status).toBe(403);
    const hidden = await server.request(`/api/v1/board/replies/${b}/hide`, { token: adminLogin.token, method: 'PATCH', json: { reason: '留聯絡方式' } });
    expect(hidden.status).toBe(200);
    await expectContract(server, 'PATCH', '/api/v1/board/replies/{id}/hide', hidden);
    expect(hidden.json.data.reply).toMatchObject({ isHidden: true, hiddenReason: '留聯絡方式', body: '加我 0912-345-678' });
    expect((await server.request(`/api/v1/board/posts/${postId}/replies`)).json.data.replies).toEqual([]);
    expect((await server.request(`/api/v1/board/posts/${postId}/replies`, { token: adminLogin.token })).json.data.replies).toHaveLength(1);
    // A hidden reply is gone for its author too: they cannot delete (or see) it.
    expect((await server.request(`/api/v1/board/replies/${b}`, { token: guide.token, method: 'DELETE' })).status).toBe(404);

    const c = await reply('第三則');
    const byAdmin = await form(`/board/${postId}`, adminLogin.cookie, { intent: 'delete', replyId: String(c) });
    expect(byAdmin.status).toBe(302);
    const audits = await getDb().select().from(auditLogs).where(eq(auditLogs.actorId, admin.id));
    expect(audits.map((r) => [r.action, r.targetId]).sort()).toEqual([
      ['board.reply.delete', String(c)],
      ['board.reply.hide', String(b)],
    ]);
  });
});
