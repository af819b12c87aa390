import { useRevalidator } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import type { Socket } from 'socket.io-client';
import { useRootData } from '~/lib/root-data';

/**
 * The Socket.IO connection of a logged-in person (SPEC §4 Socket, ARCHITECTURE §6 Realtime).
 * socket.io-client is imported only after hydration and only when someone is logged in, so visitors never
 * download it. The browser's httpOnly session cookie authenticates the handshake (same origin); the server
 * puts the socket in `user_{id}` itself, and join_user_room (SPEC §7) asks it to confirm.
 *
 * Events that change what the root loader shows (the unread count) revalidate the page. Every event is also
 * re-dispatched on window as `realtime:<event>` (detail = payload), so a page can react without a socket of
 * its own.
 */
export const SOCKET_OPTIONS = {
  transports: ['websocket', 'polling'],
  reconnectionAttempts: 5,
  reconnectionDelay: 1000,
  timeout: 20000,
} as const;

export const REALTIME_EVENTS = ['new_notification', 'notification_read', 'order_update', 'order_status_updated', 'new_message', 'message_read'] as const;
// Chat events (issue 23) change the header's unread message count, which the root loader counts.
const REVALIDATING_EVENTS: ReadonlySet<string> = new Set(['new_notification', 'notification_read', 'new_message', 'message_read']);

/**
 * Loads socket.io-client and returns a function that opens a socket to this origin with the options of
 * SPEC §9 (5 reconnects, 1 s apart, 20 s timeout). Loading and connecting are separate so a caller whose
 * component went away meanwhile (React StrictMode runs effects twice in development) never starts one.
 */
export async function loadSocketClient(): Promise<() => Socket> {
  const { io } = await import('socket.io-client');
  return () => io({ ...SOCKET_OPTIONS, transports: [...SOCKET_OPTIONS.transports] });
}

export function RealtimeConnection() {
  const userId = useRootData()?.user?.id;
  const revalidator = useRevalidator();
  // The latest revalidate without reconnecting when its identity changes.
  const revalidate = useRef(revalidator.revalidate);
  revalidate.current = revalidator.revalidate;

  useEffect(() => {
    if (!userId) return;
    let socket: Socket | undefined;
    let closed = false;
    loadSocketClient().then(
      (connect) => {
        if (closed) return;
        const s = connect();
        socket = s;
        let connectedBefore = false;
        s.on('connect', () => {
          s.emit('join_user_room', `user_${userId}`);
          // Pages that keep live state (a conversation) catch up on what they missed while disconnected, and
          // after a reconnect the page's own data (the header's counts) does too.
          window.dispatchEvent(new CustomEvent('realtime:connect'));
          if (connectedBefore && navigator.onLine) revalidate.current();
          connectedBefore = true;
        });
        // Logged only (SPEC §8): the page works without the live updates.
        s.on('connect_error', (error) => console.info('realtime: connection failed:', error.message));
        for (const event of REALTIME_EVENTS) {
          s.on(event, (payload: unknown) => {
            window.dispatchEvent(new CustomEvent(`realtime:${event}`, { detail: payload }));
            // Not while the browser is offline (an event can still come in on a dying connection): the page's data
            // request would fail and replace the page with the error page. The reconnect revalidates instead.
            if (REVALIDATING_EVENTS.has(event) && navigator.onLine) revalidate.current();
          });
        }
      },
      (error: unknown) => console.info('realtime: client failed to load:', error),
    );
    // Back online after a drop: connect again at once. Otherwise a connection that died while offline is noticed only
    // when its heartbeat times out (up to 45 s), or never when the 5 attempts ran out meanwhile; the `connect`
    // handler then lets the page catch up on what it missed.
    let wasOffline = false;
    const onOffline = () => {
      wasOffline = true;
    };
    const onOnline = () => {
      if (!socket || !wasOffline) return;
      wasOffline = false;
      socket.disconnect().connect();
    };
    window.addEventListener('offline', onOffline);
    window.addEventListener('online', onOnline);
    // Logout (the user becomes null) or another account: drop this socket.
    return () => {
      closed = true;
      window.removeEventListener('offline', onOffline);
      window.removeEventListener('online', onOnline);
      socket?.close();
    };
  }, [userId]);

  return null;
}
