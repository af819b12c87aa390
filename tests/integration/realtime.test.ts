import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { attachRealtime, emitToUser, userRoom, type Realtime } from '~/services/realtime.server';

/**
 * Real Socket.IO servers on real ports, a real client, and (with TEST_REDIS_URL) the real Redis adapter.
 * Accounts do not exist yet, so the test itself puts the socket in its user room, as login will.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function startInstance(options: { redisUrl?: string } = {}): Promise<{ realtime: Realtime; url: string }> {
  const server = http.createServer();
  const realtime = await attachRealtime(server, options);
  realtime.io.on('connection', (socket) => {
    const userId = Number(socket.handshake.auth.userId);
    if (userId) void socket.join(userRoom(userId));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(async () => {
    await realtime.close();
    await new Promise((resolve) => server.close(resolve));
  });
  return { realtime, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function connectAs(url: string, userId: number): Promise<Socket> {
  const socket = connect(url, { auth: { userId }, transports: ['websocket'], reconnection: false });
  cleanup.push(() => void socket.close());
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return socket;
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

describe('realtime', () => {
  it('delivers an event to every tab of that user and to no one else', async () => {
    const { url } = await startInstance();
    const [tab1, tab2, stranger] = [await connectAs(url, 7), await connectAs(url, 7), await connectAs(url, 8)];
    let strangerGot = false;
    stranger.on('order_update', () => (strangerGot = true));

    const received = Promise.all([nextEvent(tab1, 'order_update'), nextEvent(tab2, 'order_update')]);
    emitToUser(7, 'order_update', { id: 42, status: 'confirmed' });
    expect(await received).toEqual([{ id: 42, status: 'confirmed' }, { id: 42, status: 'confirmed' }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(strangerGot).toBe(false);
  });

  it.skipIf(!redisUrl)('reaches a user connected to another instance through Redis', async () => {
    const a = await startInstance({ redisUrl });
    const tab = await connectAs(a.url, 11);
    await startInstance({ redisUrl }); // the last attached instance is the one emitToUser uses
    await new Promise((r) => setTimeout(r, 200)); // let the adapter subscriptions settle

    const received = nextEvent(tab, 'new_notification');
    emitToUser(11, 'new_notification', { title: '新訂單' });
    expect(await received).toEqual({ title: '新訂單' });
  });
});
