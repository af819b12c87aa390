import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { io as connect, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { sessions, users } from '~db/schema';
import { getDb } from '~db/client';
import { attachRealtime, MAX_SOCKETS_PER_USER, type JoinAck, type Realtime, type RealtimeOptions } from '~/http/realtime.server';
import { emitToUser } from '~/services/platform/realtime.server';
import { revokeSession, revokeUserSessions } from '~/services/accounts/sessions.server';
import { signToken } from '~/services/accounts/tokens.server';
import { loginAs } from '../support/api';
import { createGuide, createTraveler, createUser } from '~server/seed/factories';
import { useTestServer } from '../support/http-server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Real Socket.IO servers on real ports, real clients, real sessions in a real database, and (with
 * TEST_REDIS_URL) the real Redis adapter between two instances.
 */
useTestDatabase();
const server = useTestServer();

const redisUrl = process.env.TEST_REDIS_URL;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function startInstance(options: RealtimeOptions = {}): Promise<{ realtime: Realtime; url: string }> {
  const server = http.createServer();
  const realtime = await attachRealtime(server, options);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    await realtime.close();
    await new Promise((resolve) => server.close(resolve));
  });
  return { realtime, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

type Options = Partial<ManagerOptions & SocketOptions>;

function open(url: string, options: Options = {}): Socket {
  const socket = connect(url, { transports: ['websocket'], reconnection: false, timeout: 5_000, ...options });
  cleanup.push(() => void socket.close());
  return socket;
}

/** Resolves once connected; rejects with the server's refusal. */
async function connectWith(url: string, options: Options = {}): Promise<Socket> {
  const socket = open(url, options);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
}

/** The connect_error message the server answers with (fails the test if the socket connects instead). */
async function refusal(url: string, options: Options = {}): Promise<string> {
  const socket = open(url, options);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected, but should have been refused')));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

function nextEvent(socket: Socket, event: string, timeoutMs = 3_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${timeoutMs} ms`)), timeoutMs);
    socket.once(event, (payload: unknown) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

/** Collects every event of one name, to prove later that none arrived. */
function record(socket: Socket, event: string): unknown[] {
  const got: unknown[] = [];
  socket.on(event, (payload: unknown) => got.push(payload));
  return got;
}

const settle = (ms = 250) => new Promise((r) => setTimeout(r, ms));

describe(`realtime (${testDriver})`, () => {
  it('refuses a socket without credentials, with a forged token or cookie, or a revoked session', async () => {
    const { url } = await startInstance();
    const traveler = await createTraveler();
    const login = await loginAs(traveler);

    expect(await refusal(url)).toBe('UNAUTHORIZED');
    expect(await refusal(url, { auth: { token: 'not-a-token' } })).toBe('UNAUTHORIZED');
    const forged = signToken(
      { id: traveler.id, email: traveler.email, type: 'traveler', isEmailVerified: true, isIdVerified: false, sid: login.apiSessionId },
      new Date(Date.now() + 60_000),
      'another-secret-that-is-at-least-32-characters',
    );
    expect(await refusal(url, { auth: { token: forged } })).toBe('UNAUTHORIZED');
    // The cookie's value signed with another secret, and an unsigned session id.
    expect(await refusal(url, { extraHeaders: { cookie: `__session=${login.webSessionId}` } })).toBe('UNAUTHORIZED');
    // A token naming a session that does not exist.
    const ghost = signToken(
      { id: traveler.id, email: traveler.email, type: 'traveler', isEmailVerified: true, isIdVerified: false, sid: 'no-such-session' },
      new Date(Date.now() + 60_000),
    );
    expect(await refusal(url, { auth: { token: ghost } })).toBe('UNAUTHORIZED');

    await revokeSession(login.apiSessionId);
    expect(await refusal(url, { auth: { token: login.token } })).toBe('UNAUTHORIZED');
    // A token decides alone: a bad one is not rescued by a good cookie.
    expect(await refusal(url, { auth: { token: login.token }, extraHeaders: { cookie: login.cookie } })).toBe('UNAUTHORIZED');
    // A blocked account's sessions are dead even before they are revoked.
    await getDb().update(users).set({ blockedAt: new Date() }).where(eq(users.id, traveler.id));
    expect(await refusal(url, { extraHeaders: { cookie: login.cookie } })).toBe('UNAUTHORIZED');
  });

  it('refuses the session cookie from another origin; a bearer token needs no Origin check', async () => {
    const { url } = await startInstance();
    const login = await loginAs(await createTraveler());
    const otherPort = new URL(url);
    otherPort.port = String(Number(otherPort.port) + 1);
    for (const transports of [['websocket'], ['polling']]) {
      expect(await refusal(url, { transports, extraHeaders: { cookie: login.cookie, origin: otherPort.origin } })).toBe('UNAUTHORIZED');
      expect(await refusal(url, { transports, extraHeaders: { cookie: login.cookie, origin: 'https://evil.example' } })).toBe('UNAUTHORIZED');
      expect(await refusal(url, { transports, extraHeaders: { cookie: login.cookie, 'sec-fetch-site': 'cross-site' } })).toBe('UNAUTHORIZED');
    }
    const sameOrigin = await connectWith(url, { extraHeaders: { cookie: login.cookie, origin: new URL(url).origin } });
    expect(sameOrigin.connected).toBe(true);
    sameOrigin.disconnect();
    const bearer = await connectWith(url, { auth: { token: login.token }, extraHeaders: { origin: 'https://evil.example' } });
    expect(bearer.connected).toBe(true);
    bearer.disconnect();
  });

  it('accepts a bearer token or the session cookie and delivers only that user’s events', async () => {
    const { url } = await startInstance();
    const [alice, bob] = [await createTraveler(), await createGuide()];
    const [a, b] = [await loginAs(alice), await loginAs(bob)];

    const byAuth = await connectWith(url, { auth: { token: a.token } });
    const byQuery = await connectWith(url, { query: { token: a.token, userId: String(alice.id) } });
    const byCookie = await connectWith(url, { extraHeaders: { cookie: a.cookie } });
    const byCookiePolling = await connectWith(url, { transports: ['polling'], extraHeaders: { cookie: a.cookie } });
    const bobTab = await connectWith(url, { extraHeaders: { cookie: b.cookie } });
    const bobGot = record(bobTab, 'new_notification');

    const received = Promise.all([byAuth, byQuery, byCookie, byCookiePolling].map((s) => nextEvent(s, 'new_notification')));
    emitToUser(alice.id, 'new_notification', { title: '新訂單' });
    expect(await received).toEqual(Array(4).fill({ title: '新訂單' }));
    await settle();
    expect(bobGot).toEqual([]);

    // And the other way round: Bob's event reaches Bob only.
    const aliceGot = record(byCookie, 'order_update');
    const bobReceives = nextEvent(bobTab, 'order_update');
    emitToUser(bob.id, 'order_update', { id: 9, status: 'confirmed' });
    expect(await bobReceives).toEqual({ id: 9, status: 'confirmed' });
    await settle();
    expect(aliceGot).toEqual([]);
  });

  it('refuses a handshake whose userId names someone else', async () => {
    const { url } = await startInstance();
    const [alice, bob] = [await createTraveler(), await createTraveler()];
    const a = await loginAs(alice);
    expect(await refusal(url, { query: { token: a.token, userId: String(bob.id) } })).toBe('UNAUTHORIZED');
    expect(await refusal(url, { auth: { token: a.token, userId: bob.id } })).toBe('UNAUTHORIZED');
  });

  it('join_user_room: its own room is confirmed, another user’s is refused and joins nothing', async () => {
    const { url } = await startInstance();
    const [alice, bob] = [await createTraveler(), await createTraveler()];
    const socket = await connectWith(url, { extraHeaders: { cookie: (await loginAs(alice)).cookie } });

    const own = (await socket.timeout(3_000).emitWithAck('join_user_room', `user_${alice.id}`)) as JoinAck;
    expect(own).toEqual({ ok: true, room: `user_${alice.id}` });
    const other = (await socket.timeout(3_000).emitWithAck('join_user_room', `user_${bob.id}`)) as JoinAck;
    expect(other).toEqual({ ok: false, code: 'FORBIDDEN' });
    const odd = (await socket.timeout(3_000).emitWithAck('join_user_room', { room: `user_${bob.id}` })) as JoinAck;
    expect(odd).toEqual({ ok: false, code: 'FORBIDDEN' });
    // Without an ack callback it is simply ignored.
    socket.emit('join_user_room', `user_${bob.id}`);

    const got = record(socket, 'new_notification');
    await settle();
    emitToUser(bob.id, 'new_notification', { title: 'for Bob' });
    await settle();
    expect(got).toEqual([]);
    expect(socket.connected).toBe(true);
  });

  it('revoking a session drops its sockets and leaves the user’s other sessions connected', async () => {
    const { url } = await startInstance();
    const traveler = await createTraveler();
    const first = await loginAs(traveler);
    const second = await loginAs(traveler);

    const webTab = await connectWith(url, { extraHeaders: { cookie: first.cookie } });
    const apiClient = await connectWith(url, { auth: { token: first.token } });
    const otherTab = await connectWith(url, { extraHeaders: { cookie: second.cookie } });

    const dropped = nextEvent(webTab, 'disconnect');
    await revokeSession(first.webSessionId); // logout of that browser
    expect(await dropped).toBe('io server disconnect');
    await settle();
    expect(apiClient.connected).toBe(true);
    expect(otherTab.connected).toBe(true);

    // Blocking ends every session of the user, and every socket with them.
    const drops = Promise.all([nextEvent(apiClient, 'disconnect'), nextEvent(otherTab, 'disconnect')]);
    await revokeUserSessions(traveler.id);
    expect(await drops).toEqual(['io server disconnect', 'io server disconnect']);
    const live = await getDb().select().from(sessions).where(eq(sessions.userId, traveler.id));
    expect(live.every((s) => s.revokedAt)).toBe(true);
  });

  it('through the real doors: an API logout drops that session’s sockets, an admin’s block drops the rest', async () => {
    const { url } = await startInstance();
    const traveler = await createTraveler();
    const [phone, laptop] = [await loginAs(traveler), await loginAs(traveler)];
    const phoneSocket = await connectWith(url, { auth: { token: phone.token } });
    const laptopSocket = await connectWith(url, { extraHeaders: { cookie: laptop.cookie } });

    const loggedOut = nextEvent(phoneSocket, 'disconnect');
    expect((await server.request('/api/v1/auth/logout', { method: 'POST', token: phone.token })).status).toBe(200);
    expect(await loggedOut).toBe('io server disconnect');
    expect(laptopSocket.connected).toBe(true);

    const blocked = nextEvent(laptopSocket, 'disconnect');
    const admin = await loginAs(await createUser({ type: 'admin' }));
    expect((await server.request(`/api/v1/users/${traveler.id}/block`, { method: 'POST', token: admin.token })).status).toBe(200);
    expect(await blocked).toBe('io server disconnect');
  });

  it('drops a socket when its session expires, or ends where no disconnect reached this instance', async () => {
    const { url } = await startInstance({ sessionCheckMs: 100 });
    const traveler = await createTraveler();
    const expiring = await loginAs(traveler);
    const revokedQuietly = await loginAs(traveler);
    const staying = await loginAs(traveler);
    const expiringTab = await connectWith(url, { extraHeaders: { cookie: expiring.cookie } });
    const quietTab = await connectWith(url, { auth: { token: revokedQuietly.token } });
    const stayingTab = await connectWith(url, { auth: { token: staying.token } });

    const expired = nextEvent(expiringTab, 'disconnect', 5_000);
    await getDb().update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.id, expiring.webSessionId));
    expect(await expired).toBe('io server disconnect');

    // Revoked by a write that emitted nothing here (an instance without Redis, or a socket that reconnected
    // between a revoke's disconnect and its commit): the periodic check finds it.
    const revoked = nextEvent(quietTab, 'disconnect', 5_000);
    await getDb().update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, revokedQuietly.apiSessionId));
    expect(await revoked).toBe('io server disconnect');
    await settle(300);
    expect(stayingTab.connected).toBe(true);
  });

  it(`refuses a user’s socket beyond ${MAX_SOCKETS_PER_USER} at the handshake, and takes one again after one closes`, async () => {
    const { url } = await startInstance();
    const traveler = await createTraveler();
    const logins = [await loginAs(traveler), await loginAs(traveler)];
    const open: Socket[] = [];
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) {
      const login = logins[i % 2]!;
      open.push(await connectWith(url, i % 3 === 0 ? { extraHeaders: { cookie: login.cookie } } : { auth: { token: login.token } }));
    }
    expect(await refusal(url, { auth: { token: logins[0]!.token } })).toBe('TOO_MANY_CONNECTIONS');
    expect(await refusal(url, { extraHeaders: { cookie: (await loginAs(traveler)).cookie } })).toBe('TOO_MANY_CONNECTIONS');
    // Somebody else is not held back.
    const other = await connectWith(url, { auth: { token: (await loginAs(await createTraveler())).token } });
    expect(other.connected).toBe(true);

    const closed = open.pop()!;
    closed.disconnect();
    // The server frees the place when it sees the close: try until it has (a refusal takes no place).
    const deadline = Date.now() + 5_000;
    let again: Socket | undefined;
    while (!again) {
      again = await connectWith(url, { auth: { token: logins[1]!.token } }).catch((error: Error) => {
        if (error.message !== 'TOO_MANY_CONNECTIONS' || Date.now() > deadline) throw error;
        return settle(100).then(() => undefined);
      });
    }
    expect(again.connected).toBe(true);
    expect(await refusal(url, { auth: { token: logins[0]!.token } })).toBe('TOO_MANY_CONNECTIONS');
  });

  it('refuses sockets beyond the cap per client address, before looking at credentials; proxied clients count apart', async () => {
    const loopback = (address: string) => address === '127.0.0.1' || address === '::ffff:127.0.0.1' || address === '::1';
    const { url } = await startInstance({ maxSocketsPerAddress: 3, trustProxy: loopback });
    const people = [await createTraveler(), await createTraveler(), await createTraveler()];
    const tokens = await Promise.all(people.map(async (p) => (await loginAs(p)).token));
    for (const token of tokens) await connectWith(url, { auth: { token } });
    expect(await refusal(url, { auth: { token: tokens[0]! } })).toBe('TOO_MANY_CONNECTIONS');
    // Refused before the credentials are looked at: a bad token from that address gets the same answer.
    expect(await refusal(url, { auth: { token: 'not-a-token' } })).toBe('TOO_MANY_CONNECTIONS');
    // Through a trusted proxy, each client is its own address.
    const proxied = (address: string) => ({ transports: ['polling'], extraHeaders: { 'x-forwarded-for': address } }) as Options;
    for (let i = 0; i < 3; i++) await connectWith(url, { ...proxied('198.51.100.7'), auth: { token: tokens[i]! } });
    expect(await refusal(url, { ...proxied('198.51.100.7'), auth: { token: tokens[0]! } })).toBe('TOO_MANY_CONNECTIONS');
    const elsewhere = await connectWith(url, { ...proxied('198.51.100.8'), auth: { token: tokens[0]! } });
    expect(elsewhere.connected).toBe(true);
  });

  describe.skipIf(!redisUrl)('two instances through Redis', () => {
    it('reaches a user connected to another instance', async () => {
      const traveler = await createTraveler();
      const login = await loginAs(traveler);
      const a = await startInstance({ redisUrl });
      const tab = await connectWith(a.url, { auth: { token: login.token } });
      await startInstance({ redisUrl }); // the last attached instance is the one emitToUser uses
      await settle(); // let the adapter subscriptions settle

      const received = nextEvent(tab, 'new_notification');
      emitToUser(traveler.id, 'new_notification', { title: '新訂單' });
      expect(await received).toEqual({ title: '新訂單' });
    });

    it('revoking on one instance drops the socket held by the other', async () => {
      const traveler = await createTraveler();
      const login = await loginAs(traveler);
      const a = await startInstance({ redisUrl });
      const b = await startInstance({ redisUrl }); // revokeSession runs through this one (the last attached)
      const onA = await connectWith(a.url, { extraHeaders: { cookie: login.cookie } });
      const onB = await connectWith(b.url, { extraHeaders: { cookie: login.cookie } });
      const otherSession = await connectWith(a.url, { auth: { token: login.token } });
      await settle();

      const drops = Promise.all([nextEvent(onA, 'disconnect'), nextEvent(onB, 'disconnect')]);
      await revokeSession(login.webSessionId);
      expect(await drops).toEqual(['io server disconnect', 'io server disconnect']);
      await settle();
      expect(otherSession.connected).toBe(true);
      expect((await a.realtime.io.fetchSockets()).length).toBe(1);
    });
  });
});
