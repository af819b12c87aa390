import type http from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import { Server, type Socket } from 'socket.io';
import { parseSessionCookie } from './session.server';
import { isSameOrigin } from '~/lib/same-origin';
import { logError } from '~/services/platform/log.server';
import { realtimeServer, registerRealtimeServer, sessionRoom, userRoom } from '~/services/platform/realtime.server';
import { ipKey } from '~/services/platform/rate-limit.server';
import { getActiveSession, liveSessionIds, type ActiveSession } from '~/services/accounts/sessions.server';
import { verifyToken } from '~/services/accounts/tokens.server';

/**
 * Socket.IO on the same HTTP server (ARCHITECTURE §6 Realtime). A connection is accepted only with a live
 * session: the browser's httpOnly `__session` cookie (same origin, sent with the handshake) or an API bearer
 * token (`auth.token`, the `token` query parameter as SPEC §7 has it, or an Authorization header). Anything
 * else is refused with the connect_error `UNAUTHORIZED`.
 *
 * An accepted socket sits in two rooms: `user_{id}` (events for that person reach every open tab) and
 * `session_{sid}` (revoking that session — logout, blocking — drops exactly its sockets). With REDIS_URL the
 * rooms span every instance through the Redis adapter, so an emit or a disconnect on one instance reaches a
 * tab connected to another. The services emit and disconnect through app/services/platform/realtime.server.ts, where
 * this server registers itself on start.
 *
 * A socket lives no longer than its session (docs/decisions/035): ending a session drops its sockets at once
 * (the `session_{sid}` room), and every SESSION_CHECK_MS each instance asks which of its sockets' sessions are
 * still live and drops the rest (an expired session, or a revoke whose disconnect this instance missed). Each
 * instance holds at most MAX_SOCKETS_PER_ADDRESS sockets per client address (checked first, before the
 * credentials cost a query) and MAX_SOCKETS_PER_USER per account; a handshake beyond is refused with the
 * connect_error `TOO_MANY_CONNECTIONS`.
 */
/** Open sockets one account may hold on one instance (a person's tabs and devices). */
export const MAX_SOCKETS_PER_USER = 20;
/** Open sockets one client address may hold on one instance (a hotel lobby or a carrier's NAT shares one). */
export const MAX_SOCKETS_PER_ADDRESS = 100;
/** How often an instance checks that its sockets' sessions are still live. */
export const SESSION_CHECK_MS = 60_000;

export interface RealtimeOptions {
  redisUrl?: string;
  /**
   * Which hops may name the client in X-Forwarded-For: Express's compiled `trust proxy` (TRUST_PROXY), so a
   * socket's address is the request's `req.ip`. Without it the peer address counts.
   */
  trustProxy?: (address: string, hop: number) => boolean;
  maxSocketsPerUser?: number;
  maxSocketsPerAddress?: number;
  sessionCheckMs?: number;
}

/** The client event of SPEC §7 Realtime; the server has already put the socket in its room, this only confirms. */
export const JOIN_USER_ROOM = 'join_user_room';

export interface SocketIdentity {
  userId: number;
  sessionId: string;
}

export type JoinAck = { ok: true; room: string } | { ok: false; code: 'FORBIDDEN' };

export interface Realtime {
  io: Server;
  /** Asks this instance's sockets to reconnect (elsewhere, when it is shutting down); emits still work. */
  dropLocalSockets(): void;
  close(): Promise<void>;
}

type Handshake = Socket['handshake'];

function firstString(value: unknown): string | undefined {
  if (Array.isArray(value)) value = value[0];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/** A bearer token from the handshake: auth.token, ?token=, or an Authorization header (non-browser clients). */
function handshakeToken(handshake: Handshake): string | undefined {
  const auth = (handshake.auth ?? {}) as Record<string, unknown>;
  const header = firstString(handshake.headers.authorization);
  const raw = firstString(auth.token) ?? firstString(handshake.query.token) ?? header;
  return raw?.replace(/^Bearer\s+/i, '');
}

/**
 * The live session behind a handshake, or undefined. Like the HTTP side (app/http/session.server.ts getSession),
 * a token, when given, decides alone: a bad token is not rescued by a cookie.
 */
export async function authenticateHandshake(handshake: Handshake): Promise<ActiveSession | undefined> {
  const token = handshakeToken(handshake);
  let session: ActiveSession | undefined;
  if (token) {
    const payload = verifyToken(token);
    session = payload ? await getActiveSession(payload.sid) : undefined;
  } else {
    // A cookie rides along with any page's request; only our own pages may use it (bearer tokens need no check).
    const headers = handshake.headers;
    if (!isSameOrigin(firstString(headers.origin), firstString(headers['sec-fetch-site']), firstString(headers.host))) return undefined;
    const sid = await parseSessionCookie(firstString(headers.cookie));
    session = sid ? await getActiveSession(sid) : undefined;
  }
  if (!session) return undefined;
  // SPEC §7 has clients send their userId too; one that names somebody else is not who the session says.
  const auth = (handshake.auth ?? {}) as Record<string, unknown>;
  const claimedRaw = auth.userId ?? handshake.query.userId;
  const claimed = typeof claimedRaw === 'number' ? String(claimedRaw) : firstString(claimedRaw);
  if (claimed !== undefined && claimed !== String(session.user.id)) return undefined;
  return session;
}

function refuse(code: 'UNAUTHORIZED' | 'SERVER_ERROR' | 'TOO_MANY_CONNECTIONS'): Error & { data: { code: string } } {
  return Object.assign(new Error(code), { data: { code } });
}

export function identityOf(socket: Socket): SocketIdentity | undefined {
  return (socket.data as { identity?: SocketIdentity }).identity;
}

/** The client's address as Express's `req.ip` finds it: X-Forwarded-For read from the right while `trust` allows. */
export function clientAddress(handshake: Handshake, trust?: RealtimeOptions['trustProxy']): string {
  const peer = handshake.address;
  if (!trust) return peer;
  const forwarded = (firstString(handshake.headers['x-forwarded-for']) ?? '').split(',').map((a) => a.trim()).filter(Boolean);
  const hops = [peer, ...forwarded.reverse()];
  for (let i = 0; i < hops.length - 1; i++) if (!trust(hops[i]!, i)) return hops[i]!;
  return hops[hops.length - 1]!;
}

/** Sockets (open, or in their handshake) per key on this instance. */
class SocketCounts {
  private counts = new Map<string, number>();

  /** Takes a place under `key` when fewer than `cap` are taken: the function that gives it back (once), else undefined. */
  take(key: string, cap: number): (() => void) | undefined {
    const taken = this.counts.get(key) ?? 0;
    if (taken >= cap) return undefined;
    this.counts.set(key, taken + 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const left = (this.counts.get(key) ?? 1) - 1;
      if (left > 0) this.counts.set(key, left);
      else this.counts.delete(key);
    };
  }
}

function authenticate(io: Server, options: RealtimeOptions) {
  const perAddress = new SocketCounts();
  const perUser = new SocketCounts();
  const addressCap = options.maxSocketsPerAddress ?? MAX_SOCKETS_PER_ADDRESS;
  const userCap = options.maxSocketsPerUser ?? MAX_SOCKETS_PER_USER;

  io.use((socket, next) => {
    const releaseAddress = perAddress.take(ipKey(clientAddress(socket.handshake, options.trustProxy)), addressCap);
    if (!releaseAddress) return next(refuse('TOO_MANY_CONNECTIONS'));
    let releaseUser: (() => void) | undefined;
    const release = () => {
      releaseAddress();
      releaseUser?.();
    };
    const done = (error?: Error) => {
      if (error) release();
      else socket.once('disconnect', release);
      next(error);
      // A socket whose client left during the handshake never connects and never disconnects; Socket.IO
      // connects an accepted one on the next tick, so by the time this runs it is connected or never will be.
      if (!error) setImmediate(() => socket.connected || release());
    };
    authenticateHandshake(socket.handshake).then(
      (session) => {
        if (!session) return done(refuse('UNAUTHORIZED'));
        releaseUser = perUser.take(String(session.user.id), userCap);
        if (!releaseUser) return done(refuse('TOO_MANY_CONNECTIONS'));
        (socket.data as { identity?: SocketIdentity }).identity = { userId: session.user.id, sessionId: session.id };
        done();
      },
      (error: unknown) => {
        logError('socket.io: authentication failed', error);
        done(refuse('SERVER_ERROR'));
      },
    );
  });

  io.on('connection', (socket) => {
    const identity = identityOf(socket);
    if (!identity) return void socket.disconnect(true);
    void socket.join([userRoom(identity.userId), sessionRoom(identity.sessionId)]);

    // A socket may only (re)join its own room; anything else is answered FORBIDDEN and joins nothing.
    socket.on(JOIN_USER_ROOM, (room: unknown, ack?: unknown) => {
      const own = userRoom(identity.userId);
      const answer: JoinAck = room === own ? { ok: true, room: own } : { ok: false, code: 'FORBIDDEN' };
      if (answer.ok) void socket.join(own);
      if (typeof ack === 'function') ack(answer);
    });

    // The session could have been revoked between the check above and joining its room (the revoke's
    // disconnect would then have missed this socket): look once more now that the socket is reachable.
    getActiveSession(identity.sessionId).then(
      (still) => {
        if (!still) socket.disconnect(true);
      },
      () => undefined,
    );
  });
}

/**
 * Every `everyMs`, drops this instance's sockets whose session is no longer live (expired, revoked, or the
 * account blocked or archived): one query per thousand sessions. Returns the function that stops it.
 */
function checkSessionsPeriodically(io: Server, everyMs: number): () => void {
  let running = false;
  const check = async () => {
    const local = [...io.of('/').sockets.values()];
    const ids = [...new Set(local.map((socket) => identityOf(socket)?.sessionId).filter((id): id is string => Boolean(id)))];
    if (ids.length === 0) return;
    const live = await liveSessionIds(ids);
    for (const socket of local) {
      const id = identityOf(socket)?.sessionId;
      if (id && !live.has(id)) socket.disconnect(true);
    }
  };
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    check()
      .catch((error: unknown) => {
        // The error's text could carry the query's session ids: only its code is logged. The next check retries.
        console.warn(`socket.io: the session check failed (${(error as { code?: string })?.code ?? 'error'})`);
      })
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

export async function attachRealtime(server: http.Server, options: RealtimeOptions = {}): Promise<Realtime> {
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
  authenticate(io, options);
  const stopChecking = checkSessionsPeriodically(io, options.sessionCheckMs ?? SESSION_CHECK_MS);
  registerRealtimeServer(io);
  // Only this instance's sockets (io.disconnectSockets would go through the Redis adapter to every instance),
  // closed at the transport rather than with a disconnect packet: the client sees a lost connection and
  // reconnects by itself, through the proxy, to an instance that is still up.
  const dropLocalSockets = () => {
    for (const socket of io.of('/').sockets.values()) socket.conn.close();
  };
  return {
    io,
    dropLocalSockets,
    async close() {
      // io.close() would also close the HTTP server; shutdown does that itself after in-flight requests.
      stopChecking();
      dropLocalSockets();
      await Promise.all(redisClients.map((c) => c.quit().catch(() => undefined)));
      if (realtimeServer() === io) registerRealtimeServer(undefined);
    },
  };
}
