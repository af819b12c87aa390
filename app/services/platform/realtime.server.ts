/**
 * Realtime delivery for the services (ARCHITECTURE §6 Realtime): rooms `user_{id}` (events for that person reach
 * every open tab) and `session_{sid}` (revoking that session — logout, blocking — drops exactly its sockets).
 * The Socket.IO server itself, with its handshake authentication, is part of the HTTP boundary
 * (app/http/realtime.server.ts) and registers here when it starts; without one, emits are no-ops. This module
 * imports nothing of the app, so sessions.server.ts can use it without a cycle.
 */
import type { Server } from 'socket.io';

const IO_KEY = Symbol.for('lvyou.realtime');
type WithIo = typeof globalThis & { [IO_KEY]?: Server };

export const userRoom = (userId: number) => `user_${userId}`;
export const sessionRoom = (sessionId: string) => `session_${sessionId}`;

/** Called by the socket server when it starts (and with undefined when it closes). */
export function registerRealtimeServer(io: Server | undefined): void {
  (globalThis as WithIo)[IO_KEY] = io;
}

/** The running socket server, if any. */
export function realtimeServer(): Server | undefined {
  return (globalThis as WithIo)[IO_KEY];
}

/** Sends an event to every open tab of one user, on any instance; a no-op when no socket server runs. */
export function emitToUser(userId: number, event: string, payload: unknown): void {
  realtimeServer()?.to(userRoom(userId)).emit(event, payload);
}

/** Drops the sockets opened with these sessions (after logout or blocking), on every instance. */
export function disconnectSessions(sessionIds: string[]): void {
  const io = realtimeServer();
  if (!io || sessionIds.length === 0) return;
  io.in(sessionIds.map(sessionRoom)).disconnectSockets(true);
}
