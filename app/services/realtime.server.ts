import type http from 'node:http';
import { Server } from 'socket.io';

/**
 * Socket.IO on the same HTTP server. Each signed-in user gets a room `user_{id}` (ARCHITECTURE §6); events
 * for that user are emitted to the room. Sockets are authenticated with the session token once accounts
 * exist; until then a connection joins no room and receives nothing.
 */
const IO_KEY = Symbol.for('lvyou.realtime');
type WithIo = typeof globalThis & { [IO_KEY]?: Server };

export const userRoom = (userId: number) => `user_${userId}`;

export function attachRealtime(server: http.Server): Server {
  const io = new Server(server, { serveClient: false, cors: { origin: false } });
  (globalThis as WithIo)[IO_KEY] = io;
  return io;
}

/** Sends an event to every open tab of one user; a no-op when no socket server runs (scripts, tests). */
export function emitToUser(userId: number, event: string, payload: unknown): void {
  (globalThis as WithIo)[IO_KEY]?.to(userRoom(userId)).emit(event, payload);
}
