import type http from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { Server } from 'socket.io';

/**
 * Socket.IO on the same HTTP server. Each signed-in user gets a room `user_{id}` (ARCHITECTURE §6); events
 * for that user are emitted to the room. With REDIS_URL, rooms span every instance through the Redis
 * adapter, so an event raised on one instance reaches a tab connected to another.
 * Sockets are authenticated with the session token once accounts exist; until then a connection joins no
 * room and receives nothing.
 */
const IO_KEY = Symbol.for('lvyou.realtime');
type WithIo = typeof globalThis & { [IO_KEY]?: Server };

export const userRoom = (userId: number) => `user_${userId}`;

export interface Realtime {
  io: Server;
  close(): Promise<void>;
}

export async function attachRealtime(server: http.Server, options: { redisUrl?: string } = {}): Promise<Realtime> {
  const io = new Server(server, { serveClient: false, cors: { origin: false } });
  const redisClients: ReturnType<typeof createClient>[] = [];
  if (options.redisUrl) {
    const pub = createClient({ url: options.redisUrl });
    const sub = pub.duplicate();
    for (const client of [pub, sub]) client.on('error', (error) => console.error('redis (socket.io adapter):', error.message));
    await Promise.all([pub.connect(), sub.connect()]);
    redisClients.push(pub, sub);
    io.adapter(createAdapter(pub, sub));
  }
  (globalThis as WithIo)[IO_KEY] = io;
  return {
    io,
    async close() {
      // io.close() would also close the HTTP server; shutdown does that itself after in-flight requests.
      io.disconnectSockets(true);
      await Promise.all(redisClients.map((c) => c.quit().catch(() => undefined)));
      if ((globalThis as WithIo)[IO_KEY] === io) (globalThis as WithIo)[IO_KEY] = undefined;
    },
  };
}

/** Sends an event to every open tab of one user, on any instance; a no-op when no socket server runs. */
export function emitToUser(userId: number, event: string, payload: unknown): void {
  (globalThis as WithIo)[IO_KEY]?.to(userRoom(userId)).emit(event, payload);
}

export const sessionRoom = (sessionId: string) => `session_${sessionId}`;

/** Drops the sockets opened with these sessions (after logout or blocking), on every instance. */
export function disconnectSessions(sessionIds: string[]): void {
  const io = (globalThis as WithIo)[IO_KEY];
  if (!io || sessionIds.length === 0) return;
  io.in(sessionIds.map(sessionRoom)).disconnectSockets(true);
}
