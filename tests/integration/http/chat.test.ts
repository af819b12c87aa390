import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { chatMessages, chats } from '~db/schema';
import { createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import { attachRealtime, type Realtime } from '~/http/realtime.server';
import { MASK } from '~/lib/contact-mask';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/** Conversations over real HTTP and real sockets (issue 23): who may read, idempotent sends, live events, catch-up, masking, limits. */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function startRealtime(redisUrl?: string): Promise<{ realtime: Realtime; url: string }> {
  const httpServer = http.createServer();
  const realtime = await attachRealtime(httpServer, { redisUrl });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    await realtime.close();
    await new Promise((resolve) => httpServer.close(resolve));
  });
  return { realtime, url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}` };
}

async function socketFor(url: string, token: string): Promise<Socket> {
  const socket = connect(url, { transports: ['websocket'], reconnection: false, timeout: 5_000, auth: { token } });
  cleanup.push(() => void socket.close());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

function record(socket: Socket, event: string): any[] {
  const got: any[] = [];
  socket.on(event, (payload: unknown) => got.push(payload));
  return got;
}

async function until(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function pair() {
  const traveler = await createTraveler({ name: '旅客小美' });
  const guide = await createGuide({ name: '導遊阿明' });
  return { traveler, guide, t: await loginAs(traveler), g: await loginAs(guide) };
}

const start = (token: string, json: Record<string, unknown>) => server.request('/api/v1/chats', { token, json });
const send = (token: string, chatId: number, json: Record<string, unknown>) => server.request(`/api/v1/chats/${chatId}/messages`, { token, json });
const messages = (token: string, chatId: number, query = '') => server.request(`/api/v1/chats/${chatId}/messages${query}`, { token });

describe(`chat over HTTP (${testDriver})`, () => {
  it('a traveler asks a guide; a second start reuses the one conversation of the pair', async () => {
    const { traveler, guide, t, g } = await pair();
    const first = await start(t.token, { guideId: guide.id, message: '可以半天嗎？', clientId: 'c-1' });
    expect(first.status).toBe(201);
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    await expectContract(server, 'POST', '/api/v1/chats', first);
    const chatId = first.json.data.chat.id;
    expect(first.json.data.chat).toMatchObject({ travelerId: traveler.id, guideId: guide.id, other: { id: guide.id, name: '導遊阿明' }, masking: true });
    expect(first.json.data.message).toMatchObject({ senderId: traveler.id, text: '可以半天嗎？' });

    const again = await start(t.token, { guideId: guide.id, message: '還有一個問題' });
    expect(again.status).toBe(200);
    expect(again.json.data.chat.id).toBe(chatId);
    expect(await getDb().select().from(chats)).toHaveLength(1);

    const list = await server.request('/api/v1/chats', { token: g.token });
    expect(list.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/chats', list);
    expect(list.json.data.chats).toHaveLength(1);
    expect(list.json.data.chats[0]).toMatchObject({ id: chatId, other: { id: traveler.id }, unreadCount: 2, lastMessage: { text: '還有一個問題' } });
    expect(list.json.data.unreadCount).toBe(2);

    const read = await server.request(`/api/v1/chats/${chatId}/read`, { token: g.token, method: 'PUT' });
    expect(read.status).toBe(200);
    await expectContract(server, 'PUT', '/api/v1/chats/{id}/read', read);
    expect(read.json.data).toEqual({ chatId, read: 2, unreadCount: 0 });
  });

  it('an order links to the conversation; only travelers start one, and only about their own order', async () => {
    const { traveler, guide, t, g } = await pair();
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id });
    const other = await createTraveler();
    const otherOrder = await createOrder({ travelerId: other.id, guideId: guide.id, date: '2099-01-01' });
    expect((await start(t.token, { guideId: guide.id, orderId: otherOrder.id, message: 'hi' })).status).toBe(404);
    const linked = await start(t.token, { guideId: guide.id, orderId: order.id, message: 'about my order' });
    expect(linked.status).toBe(201);
    expect(linked.json.data.chat.orderId).toBe(order.id);
    const byGuide = await start(g.token, { guideId: guide.id, message: 'hi' });
    expect(byGuide.status).toBe(403);
    expect((await start(t.token, { guideId: traveler.id, message: 'hi' })).status).toBe(404);
    const invalid = await start(t.token, { guideId: guide.id, message: 'x'.repeat(2001) });
    expect(invalid.status).toBe(400);
    expect(invalid.json.code).toBe('VALIDATION_ERROR');
  });

  it('nobody but the two participants reads or writes a conversation (404); an admin reads it, with the original text', async () => {
    const { guide, t, g } = await pair();
    const chatId = (await start(t.token, { guideId: guide.id, message: '我的電話 0912345678' })).json.data.chat.id;
    const stranger = await loginAs(await createTraveler());
    const otherGuide = await loginAs(await createGuide());
    for (const who of [stranger, otherGuide]) {
      for (const [method, path, json] of [
        ['GET', `/api/v1/chats/${chatId}`, undefined],
        ['GET', `/api/v1/chats/${chatId}/messages`, undefined],
        ['POST', `/api/v1/chats/${chatId}/messages`, { text: 'hi', clientId: 'x1' }],
        ['PUT', `/api/v1/chats/${chatId}/read`, undefined],
        ['POST', `/api/v1/chats/${chatId}/block`, {}],
      ] as const) {
        const response = await server.request(path, { token: who.token, method, json });
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.json.code).toBe('NOT_FOUND');
      }
    }
    // Authorization before validation: a stranger with a bad body is still 404.
    expect((await send(stranger.token, chatId, { text: '' })).status).toBe(404);
    expect((await server.request(`/api/v1/chats/${chatId}`)).status).toBe(401);

    const seenByGuide = await messages(g.token, chatId);
    expect(seenByGuide.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/chats/{id}/messages', seenByGuide);
    expect(seenByGuide.json.data.messages[0]).toMatchObject({ text: `我的電話 ${MASK}`, masked: true });

    const admin = await loginAs(await createUser({ type: 'admin' }));
    const seenByAdmin = await messages(admin.token, chatId);
    expect(seenByAdmin.status).toBe(200);
    expect(seenByAdmin.json.data.messages[0]).toMatchObject({ text: '我的電話 0912345678', masked: false });
    const chat = await server.request(`/api/v1/chats/${chatId}`, { token: admin.token });
    expect(chat.status).toBe(200);
    await expectContract(server, 'GET', '/api/v1/chats/{id}', chat);
    expect((await send(admin.token, chatId, { text: 'admin here', clientId: 'a1' })).status).toBe(403);
  });

  it('the same clientId twice stores one message (201, then 200 with the same message)', async () => {
    const { guide, t } = await pair();
    const chatId = (await start(t.token, { guideId: guide.id, message: 'first' })).json.data.chat.id;
    const one = await send(t.token, chatId, { text: 'once only', clientId: 'dup-1' });
    const two = await send(t.token, chatId, { text: 'once only', clientId: 'dup-1' });
    expect(one.status).toBe(201);
    await expectContract(server, 'POST', '/api/v1/chats/{id}/messages', one);
    expect(two.status).toBe(200);
    await expectContract(server, 'POST', '/api/v1/chats/{id}/messages', two);
    expect(two.json.data.message.id).toBe(one.json.data.message.id);
    const stored = await getDb().select().from(chatMessages).where(eq(chatMessages.clientId, 'dup-1'));
    expect(stored).toHaveLength(1);
    // At the same time, too.
    const both = await Promise.all([1, 2, 3].map(() => send(t.token, chatId, { text: 'racing', clientId: 'dup-2' })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 200, 201]);
    expect(await getDb().select().from(chatMessages).where(eq(chatMessages.clientId, 'dup-2'))).toHaveLength(1);
  });

  it('events reach both participants and nobody else; a message sent while offline comes once through `after`', async () => {
    const { traveler, guide, t, g } = await pair();
    const { url } = await startRealtime();
    const chatId = (await start(t.token, { guideId: guide.id, message: 'hello' })).json.data.chat.id;
    const travelerSocket = await socketFor(url, t.token);
    let guideSocket = await socketFor(url, g.token);
    const stranger = await socketFor(url, (await loginAs(await createTraveler())).token);
    const toTraveler = record(travelerSocket, 'new_message');
    let toGuide = record(guideSocket, 'new_message');
    const toStranger = record(stranger, 'new_message');
    const reads = record(travelerSocket, 'message_read');

    const sent = await send(t.token, chatId, { text: 'are you there?', clientId: 'live-1' });
    await until(() => toGuide.length === 1 && toTraveler.length === 1);
    expect(toGuide[0]).toMatchObject({ id: sent.json.data.message.id, chatId, senderId: traveler.id, text: 'are you there?', clientId: 'live-1' });

    await server.request(`/api/v1/chats/${chatId}/read`, { token: g.token, method: 'PUT' });
    await until(() => reads.length === 1);
    expect(reads[0]).toMatchObject({ chatId, readerId: guide.id, upToId: sent.json.data.message.id });

    // The guide's socket drops; two messages are sent meanwhile.
    const lastSeen = toGuide[0].id as number;
    guideSocket.close();
    await send(t.token, chatId, { text: 'offline 1', clientId: 'off-1' });
    await send(t.token, chatId, { text: 'offline 2', clientId: 'off-2' });
    guideSocket = await socketFor(url, g.token);
    toGuide = record(guideSocket, 'new_message');
    const caughtUp = await messages(g.token, chatId, `?after=${lastSeen}`);
    expect(caughtUp.status).toBe(200);
    expect(caughtUp.json.data.messages.map((m: { text: string }) => m.text)).toEqual(['offline 1', 'offline 2']);
    expect(caughtUp.json.data.hasMore).toBe(false);
    const after = await messages(g.token, chatId, `?after=${caughtUp.json.data.messages[1].id}`);
    expect(after.json.data.messages).toEqual([]);
    await new Promise((r) => setTimeout(r, 200));
    expect(toGuide).toEqual([]);
    expect(toStranger).toEqual([]);
  });

  it('older messages page with `before`', async () => {
    const { guide, t } = await pair();
    const chatId = (await start(t.token, { guideId: guide.id, message: 'm0' })).json.data.chat.id;
    for (let i = 1; i < 5; i++) await send(t.token, chatId, { text: `m${i}`, clientId: `p-${i}` });
    const newest = await messages(t.token, chatId, '?limit=2');
    expect(newest.json.data.messages.map((m: { text: string }) => m.text)).toEqual(['m3', 'm4']);
    expect(newest.json.data.hasMore).toBe(true);
    const older = await messages(t.token, chatId, `?limit=2&before=${newest.json.data.messages[0].id}`);
    expect(older.json.data.messages.map((m: { text: string }) => m.text)).toEqual(['m1', 'm2']);
    const oldest = await messages(t.token, chatId, `?limit=2&before=${older.json.data.messages[0].id}`);
    expect(oldest.json.data).toMatchObject({ hasMore: false });
    expect(oldest.json.data.messages.map((m: { text: string }) => m.text)).toEqual(['m0']);
  });

  it('contacts are masked both ways until the traveler has a confirmed order with the guide', async () => {
    const { traveler, guide, t, g } = await pair();
    const chatId = (await start(t.token, { guideId: guide.id, message: 'mail me: mei@example.com' })).json.data.chat.id;
    const answer = await send(g.token, chatId, { text: '打給我 0912 345 678', clientId: 'g-1' });
    expect(answer.json.data.message).toMatchObject({ text: `打給我 ${MASK}`, masked: true });
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, status: 'pending' });
    expect((await messages(t.token, chatId)).json.data.messages.map((m: { text: string }) => m.text)).toEqual([`mail me: ${MASK}`, `打給我 ${MASK}`]);
    await getDb().update((await import('~db/schema')).orders).set({ status: 'confirmed' }).where(eq((await import('~db/schema')).orders.id, order.id));
    const shown = await messages(t.token, chatId);
    expect(shown.json.data.messages.map((m: { text: string }) => m.text)).toEqual(['mail me: mei@example.com', '打給我 0912 345 678']);
    expect((await server.request('/api/v1/chats', { token: g.token })).json.data.chats[0].masking).toBe(false);
  });

  it('a verified e-mail is needed to send; 20 messages a minute; 5 new conversations an hour', async () => {
    const unverified = await loginAs(await createTraveler({ isEmailVerified: false, emailVerifiedAt: null }));
    const guide = await createGuide();
    const refused = await start(unverified.token, { guideId: guide.id, message: 'hi' });
    expect(refused.status).toBe(403);
    expect(refused.json.code).toBe('EMAIL_NOT_VERIFIED');

    const { t } = await pair();
    const guides = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createGuide()));
    for (const gd of guides.slice(0, 5)) expect((await start(t.token, { guideId: gd.id, message: 'hi' })).status).toBe(201);
    const sixth = await start(t.token, { guideId: guides[5]!.id, message: 'hi' });
    expect(sixth.status).toBe(429);
    expect(sixth.json.code).toBe('RATE_LIMIT_EXCEEDED');

    resetRateLimits();
    const chatId = (await server.request('/api/v1/chats', { token: t.token })).json.data.chats[0].id;
    for (let i = 0; i < 20; i++) expect((await send(t.token, chatId, { text: `n${i}`, clientId: `r-${i}` })).status).toBe(201);
    const over = await send(t.token, chatId, { text: 'too many', clientId: 'r-20' });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await getDb().select().from(chatMessages).where(eq(chatMessages.clientId, 'r-20'))).toEqual([]);
  });

  it('a participant blocks the conversation: the other side can no longer send; a report reaches the queue once', async () => {
    const { guide, t, g } = await pair();
    const started = await start(t.token, { guideId: guide.id, message: 'hi' });
    const chatId = started.json.data.chat.id;
    const blocked = await server.request(`/api/v1/chats/${chatId}/block`, { token: g.token, json: {} });
    expect(blocked.status).toBe(200);
    await expectContract(server, 'POST', '/api/v1/chats/{id}/block', blocked);
    const refused = await send(t.token, chatId, { text: 'still there?', clientId: 'b-1' });
    expect(refused.status).toBe(403);
    expect((await send(g.token, chatId, { text: 'bye', clientId: 'b-2' })).status).toBe(201);
    expect((await server.request(`/api/v1/chats/${chatId}/block`, { token: t.token, json: { blocked: false } })).status).toBe(403);

    const report = await server.request(`/api/v1/messages/${started.json.data.message.id}/report`, { token: g.token, json: { reason: 'spam' } });
    expect(report.status).toBe(200);
    await expectContract(server, 'POST', '/api/v1/messages/{id}/report', report);
    // One's own message is not reported; a stranger does not learn it exists.
    expect((await server.request(`/api/v1/messages/${started.json.data.message.id}/report`, { token: t.token, json: {} })).status).toBe(403);
    const stranger = await loginAs(await createTraveler());
    expect((await server.request(`/api/v1/messages/${started.json.data.message.id}/report`, { token: stranger.token, json: {} })).status).toBe(404);
  });

  it.runIf(process.env.TEST_REDIS_URL)('with Redis, a message sent through one instance reaches a recipient connected to another', async () => {
    const { guide, t, g } = await pair();
    const b = await startRealtime(process.env.TEST_REDIS_URL);
    // The last instance started is the one the services emit through: the socket sits on the other one.
    await startRealtime(process.env.TEST_REDIS_URL);
    const guideSocket = await socketFor(b.url, g.token);
    const got = record(guideSocket, 'new_message');
    await start(t.token, { guideId: guide.id, message: 'across instances' });
    await until(() => got.length === 1, 5_000);
    expect(got[0].text).toBe('across instances');
  });
});
