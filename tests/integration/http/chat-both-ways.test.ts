import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { chatMessageReports, chats } from '~db/schema';
import { createGuide, createOrder, createTraveler, createUser } from '~server/seed/factories';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { loginAs } from '../../support/api';
import { useTestServer } from '../../support/http-server';
import { expectContract } from '../../support/openapi';
import { testDriver, useTestDatabase } from '../../support/test-database';

/**
 * Issue 35, "Chat and the board" (chat half), over HTTP and the no-JS pages: both parties of an order reach their
 * conversation from it; a blocked sender is told the conversation is closed and keeps the text; blocking asks
 * first; reporting asks for a reason, once per message and reporter, and the admin queue shows it.
 */
useTestDatabase();
const server = useTestServer();
beforeEach(() => resetRateLimits());

const form = (path: string, cookie: string, values: Record<string, string>) => server.postForm(path, cookie, values);
const location = (answer: { headers: Headers }) => answer.headers.get('location') ?? '';

async function pair() {
  const traveler = await createTraveler({ name: '旅客小美' });
  const guide = await createGuide({ name: '導遊阿明' });
  const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, status: 'confirmed' });
  return { traveler, guide, order, t: await loginAs(traveler), g: await loginAs(guide) };
}

async function chatWithMessage() {
  const world = await pair();
  const started = await server.request('/api/v1/chats', { token: world.t.token, json: { guideId: world.guide.id, message: '請問集合地點？' } });
  const chatId: number = started.json.data.chat.id;
  const sent = await server.request(`/api/v1/chats/${chatId}/messages`, { token: world.g.token, json: { text: '車站大廳', clientId: crypto.randomUUID() } });
  return { ...world, chatId, messageId: sent.json.data.message.id as number };
}

describe(`chat both ways (${testDriver})`, () => {
  it('the guide reaches the traveler from the order page and the order list; the form opens the conversation; strangers get 404', async () => {
    const { guide, traveler, order, g, t } = await pair();
    const page = await server.request(`/orders/${order.id}`, { cookie: g.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toMatch(new RegExp(`<a [^>]*href="/chat/new\\?orderId=${order.id}"[^>]*>傳訊息給旅客</a>`));
    const list = await server.request('/orders', { cookie: g.cookie });
    expect(list.text).toMatch(new RegExp(`<a [^>]*href="/chat/new\\?orderId=${order.id}"[^>]*>傳訊息給旅客</a>`));
    // The traveler's side keeps its own words.
    expect((await server.request(`/orders/${order.id}`, { cookie: t.cookie })).text).toMatch(new RegExp(`href="/chat/new\\?orderId=${order.id}"[^>]*>傳訊息給導遊</a>`));

    const ask = await server.request(`/chat/new?orderId=${order.id}`, { cookie: g.cookie });
    expect(ask.status).toBe(200);
    expect(ask.text).toContain('傳訊息給 旅客小美');
    const sent = await form(`/chat/new?orderId=${order.id}`, g.cookie, { orderId: String(order.id), message: '您好，我是明天的導遊' });
    expect(sent.status).toBe(302);
    const chatId = Number(/\/chat\/(\d+)/.exec(location(sent))?.[1]);
    const [chat] = await getDb().select().from(chats).where(eq(chats.id, chatId));
    expect(chat).toMatchObject({ travelerId: traveler.id, guideId: guide.id, orderId: order.id });
    // Once it exists, the entry goes straight to it, for both parties.
    for (const cookie of [g.cookie, t.cookie]) {
      const again = await server.request(`/chat/new?orderId=${order.id}`, { cookie });
      expect(again.status).toBe(302);
      expect(location(again)).toBe(`/chat/${chatId}#chat-end`);
    }
    expect((await server.request(`/chat/${chatId}`, { cookie: t.cookie })).text).toContain('您好，我是明天的導遊');

    const stranger = await loginAs(await createGuide());
    expect((await server.request(`/chat/new?orderId=${order.id}`, { cookie: stranger.cookie })).status).toBe(404);
    expect((await form(`/chat/new?orderId=${order.id}`, stranger.cookie, { orderId: String(order.id), message: 'hi' })).status).toBe(404);
    // Access first: an empty message from a stranger is still the 404 page, not "enter a message".
    expect((await form(`/chat/new?orderId=${order.id}`, stranger.cookie, { orderId: String(order.id), message: '' })).status).toBe(404);
    expect((await server.request('/api/v1/chats', { token: stranger.token, json: { orderId: order.id, message: 'hi' } })).status).toBe(404);
  });

  it('POST /api/v1/chats {orderId}: the guide of the order opens the conversation (201), again 200', async () => {
    const { order, g } = await pair();
    const first = await server.request('/api/v1/chats', { token: g.token, json: { orderId: order.id, message: '您好' } });
    expect(first.status).toBe(201);
    await expectContract(server, 'POST', '/api/v1/chats', first);
    expect(first.json.data.chat.orderId).toBe(order.id);
    const second = await server.request('/api/v1/chats', { token: g.token, json: { orderId: order.id, message: '還在嗎？' } });
    expect(second.status).toBe(200);
    expect(second.json.data.chat.id).toBe(first.json.data.chat.id);
  });

  it('blocking asks first; a message the block refused comes back with its text and says the conversation is closed', async () => {
    const { chatId, g, t } = await chatWithMessage();
    const asked = await form(`/chat/${chatId}`, g.cookie, { intent: 'block' });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('封鎖這段對話？');
    expect(asked.text).toContain('旅客小美 無法再傳訊息給你');
    expect((await getDb().select().from(chats).where(eq(chats.id, chatId)))[0]!.blockedBy).toBeNull();
    const done = await form(`/chat/${chatId}`, g.cookie, { intent: 'block', confirmed: 'yes' });
    expect(done.status).toBe(302);
    expect((await getDb().select().from(chats).where(eq(chats.id, chatId)))[0]!.blockedBy).not.toBeNull();

    const refused = await form(`/chat/${chatId}`, t.cookie, { intent: 'send', text: '那我幾點到比較好？', clientId: crypto.randomUUID() });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('這段對話已關閉');
    expect(refused.text).not.toContain('傳送失敗');
    expect(refused.text).toMatch(/<textarea[^>]*>那我幾點到比較好？<\/textarea>/);
    // The API says the same, in words.
    const api = await server.request(`/api/v1/chats/${chatId}/messages`, { token: t.token, json: { text: '嗨', clientId: crypto.randomUUID() } });
    expect(api.status).toBe(403);
    expect(api.json.message).toContain('這段對話已關閉');
  });

  it('reporting asks for a reason, once per message and reporter; the page then says 已檢舉; the queue shows the reason', async () => {
    const { chatId, messageId, t } = await chatWithMessage();
    const before = await server.request(`/chat/${chatId}`, { cookie: t.cookie });
    expect(before.text).toMatch(/<button[^>]*value="report"[^>]*>檢舉<\/button>/);
    const asked = await form(`/chat/${chatId}`, t.cookie, { intent: 'report', messageId: String(messageId) });
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('檢舉這則訊息');
    expect(asked.text).toContain('要求私下聯絡或在平台外付款');
    expect(await getDb().select().from(chatMessageReports)).toEqual([]);

    const noReason = await form(`/chat/${chatId}`, t.cookie, { intent: 'reportConfirm', messageId: String(messageId) });
    expect(noReason.status).toBe(400);
    expect(noReason.text).toContain('請選擇檢舉原因');
    const otherWithoutWords = await form(`/chat/${chatId}`, t.cookie, { intent: 'reportConfirm', messageId: String(messageId), reasonCode: 'other' });
    expect(otherWithoutWords.status).toBe(400);
    expect(otherWithoutWords.text).toContain('選擇「其他」時，請寫下原因');

    const sent = await form(`/chat/${chatId}`, t.cookie, { intent: 'reportConfirm', messageId: String(messageId), reasonCode: 'offPlatform', reason: '要我加 LINE' });
    expect(sent.status).toBe(302);
    const again = await form(`/chat/${chatId}`, t.cookie, { intent: 'reportConfirm', messageId: String(messageId), reasonCode: 'spam' });
    expect(again.status).toBe(302);
    const api = await server.request(`/api/v1/messages/${messageId}/report`, { token: t.token, json: { reasonCode: 'harassment' } });
    expect(api.status).toBe(200);
    await expectContract(server, 'POST', '/api/v1/messages/{id}/report', api);
    const rows = await getDb().select().from(chatMessageReports).where(eq(chatMessageReports.messageId, messageId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reasonCode: 'offPlatform', reason: '要我加 LINE' });

    const after = await server.request(`/chat/${chatId}`, { cookie: t.cookie });
    expect(after.text).not.toMatch(/value="report"/);
    expect(after.text).toContain('已檢舉');

    const admin = await loginAs(await createUser({ type: 'admin' }));
    const queue = await server.request('/admin/reports', { cookie: admin.cookie });
    expect(queue.text.replaceAll('<!-- -->', '')).toContain('原因：要求私下聯絡或在平台外付款 · 說明：「要我加 LINE」');
    expect(queue.text).not.toContain('未填寫原因');
    const ja = await server.request('/admin/reports', { cookie: admin.cookie, headers: { 'accept-language': 'ja' } });
    expect(ja.text).not.toContain('報告');
  });

  it('the API report: "other" needs words; an unknown reason is refused; a body from before reasons is kept with its words', async () => {
    const { messageId, chatId, t, g } = await chatWithMessage();
    const other = await server.request(`/api/v1/messages/${messageId}/report`, { token: t.token, json: { reasonCode: 'other' } });
    expect(other.status).toBe(400);
    expect(other.json.errors.reason).toEqual(['選擇「其他」時，請寫下原因']);
    expect((await server.request(`/api/v1/messages/${messageId}/report`, { token: t.token, json: { reasonCode: 'rude' } })).status).toBe(400);
    const legacy = await server.request(`/api/v1/messages/${messageId}/report`, { token: t.token, json: { reason: '要求私下付款' } });
    expect(legacy.status).toBe(200);
    const [row] = await getDb()
      .select()
      .from(chatMessageReports)
      .where(and(eq(chatMessageReports.messageId, messageId)));
    expect(row).toMatchObject({ reasonCode: null, reason: '要求私下付款' });
    // One's own message cannot be reported.
    const own = (await server.request(`/api/v1/chats/${chatId}/messages`, { token: t.token, json: { text: '好', clientId: crypto.randomUUID() } })).json.data.message.id;
    expect((await server.request(`/api/v1/messages/${own}/report`, { token: t.token, json: { reasonCode: 'spam' } })).status).toBe(403);
    expect((await server.request(`/api/v1/messages/${own}/report`, { token: g.token, json: { reasonCode: 'spam' } })).status).toBe(200);
  });
});
