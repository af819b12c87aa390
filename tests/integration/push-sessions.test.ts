import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDatabaseHandle, getDb } from '~db/client';
import { outbox, pushSubscriptions, sessions, users } from '~db/schema';
import { getConfig } from '~/env.server';
import { writeNotification } from '~/services/messaging/notifications.server';
import { startOutboxWorker, type OutboxWorker } from '~/services/jobs/outbox-worker.server';
import { enqueuePushes, MAX_SUBSCRIPTIONS_PER_USER, SUBSCRIBES_PER_MINUTE } from '~/services/messaging/push.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { mailUnreadMessages, UNREAD_AFTER_MS } from '~/services/messaging/unread-mail.server';
import { setClock } from '~/services/platform/clock.server';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { loginAs } from '../support/api';
import { useTestServer } from '../support/http-server';
import { outboxFor } from '../support/mail';
import { startPushService, type PushClient, type PushService } from '../support/push-service';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Pushes end with the session (issue 31 point 3, docs/decisions/035). A browser's subscription belongs to the
 * session that made it: ending that session through any door (API logout, password reset, an admin's block or
 * archive) deletes it, an expired session's browser is never pushed to (also for a push queued before it
 * expired), a blocked or archived account gets no push and no unread-message mail, a user keeps at most
 * MAX_SUBSCRIPTIONS_PER_USER browsers, and subscribing is rate limited. Real HTTP, the real outbox worker and a
 * real (local) push service.
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
  setClock(undefined);
  getConfig().PUSH_ALLOW_PRIVATE_ENDPOINTS = false;
  await getDb().delete(outbox);
});

let paths = 0;
async function subscribe(token: string, name: string): Promise<PushClient> {
  const client = push.client(`/send/${name}-${++paths}`);
  const answer = await server.request('/api/v1/push/subscriptions', {
    token,
    json: { endpoint: client.endpoint, expirationTime: null, keys: client.keys },
  });
  expect(answer.status, answer.text).toBe(201);
  return client;
}

const pathOf = (client: PushClient) => new URL(client.endpoint).pathname;
const receivedBy = (client: PushClient) => push.received.filter((r) => r.path === pathOf(client));
const subscriptionsOf = (userId: number) => getDb().select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
const pushRows = () => getDb().select().from(outbox).where(eq(outbox.kind, 'push'));

async function waitUntil<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every queued push has been handled by the worker (sent, or found to have nowhere to go). */
const pushesSettled = () => waitUntil('pushes handled', pushRows, (rows) => rows.every((r) => r.status === 'sent' || r.status === 'failed'));

/** A traveler in a conversation with a guide, the traveler's browser subscribed with one session. */
async function travelerInChat() {
  const traveler = await createTraveler({ name: 'Old Browser', locale: 'en' });
  const guide = await createGuide({ name: '導遊' });
  const login = await loginAs(traveler);
  const started = await server.request('/api/v1/chats', { token: login.token, json: { guideId: guide.id, message: 'Hello' } });
  expect(started.status, started.text).toBe(201);
  const browser = await subscribe(login.token, 'traveler');
  const guideToken = (await loginAs(guide)).token;
  let n = 0;
  /** The guide answers in the conversation (a push to the traveler's browsers, with the text). */
  const reply = async () => {
    const sent = await server.request(`/api/v1/chats/${started.json.data.chat.id}/messages`, {
      token: guideToken,
      json: { text: `Secret plan ${++n}`, clientId: `reply-${n}-${Date.now()}` },
    });
    expect(sent.status, sent.text).toBe(201);
  };
  return { traveler, guide, login, browser, reply };
}

async function adminToken() {
  return (await loginAs(await createUser({ type: 'admin' }))).token;
}

describe(`pushes end with the session (${testDriver})`, () => {
  it('API logout: the logged-out browser gets no more pushes; the same account’s other browser still does', async () => {
    const { traveler, login, browser, reply } = await travelerInChat();
    const other = await loginAs(traveler);
    const otherBrowser = await subscribe(other.token, 'traveler-other');

    const out = await server.request('/api/v1/auth/logout', { method: 'POST', token: login.token });
    expect(out.status).toBe(200);
    expect((await subscriptionsOf(traveler.id)).map((s) => s.endpoint)).toEqual([otherBrowser.endpoint]);

    await reply();
    expect(otherBrowser.decrypt(await push.waitFor(pathOf(otherBrowser)))).toMatchObject({ body: 'Secret plan 1' });
    await pushesSettled();
    expect(receivedBy(browser).map((r) => r.path)).toEqual([]);
  });

  it('web logout (POST /logout with the cookie) deletes that browser’s subscription', async () => {
    const traveler = await createTraveler();
    const login = await loginAs(traveler);
    const client = push.client(`/send/web-${++paths}`);
    const subscribed = await server.request('/api/v1/push/subscriptions', { cookie: login.cookie, json: { endpoint: client.endpoint, keys: client.keys } });
    expect(subscribed.status, subscribed.text).toBe(201);
    const out = await server.request('/logout', { method: 'POST', cookie: login.cookie, body: new URLSearchParams() });
    expect(out.status).toBeLessThan(400);
    expect(await subscriptionsOf(traveler.id)).toEqual([]);
  });

  it('password reset: every browser of the account stops getting pushes', async () => {
    const { traveler, browser, reply } = await travelerInChat();
    const asked = await server.request('/api/v1/auth/forgot-password', { json: { email: traveler.email } });
    expect(asked.status).toBe(200);
    const mail = await waitUntil('reset code queued', () => outboxFor(traveler.email), (m) => m.length > 0);
    const code = /\b(\d{6})\b/.exec(mail[0]!.text)![1]!;
    const done = await server.request('/api/v1/auth/reset-password', { json: { email: traveler.email, code, password: 'a-new-password-31' } });
    expect(done.status, done.text).toBe(200);
    expect(await subscriptionsOf(traveler.id)).toEqual([]);

    await reply();
    await pushesSettled();
    expect(receivedBy(browser).map((r) => r.path)).toEqual([]);
  });

  it('admin block: the blocked account’s browser gets no pushes', async () => {
    const { traveler, browser, reply } = await travelerInChat();
    const blocked = await server.request(`/api/v1/users/${traveler.id}/block`, { method: 'POST', token: await adminToken() });
    expect(blocked.status, blocked.text).toBe(200);
    expect(await subscriptionsOf(traveler.id)).toEqual([]);

    await reply();
    await pushesSettled();
    expect(receivedBy(browser).map((r) => r.path)).toEqual([]);
  });

  it('admin archive: the archived account’s browser gets no pushes', async () => {
    const { traveler, browser, reply } = await travelerInChat();
    const archived = await server.request(`/api/v1/users/${traveler.id}`, { method: 'DELETE', token: await adminToken() });
    expect(archived.status, archived.text).toBe(200);
    expect(await subscriptionsOf(traveler.id)).toEqual([]);

    await reply();
    await pushesSettled();
    expect(receivedBy(browser).map((r) => r.path)).toEqual([]);
  });

  it('admin “end all sessions” (the user page’s form): the account’s browsers get no pushes', async () => {
    const { traveler, browser, reply } = await travelerInChat();
    const admin = await loginAs(await createUser({ type: 'admin' }));
    const ended = await server.request(`/admin/users/${traveler.id}`, {
      method: 'POST',
      cookie: admin.cookie,
      body: new URLSearchParams({ intent: 'endSessions', confirmed: 'yes' }),
    });
    expect(ended.status, ended.text).toBe(302);
    expect(await subscriptionsOf(traveler.id)).toEqual([]);

    await reply();
    await pushesSettled();
    expect(receivedBy(browser).map((r) => r.path)).toEqual([]);
  });

  it('an expired session’s browser gets no push, not even one queued while the session was alive', async () => {
    const { traveler, login, browser, reply } = await travelerInChat();
    // Queued while the session lives, with no worker running yet …
    await worker!.stop();
    worker = undefined;
    expect(await enqueuePushes(traveler.id, { title: 'queued', body: 'before expiry', url: '/' })).toBe(1);
    // … then the session runs out (the housekeeping job has not removed it yet).
    await getDb().update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.id, login.apiSessionId));
    worker = await startOutboxWorker(getDatabaseHandle(), { pollMs: 50, retryDelayMs: () => 50 });
    await reply();
    expect(await enqueuePushes(traveler.id, { title: 't', body: 'b', url: '/' })).toBe(0);
    await writeNotification({ userId: traveler.id, type: 'test', title: 't', body: 'b', params: {}, link: '/' });
    await pushesSettled();
    expect(receivedBy(browser).map((r) => r.path)).toEqual([]);
    // Only the push queued before the expiry was ever written; the notice and the reply wrote none.
    expect(await pushRows()).toHaveLength(1);
  });

  it('a blocked or archived account gets no push even while a subscription row is left', async () => {
    for (const change of [{ blockedAt: new Date() }, { deletedAt: new Date() }]) {
      const traveler = await createTraveler();
      const browser = await subscribe((await loginAs(traveler)).token, 'left');
      // Set directly, as a path that forgot to end the sessions would.
      await getDb().update(users).set(change).where(eq(users.id, traveler.id));
      expect(await enqueuePushes(traveler.id, { title: 't', body: 'b', url: '/' })).toBe(0);
      await writeNotification({ userId: traveler.id, type: 'test', title: 't', body: 'b', params: {}, link: '/' });
      expect(await pushRows()).toEqual([]);
      expect(receivedBy(browser).map((r) => r.path)).toEqual([]);
    }
  });

  it('a blocked or archived account gets no unread-message mail', async () => {
    const t0 = new Date('2026-12-03T02:00:00Z');
    for (const change of [{ blockedAt: new Date(), status: 'suspended' as const }, { deletedAt: new Date() }]) {
      setClock(t0);
      const traveler = await createTraveler({ locale: 'en' });
      const guide = await createGuide();
      const started = await server.request('/api/v1/chats', { token: (await loginAs(traveler)).token, json: { guideId: guide.id, message: 'Hi' } });
      const reply = await server.request(`/api/v1/chats/${started.json.data.chat.id}/messages`, {
        token: (await loginAs(guide)).token,
        json: { text: 'Unread answer', clientId: `unread-${Date.now()}` },
      });
      expect(reply.status).toBe(201);
      await getDb().update(users).set(change).where(eq(users.id, traveler.id));
      setClock(new Date(t0.getTime() + UNREAD_AFTER_MS + 60_000));
      await mailUnreadMessages();
      expect(await outboxFor(traveler.email)).toEqual([]);
    }
  });

  it(`keeps at most ${MAX_SUBSCRIPTIONS_PER_USER} browsers per account: the oldest goes`, async () => {
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    const browsers: PushClient[] = [];
    for (let i = 0; i <= MAX_SUBSCRIPTIONS_PER_USER; i++) browsers.push(await subscribe(token, `many-${i}`));
    const left = await subscriptionsOf(traveler.id);
    expect(left).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
    expect(left.map((s) => s.endpoint).sort()).toEqual(browsers.slice(1).map((b) => b.endpoint).sort());
  });

  it.skipIf(testDriver !== 'pg')(`holds ${MAX_SUBSCRIPTIONS_PER_USER} under concurrent subscribes (PostgreSQL, separate connections)`, async () => {
    for (let round = 0; round < 5; round++) {
      resetRateLimits();
      const traveler = await createTraveler();
      const tokens = await Promise.all(Array.from({ length: 4 }, async () => (await loginAs(traveler)).token));
      const answers = await Promise.all(
        Array.from({ length: MAX_SUBSCRIPTIONS_PER_USER + 6 }, (_, i) => {
          const client = push.client(`/send/race-${round}-${i}-${++paths}`);
          return server.request('/api/v1/push/subscriptions', { token: tokens[i % 4]!, json: { endpoint: client.endpoint, keys: client.keys } });
        }),
      );
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
      expect(await subscriptionsOf(traveler.id)).toHaveLength(MAX_SUBSCRIPTIONS_PER_USER);
    }
  });

  it('rate limits subscribing: 429 RATE_LIMIT_EXCEEDED with Retry-After', async () => {
    const traveler = await createTraveler();
    const { token } = await loginAs(traveler);
    const client = push.client(`/send/again-${++paths}`);
    const body = { endpoint: client.endpoint, keys: client.keys };
    for (let i = 0; i < SUBSCRIBES_PER_MINUTE; i++) {
      const answer = await server.request('/api/v1/push/subscriptions', { token, json: body });
      expect(answer.status).toBeLessThan(300);
    }
    const refused = await server.request('/api/v1/push/subscriptions', { token, json: body });
    expect(refused.status).toBe(429);
    expect(refused.json).toMatchObject({ success: false, code: 'RATE_LIMIT_EXCEEDED' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another account is not held back.
    const other = push.client(`/send/other-${++paths}`);
    const fine = await server.request('/api/v1/push/subscriptions', {
      token: (await loginAs(await createTraveler())).token,
      json: { endpoint: other.endpoint, keys: other.keys },
    });
    expect(fine.status).toBe(201);
  });

  it('lists the caller’s browsers and marks the one this session subscribed (/me shows pushes on only then)', async () => {
    const traveler = await createTraveler();
    const [laptop, phone] = [await loginAs(traveler), await loginAs(traveler)];
    const laptopBrowser = await subscribe(laptop.token, 'list-laptop');
    const phoneBrowser = await subscribe(phone.token, 'list-phone');
    await subscribe((await loginAs(await createTraveler())).token, 'list-stranger');
    const listed = await server.request('/api/v1/push/subscriptions', { token: laptop.token });
    expect(listed.status).toBe(200);
    expect(listed.json.data.subscriptions.map((s: { endpoint: string; thisSession: boolean }) => [s.endpoint, s.thisSession])).toEqual([
      [phoneBrowser.endpoint, false],
      [laptopBrowser.endpoint, true],
    ]);
    // A new login in the laptop's browser: its old subscription ended with the old session, so nothing is this session's.
    expect((await server.request('/api/v1/auth/logout', { method: 'POST', token: laptop.token })).status).toBe(200);
    const again = await server.request('/api/v1/push/subscriptions', { token: (await loginAs(traveler)).token });
    expect(again.json.data.subscriptions.map((s: { endpoint: string; thisSession: boolean }) => [s.endpoint, s.thisSession])).toEqual([
      [phoneBrowser.endpoint, false],
    ]);
    expect((await server.request('/api/v1/push/subscriptions')).status).toBe(401);
  });

  it('a browser another account takes over never gets the first account’s queued pushes', async () => {
    const first = await createTraveler();
    const second = await createTraveler();
    const client = await subscribe((await loginAs(first)).token, 'shared');
    await worker!.stop();
    worker = undefined;
    expect(await enqueuePushes(first.id, { title: 'for first', body: 'private', url: '/' })).toBe(1);
    const taken = await server.request('/api/v1/push/subscriptions', { token: (await loginAs(second)).token, json: { endpoint: client.endpoint, keys: client.keys } });
    expect(taken.status).toBe(200);
    worker = await startOutboxWorker(getDatabaseHandle(), { pollMs: 50, retryDelayMs: () => 50 });
    await pushesSettled();
    expect(receivedBy(client).map((r) => r.path)).toEqual([]);
  });
});
