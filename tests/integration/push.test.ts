import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDatabaseHandle, getDb } from '~db/client';
import { outbox, pushSubscriptions } from '~db/schema';
import { getConfig } from '~/env.server';
import { addDays, todayInTaipei } from '~/lib/dates';
import { startOutboxWorker, type OutboxWorker } from '~/services/jobs/outbox-worker.server';
import { enqueuePushes } from '~/services/messaging/push.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { loginAs } from '../support/api';
import { useTestServer } from '../support/http-server';
import { payOrder } from '../support/payments';
import { startPushService, type PushService } from '../support/push-service';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Web push (issue 23, decision 029) over real HTTP, through the outbox worker, to a real push service running in
 * the test: the payload is encrypted to the subscription's keys and decrypts (http_ece, RFC 8291) to the words
 * in the recipient's language; 404/410 deletes the subscription; other failures are tried again; endpoints
 * that point inside are refused.
 */
useTestDatabase();
const server = useTestServer();

let push: PushService;
let worker: OutboxWorker | undefined;
beforeAll(async () => {
  push = await startPushService();
  return () => push.close();
});
beforeEach(async () => {
  resetRateLimits();
  getConfig().PUSH_ALLOW_PRIVATE_ENDPOINTS = true;
  worker = await startOutboxWorker(getDatabaseHandle(), { pollMs: 50, retryDelayMs: () => 50 });
});
afterEach(async () => {
  await worker?.stop();
  getConfig().PUSH_ALLOW_PRIVATE_ENDPOINTS = false;
  await getDb().delete(outbox);
});

async function subscribe(token: string, path: string) {
  const client = push.client(path);
  const answer = await server.request('/api/v1/push/subscriptions', {
    token,
    headers: { 'user-agent': 'push-test' },
    json: { endpoint: client.endpoint, expirationTime: null, keys: client.keys },
  });
  expect(answer.status).toBe(201);
  return client;
}

async function waitUntil<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const pushRows = () => getDb().select().from(outbox).where(eq(outbox.kind, 'push'));

describe(`web push (${testDriver})`, () => {
  it('gives one public key, generated once and kept', async () => {
    const first = await server.request('/api/v1/push/public-key');
    const second = await server.request('/api/v1/push/public-key');
    expect(first.status).toBe(200);
    expect(first.json.data.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(second.json.data.publicKey).toBe(first.json.data.publicKey);
  });

  it('pushes a booking to the guide in Japanese, encrypted to the browser and signed with the public key', async () => {
    const guide = await createGuide({ locale: 'ja', name: '山田' });
    await createAvailability(guide.id, { from: todayInTaipei(), days: 5, price: 1500 });
    const traveler = await createTraveler({ name: 'Alice' });
    const client = await subscribe((await loginAs(guide)).token, '/send/guide-ja');
    // The same browser again: one subscription, its keys replaced (200).
    const again = await server.request('/api/v1/push/subscriptions', {
      token: (await loginAs(guide)).token,
      json: { endpoint: client.endpoint, keys: client.keys },
    });
    expect(again.status).toBe(200);
    expect(await getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, guide.id))).toHaveLength(1);

    const booked = await server.request('/api/v1/orders', {
      token: (await loginAs(traveler)).token,
      json: { guideId: guide.id, date: addDays(todayInTaipei(), 2), timeSlot: 'morning', numberOfPeople: 2, termsAccepted: true },
    });
    expect(booked.status).toBe(201);
    const orderId = booked.json.data.order.id as number;
    // The guide is told (and pushed) once the booking is paid (issue 32).
    expect(await payOrder(traveler, orderId)).toEqual({ status: 200, body: '1|OK' });

    const received = await push.waitFor('/send/guide-ja');
    expect(client.decrypt(received)).toEqual({
      title: `新しい予約 #${orderId}`,
      body: expect.stringMatching(/^Alice さんが .*を予約しました。承認または辞退してください。$/),
      url: `/orders/${orderId}`,
    });
    const publicKey = (await server.request('/api/v1/push/public-key')).json.data.publicKey as string;
    expect(received.headers.authorization).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${publicKey}$`));
    expect(Number(received.headers.ttl)).toBeGreaterThan(0);
    await waitUntil('sent', pushRows, (rows) => rows.every((r) => r.status === 'sent'));
  });

  it('pushes a notice to every browser of the recipient, one job per browser', async () => {
    const guide = await createGuide({ name: '兩台裝置' });
    await createAvailability(guide.id, { from: todayInTaipei(), days: 5, price: 1500 });
    const traveler = await createTraveler({ name: 'Bob' });
    const guideToken = (await loginAs(guide)).token;
    const laptop = await subscribe(guideToken, '/send/guide-laptop');
    const phone = await subscribe(guideToken, '/send/guide-phone');
    const travelerToken = (await loginAs(traveler)).token;
    const booked = await server.request('/api/v1/orders', {
      token: travelerToken,
      json: { guideId: guide.id, date: addDays(todayInTaipei(), 3), timeSlot: 'evening', numberOfPeople: 1, termsAccepted: true },
    });
    expect(booked.status).toBe(201);
    const orderId = booked.json.data.order.id as number;
    // The guide is told (and pushed) once the booking is paid (issue 32).
    expect(await payOrder(traveler, orderId)).toEqual({ status: 200, body: '1|OK' });
    const expected = { title: `新的預約 #${orderId}`, url: `/orders/${orderId}` };
    expect(laptop.decrypt(await push.waitFor('/send/guide-laptop'))).toMatchObject(expected);
    expect(phone.decrypt(await push.waitFor('/send/guide-phone'))).toMatchObject(expected);
    const rows = await waitUntil('sent', pushRows, (r) => r.length === 2 && r.every((row) => row.status === 'sent'));
    // One job per browser of the guide; the traveler, who has none, has none.
    const subscriptions = await getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, guide.id));
    expect(rows.map((r) => (r.payload as { subscriptionId: number }).subscriptionId).sort()).toEqual(subscriptions.map((s) => s.id).sort());
  });

  it('pushes chat messages to the other participant in their own language, masked until a booking is confirmed', async () => {
    const guide = await createGuide({ locale: 'ja', name: '山田' });
    const traveler = await createTraveler({ name: '小明' }); // zh-TW, the default
    const guideClient = await subscribe((await loginAs(guide)).token, '/send/chat-guide');
    const travelerClient = await subscribe((await loginAs(traveler)).token, '/send/chat-traveler');

    const started = await server.request('/api/v1/chats', {
      token: (await loginAs(traveler)).token,
      json: { guideId: guide.id, message: '可以半天嗎？我的電話 0912-345-678' },
    });
    expect(started.status).toBe(201);
    const chatId = started.json.data.chat.id as number;
    const toGuide = guideClient.decrypt(await push.waitFor('/send/chat-guide')) as { title: string; body: string; url: string };
    expect(toGuide.title).toBe('小明さんから新しいメッセージ');
    expect(toGuide.body).toMatch(/^可以半天嗎？我的電話 /);
    expect(toGuide.body).not.toContain('345');
    expect(toGuide.url).toBe(`/chat/${chatId}`);

    const reply = await server.request(`/api/v1/chats/${chatId}/messages`, {
      token: (await loginAs(guide)).token,
      json: { text: 'はい、大丈夫です', clientId: 'reply-1' },
    });
    expect(reply.status).toBe(201);
    expect(travelerClient.decrypt(await push.waitFor('/send/chat-traveler'))).toEqual({
      title: '山田 傳來新訊息',
      body: 'はい、大丈夫です',
      url: `/chat/${chatId}`,
    });
  });

  it('deletes a subscription the push service answers 410 (or 404) for, and does not try it again', async () => {
    const traveler = await createTraveler();
    const token = (await loginAs(traveler)).token;
    await subscribe(token, '/send/gone');
    await subscribe(token, '/send/unknown');
    push.answer(410);
    // The two rows of one enqueue are sent concurrently: answer by path, not by order.
    push.answer(404);
    await enqueuePushes(traveler.id, { title: 't', body: 'b', url: '/notifications' });
    await push.waitFor('/send/gone');
    await push.waitFor('/send/unknown');
    await waitUntil('deleted', () => getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, traveler.id)), (rows) => rows.length === 0);
    const rows = await waitUntil('done', pushRows, (r) => r.every((row) => row.status === 'sent'));
    expect(rows.map((r) => r.attempts)).toEqual([1, 1]);
    expect(push.received.filter((r) => r.path === '/send/gone')).toHaveLength(1);
  });

  it('tries again after a 500, and the push arrives', async () => {
    const traveler = await createTraveler({ locale: 'en' });
    const client = await subscribe((await loginAs(traveler)).token, '/send/flaky');
    push.answer(500);
    await enqueuePushes(traveler.id, (t) => ({ title: t('push.chat.title', { name: 'Ann' }), body: 'hi', url: '/chat/1' }));
    const failed = await push.waitFor('/send/flaky', 1);
    expect(failed.status).toBe(500);
    const second = await push.waitFor('/send/flaky', 2);
    expect(second.status).toBe(201);
    expect(client.decrypt(second)).toEqual({ title: 'New message from Ann', body: 'hi', url: '/chat/1' });
    const [row] = await waitUntil('sent', pushRows, (r) => r[0]?.status === 'sent');
    expect(row!.attempts).toBe(2);
    expect(await getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, traveler.id))).toHaveLength(1);
  });

  it('refuses endpoints that are not https on a public host (server-side request forgery)', async () => {
    getConfig().PUSH_ALLOW_PRIVATE_ENDPOINTS = false;
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    const keys = push.client('/x').keys;
    for (const endpoint of [
      'http://push.example.com/send/1',
      'https://127.0.0.1/send',
      'https://localhost/send',
      'https://[::1]/send',
      'https://[::ffff:127.0.0.1]/send',
      'https://10.1.2.3/send',
      'https://192.168.1.1/send',
      'https://169.254.169.254/latest/meta-data',
      'https://intranet/send',
      'ftp://push.example.com/send',
      'not a url',
    ]) {
      const answer = await server.request('/api/v1/push/subscriptions', { token, json: { endpoint, keys } });
      expect(answer.status, endpoint).toBe(400);
      expect(answer.json.code).toBe('VALIDATION_ERROR');
      expect(answer.json.errors.endpoint).toHaveLength(1);
    }
    const ok = await server.request('/api/v1/push/subscriptions', { token, json: { endpoint: 'https://push.example.com/send/1', keys } });
    expect(ok.status).toBe(201);
    expect(await getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, traveler.id))).toHaveLength(1);
  });

  it('never posts to a stored endpoint that points inside: the subscription is dropped', async () => {
    const traveler = await createTraveler();
    const client = await subscribe((await loginAs(traveler)).token, '/send/inside');
    getConfig().PUSH_ALLOW_PRIVATE_ENDPOINTS = false;
    await enqueuePushes(traveler.id, { title: 't', body: 'b', url: '/' });
    await waitUntil('dropped', () => getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, client.endpoint)), (r) => r.length === 0);
    expect(push.received.filter((r) => r.path === '/send/inside')).toHaveLength(0);
  });

  it('unsubscribes only the caller’s own subscription, by endpoint; anonymous callers get 401', async () => {
    const owner = await createTraveler();
    const other = await createTraveler();
    const client = await subscribe((await loginAs(owner)).token, '/send/mine');
    const stranger = await server.request('/api/v1/push/subscriptions', {
      method: 'DELETE',
      token: (await loginAs(other)).token,
      json: { endpoint: client.endpoint },
    });
    expect(stranger.status).toBe(200);
    expect(stranger.json.data).toEqual({ deleted: false });
    const ofOwner = () => getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, owner.id));
    expect(await ofOwner()).toHaveLength(1);
    expect((await server.request('/api/v1/push/subscriptions', { method: 'DELETE', json: { endpoint: client.endpoint } })).status).toBe(401);
    expect((await server.request('/api/v1/push/subscriptions', { json: { endpoint: client.endpoint, keys: client.keys } })).status).toBe(401);

    const mine = await server.request('/api/v1/push/subscriptions', {
      method: 'DELETE',
      token: (await loginAs(owner)).token,
      json: { endpoint: client.endpoint },
    });
    expect(mine.json.data).toEqual({ deleted: true });
    expect(await ofOwner()).toHaveLength(0);
  });

  it('keeps one subscription per browser: another account subscribing the same browser takes it over', async () => {
    const first = await createTraveler();
    const second = await createGuide();
    const client = await subscribe((await loginAs(first)).token, '/send/shared-browser');
    const taken = await server.request('/api/v1/push/subscriptions', {
      token: (await loginAs(second)).token,
      json: { endpoint: client.endpoint, keys: client.keys },
    });
    expect(taken.status).toBe(200);
    const rows = await getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.endpoint, client.endpoint));
    expect(rows.map((r) => r.userId)).toEqual([second.id]);
    // The first account's notices no longer reach this browser.
    expect(await enqueuePushes(first.id, { title: 't', body: 'b', url: '/' })).toBe(0);
  });
});
