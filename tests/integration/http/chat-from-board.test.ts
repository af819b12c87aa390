import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { chatMessages, chats } from '~db/schema';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { MASK } from '~/lib/contact-mask';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** A guide starts a conversation with a board post's author (issue 23): POST /api/v1/chats {boardPostId} and the no-JS form. */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const trip = { city: 'tainan', languages: ['zh'], body: '想找台南一日遊的導遊' };
const form = (path: string, cookie: string, values: Record<string, string>) => server.postForm(path, cookie, values);
const open = (token: string, json: Record<string, unknown>) => server.request('/api/v1/chats', { token, json });

async function world() {
  const poster = await createTraveler({ name: '小美' });
  const author = await loginAs(poster);
  const guideUser = await createGuide({ name: '阿明' });
  const guide = await loginAs(guideUser);
  const postId: number = (await server.request('/api/v1/board/posts', { token: author.token, json: trip })).json.data.post.id;
  return { poster, author, guideUser, guide, postId };
}

describe(`a guide messages a board poster over HTTP (${testDriver})`, () => {
  it('a guide opens the conversation from a post; a second open reuses it; the traveler finds it in /chat and answers in it', async () => {
    const { poster, author, guideUser, guide, postId } = await world();
    const first = await open(guide.token, { boardPostId: postId, message: '你好，我可以帶你，LINE: aming77' });
    expect(first.status).toBe(201);
    await expectContract(server, 'POST', '/api/v1/chats', first);
    const chatId = first.json.data.chat.id;
    expect(first.json.data.chat).toMatchObject({ travelerId: poster.id, guideId: guideUser.id, masking: true, other: { id: poster.id } });
    expect(first.json.data.message).toMatchObject({ senderId: guideUser.id, text: `你好，我可以帶你，${MASK}`, masked: true });

    const again = await open(guide.token, { boardPostId: postId, message: '再補充一下' });
    expect(again.status).toBe(200);
    expect(again.json.data.chat.id).toBe(chatId);
    expect(await getDb().select().from(chats).where(eq(chats.travelerId, poster.id))).toHaveLength(1);
    expect((await getDb().select().from(chatMessages).where(eq(chatMessages.chatId, chatId))).map((m) => m.body)).toEqual([
      '你好，我可以帶你，LINE: aming77',
      '再補充一下',
    ]);

    const list = (await server.request('/api/v1/chats', { token: author.token })).json.data;
    expect(list.unreadCount).toBe(2);
    expect(list.chats[0]).toMatchObject({ id: chatId, other: { id: guideUser.id, name: '阿明' }, lastMessage: { text: '再補充一下' } });
    // The traveler answers in the same conversation; asking the guide from their page reuses it too.
    const reply = await open(author.token, { guideId: guideUser.id, message: '好的，謝謝' });
    expect(reply.status).toBe(200);
    expect(reply.json.data.chat.id).toBe(chatId);
  });

  it('refused: a guide without a post, a traveler with a post id, a missing or hidden post, bad bodies; nothing stored', async () => {
    const { poster, author, guide, postId } = await world();
    const otherTraveler = await loginAs(await createTraveler());
    // A guide cannot cold-message a traveler: the traveler form is for travelers.
    const cold = await open(guide.token, { guideId: (await createGuide()).id, message: 'hi' });
    expect(cold.status).toBe(403);
    expect(cold.json.message).toBe('只有旅客可以向導遊發起對話');
    const noTarget = await open(guide.token, { message: 'hi' });
    expect(noTarget.status).toBe(400);
    expect(noTarget.json.errors.guideId).toEqual(['請指定導遊或留言板貼文其中之一']);
    const both = await open(guide.token, { guideId: 1, boardPostId: postId, message: 'hi' });
    expect(both.status).toBe(400);
    // A traveler cannot use a post to reach another traveler (or anyone).
    const byTraveler = await open(otherTraveler.token, { boardPostId: postId, message: 'hi' });
    expect(byTraveler.status).toBe(403);
    expect(byTraveler.json.message).toBe('只有導遊可以私訊留言板貼文的作者');
    const admin = await loginAs(await createUser({ type: 'admin' }));
    expect((await open(admin.token, { boardPostId: postId, message: 'hi' })).status).toBe(403);
    expect((await open(guide.token, { boardPostId: 999999, message: 'hi' })).status).toBe(404);
    const empty = await open(guide.token, { boardPostId: postId, message: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.json.errors.message).toBeDefined();
    expect((await server.request('/api/v1/board/posts', { token: author.token, json: trip })).status).toBe(201);
    expect((await server.request(`/api/v1/board/posts/${postId}/hide`, { token: admin.token, method: 'PATCH', json: { reason: '廣告' } })).status).toBe(200);
    expect((await open(guide.token, { boardPostId: postId, message: 'hi' })).status).toBe(404);
    const unverified = await loginAs(await createGuide({ isEmailVerified: false, emailVerifiedAt: null }));
    const posted = (await server.request('/api/v1/board/posts')).json.data.posts[0].id;
    expect((await open(unverified.token, { boardPostId: posted, message: 'hi' })).json.code).toBe('EMAIL_NOT_VERIFIED');
    expect(await getDb().select().from(chats).where(eq(chats.travelerId, poster.id))).toEqual([]);
  });

  it('5 new conversations an hour per guide; conversations the traveler opened do not count against the guide', async () => {
    const guideUser = await createGuide();
    const guide = await loginAs(guideUser);
    const posts: number[] = [];
    for (let i = 0; i < 6; i++) {
      const author = await loginAs(await createTraveler());
      posts.push((await server.request('/api/v1/board/posts', { token: author.token, json: trip })).json.data.post.id);
    }
    // Two travelers ask this guide first.
    for (let i = 0; i < 2; i++) expect((await open((await loginAs(await createTraveler())).token, { guideId: guideUser.id, message: '請問' })).status).toBe(201);
    for (const id of posts.slice(0, 5)) expect((await open(guide.token, { boardPostId: id, message: '你好' })).status).toBe(201);
    const sixth = await open(guide.token, { boardPostId: posts[5]!, message: '你好' });
    expect(sixth.status).toBe(429);
    expect(sixth.json.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('the post page (no JS): a guide sees the form, a bad message comes back typed, a good one opens /chat/:id; others see no form', async () => {
    const { poster, guide, postId } = await world();
    const page = await server.request(`/board/${postId}`, { cookie: guide.cookie });
    expect(page.text).toContain('私訊旅客');
    expect((await server.request(`/board/${postId}`)).text).not.toContain('私訊旅客');
    const travelerPage = await server.request(`/board/${postId}`, { cookie: (await loginAs(await createTraveler())).cookie });
    expect(travelerPage.text).not.toContain('私訊旅客');

    const long = `長${'長'.repeat(2000)}`;
    const bad = await form(`/board/${postId}`, guide.cookie, { intent: 'message', message: long });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(`${long}</textarea>`);
    const ofPoster = () => getDb().select().from(chats).where(eq(chats.travelerId, poster.id));
    expect(await ofPoster()).toEqual([]);

    const good = await form(`/board/${postId}`, guide.cookie, { intent: 'message', message: '我是導遊阿明，可以帶你' });
    expect(good.status).toBe(302);
    const [chat] = await getDb().select().from(chats).where(eq(chats.travelerId, poster.id));
    expect(good.headers.get('location')).toBe(`/chat/${chat!.id}`);
    expect((await server.request(`/board/${postId}`, { cookie: guide.cookie })).text).toContain(`/chat/${chat!.id}`);
    // A second message from the page reuses the conversation.
    const second = await form(`/board/${postId}`, guide.cookie, { intent: 'message', message: '補充' });
    expect(second.headers.get('location')).toBe(`/chat/${chat!.id}`);
    expect(await ofPoster()).toHaveLength(1);

    // A traveler posting the form is refused, translated, nothing stored.
    const traveler = await loginAs(await createTraveler());
    const refused = await form(`/board/${postId}`, traveler.cookie, { intent: 'message', message: 'hi' });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('只有導遊可以私訊留言板貼文的作者');
    expect(await ofPoster()).toHaveLength(1);
  });
});
