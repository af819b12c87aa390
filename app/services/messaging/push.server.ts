import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { and, desc, eq, ne, notInArray, Placeholder, sql, type SQL } from 'drizzle-orm';
import type { TFunction } from 'i18next';
import webpush from 'web-push';
import { getDb, type Database } from '~db/client';
import { pushSubscriptions, pushVapidKeys, sessions, users } from '~db/schema';
import { getConfig } from '~/env.server';
import { isLocale, type Locale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import type { PushMessage, PushSubscribeInput, PushSubscriptionListed, PushSubscriptionView } from '~/schemas/push';
import type { Viewer } from '../platform/access.server';
import { AppError } from '../platform/errors.server';
import { enqueue } from '../platform/outbox.server';
import { reserveAttempt, type LimitLog } from '../platform/rate-limit.server';
import { sessionIsLive } from '../accounts/sessions.server';

/**
 * Web push (issue 23, docs/decisions/029).
 *
 * - A browser subscribes with the site's VAPID public key and hands us its PushSubscription; one row per
 *   endpoint (a browser), owned by the last account that subscribed from it, and by the session it did it with
 *   (docs/decisions/035): when that session ends (any logout, a password reset, a block or archive, expiry) the
 *   row goes, and only live sessions of accounts neither blocked nor archived are pushed to. At most
 *   MAX_SUBSCRIPTIONS_PER_USER browsers per account; subscribing is rate limited.
 * - A notice for someone (an order change, a trust decision, a chat message) queues one outbox row per
 *   subscription **in the transaction of the change** (`enqueuePushes`), worded at that moment in the
 *   recipient's language. The outbox worker sends it (`deliverPush`): encrypted to the browser's keys
 *   (aes128gcm, RFC 8291) and signed with VAPID (RFC 8292) by `web-push`, posted by us.
 * - The push service answers 404 or 410 for a subscription that is gone: the row is deleted and the job is done.
 *   Any other failure throws, and the outbox tries again later.
 * - The endpoint is an address the client chose: we post to it only over https, and never to a loopback,
 *   private, link-local or otherwise special address, checked when it is stored and again on the address the
 *   name resolves to when we connect (a name that later points inside is refused then). PUSH_ALLOW_PRIVATE_ENDPOINTS=1
 *   (tests with a local push service) lifts both rules.
 */

/** How long a push service keeps a message for a browser that is offline: a day. */
const TTL_SECONDS = 24 * 60 * 60;
/** The most of a push service's answer we read (its status is what counts; the text only goes to the log). */
const ANSWER_MAX_BYTES = 4_096;
/** A body longer than this is cut (a chat message's first lines are the notification). */
const BODY_MAX = 180;

// ---------------------------------------------------------------------------------------------------------------
// VAPID keys

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY when set; otherwise the pair generated once and kept in the database, where
 * the subscriptions bound to it live too (several instances read the same row; the first insert wins).
 */
export async function vapidKeys(db: Database = getDb()): Promise<VapidKeys> {
  const config = getConfig();
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  const [stored] = await db.select().from(pushVapidKeys).where(eq(pushVapidKeys.id, 1));
  if (stored) return { publicKey: stored.publicKey, privateKey: stored.privateKey };
  const generated = webpush.generateVAPIDKeys();
  await db.insert(pushVapidKeys).values({ id: 1, ...generated }).onConflictDoNothing();
  const [row] = await db.select().from(pushVapidKeys).where(eq(pushVapidKeys.id, 1));
  return { publicKey: row!.publicKey, privateKey: row!.privateKey };
}

/** The key a browser subscribes with (`applicationServerKey`). */
export async function vapidPublicKey(db: Database = getDb()): Promise<{ publicKey: string }> {
  return { publicKey: (await vapidKeys(db)).publicKey };
}

/** Who the push services may contact about our pushes: VAPID_SUBJECT, else the support or admin address. */
function vapidSubject(): string {
  const config = getConfig();
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  const address = config.SUPPORT_EMAIL ?? config.ADMIN_EMAIL;
  if (address) return `mailto:${address}`;
  return config.PUBLIC_URL.startsWith('https://') ? config.PUBLIC_URL : 'mailto:no-reply@example.invalid';
}

// ---------------------------------------------------------------------------------------------------------------
// Endpoints: where we may post (server-side request forgery)

const SPECIAL = new net.BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) SPECIAL.addSubnet(address, prefix, 'ipv4');
for (const [address, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) SPECIAL.addSubnet(address, prefix, 'ipv6');

/** Loopback, private, link-local, shared, documentation, multicast or unspecified: never a push service. */
export function isSpecialAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return SPECIAL.check(address, 'ipv4');
  if (family !== 6) return false;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1, or ::ffff:7f00:1 as a URL writes it) is judged as the
  // IPv4 address it is (net.BlockList judges IPv4 against the IPv6 rules of ::ffff:0:0/96 the same way).
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return SPECIAL.check(dotted[1]!, 'ipv4');
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex) {
    const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
    return SPECIAL.check(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`, 'ipv4');
  }
  return SPECIAL.check(address, 'ipv6');
}

const allowPrivate = () => getConfig().PUSH_ALLOW_PRIVATE_ENDPOINTS;

/** The endpoint as a URL we may post to, or VALIDATION_ERROR on `endpoint`. */
export function checkEndpoint(raw: string): URL {
  const invalid = () => new AppError('VALIDATION_ERROR', { fieldErrors: { endpoint: ['validation.invalid'] } });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid();
  }
  if (url.username || url.password) throw invalid();
  if (allowPrivate()) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid();
    return url;
  }
  if (url.protocol !== 'https:') throw invalid();
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host.endsWith('.internal') || !host.includes('.') && net.isIP(host) === 0) {
    throw invalid();
  }
  if (net.isIP(host) && isSpecialAddress(host)) throw invalid();
  return url;
}

/** A DNS lookup that refuses special addresses: the check is made on the address we actually connect to. */
export const guardedLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    const list = addresses as dns.LookupAddress[];
    const refused = list.find((a) => isSpecialAddress(a.address));
    if (refused || list.length === 0) {
      const denied = Object.assign(new Error(`push endpoint ${hostname} resolves to a refused address ${refused?.address ?? '(none)'}`), { code: 'EPUSHADDRESS' });
      return callback(denied, '', 0);
    }
    if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
    return callback(null, list[0]!.address, list[0]!.family);
  });
};

// ---------------------------------------------------------------------------------------------------------------
// Subscriptions

/** Browsers one account may receive pushes in; a further subscription pushes out the oldest. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;
/** Subscribe calls per account and minute (RATE_WINDOW_SECONDS): a browser subscribes once per press of a button. */
export const SUBSCRIBES_PER_MINUTE = 20;

/** Who subscribes: the session (its id owns the row) and its user. */
export interface Subscriber {
  id: string;
  user: Viewer;
}

/**
 * Stores this browser's subscription for the session. The same endpoint again from the same session (a browser
 * re-subscribing) replaces the keys; from another session (another account, or a new login on that browser) the
 * old row is deleted first and a new one made: a push queued for the old owner names the old row's id, so it
 * finds nothing and is never sent to the browser's new owner. One subscription per browser, at most
 * MAX_SUBSCRIPTIONS_PER_USER per account (the oldest goes), SUBSCRIBES_PER_MINUTE calls (429 beyond).
 */
export async function subscribe(
  session: Subscriber,
  input: PushSubscribeInput,
  userAgent: string | null,
  db: Database = getDb(),
  limits?: LimitLog,
): Promise<{ subscription: PushSubscriptionView; created: boolean }> {
  checkEndpoint(input.endpoint);
  const userId = session.user.id;
  await reserveAttempt([{ key: `push-subscribe:${userId}`, limit: SUBSCRIBES_PER_MINUTE }], undefined, limits);
  const values = {
    userId,
    sessionId: session.id,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    userAgent: userAgent?.slice(0, 400) ?? null,
  };
  return db.transaction(async (tx) => {
    // One subscribe of an account at a time, so two at once cannot both keep the tenth place.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
    const moved = await tx
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.endpoint, input.endpoint), ne(pushSubscriptions.sessionId, session.id)))
      .returning({ id: pushSubscriptions.id });
    const [row] = await tx
      .insert(pushSubscriptions)
      .values(values)
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        // Only this session's own row is left to conflict with, unless another session's subscribe of this very
        // browser committed in between: the last one to subscribe owns it then.
        set: { userId, sessionId: session.id, p256dh: values.p256dh, auth: values.auth, userAgent: values.userAgent, createdAt: sql`now()` },
      })
      // xmax = 0 only for a row this statement inserted (not one it updated).
      .returning({ id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt, inserted: sql<boolean>`(xmax = 0)` });
    const newest = tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
      .limit(MAX_SUBSCRIPTIONS_PER_USER);
    await tx.delete(pushSubscriptions).where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, newest)));
    return {
      subscription: { id: row!.id, endpoint: row!.endpoint, createdAt: row!.createdAt.toISOString() },
      created: Boolean(row!.inserted) && moved.length === 0,
    };
  });
}

/**
 * The caller's browsers, newest first; `thisSession` marks those the caller's own session subscribed. A browser
 * whose subscription ended with an earlier session still has it in the browser: /me shows pushes as on only
 * when this session's row is here, so such a browser is offered to turn them on again.
 */
export async function listSubscriptions(session: Subscriber, db: Database = getDb()): Promise<PushSubscriptionListed[]> {
  const rows = await db
    .select({ id: pushSubscriptions.id, endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt, sessionId: pushSubscriptions.sessionId })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, session.user.id))
    .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id));
  return rows.map((r) => ({ id: r.id, endpoint: r.endpoint, createdAt: r.createdAt.toISOString(), thisSession: r.sessionId === session.id }));
}

/** Forgets the viewer's subscription with this endpoint (another's is left alone, and not revealed). */
export async function unsubscribe(viewer: Viewer, endpoint: string, db: Database = getDb()): Promise<{ deleted: boolean }> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, viewer.id), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return { deleted: rows.length > 0 };
}

/**
 * The condition on a `push_subscriptions` row that a push may go to it: its session is live and its account
 * neither blocked nor archived (`sessionIsLive`). Push jobs are written only for such rows, and the sender asks
 * again at send time.
 */
const isLive = () =>
  sql`exists (select 1 from ${sessions} join ${users} on ${users.id} = ${sessions.userId}
    where ${sessions.id} = ${pushSubscriptions.sessionId} and ${sessionIsLive(sql`now()`)})`;

/** The subscription a queued push names, if it may still be sent to (a session can end after the push was queued). */
export async function liveSubscription(id: number, db: Database = getDb()): Promise<typeof pushSubscriptions.$inferSelect | undefined> {
  const [row] = await db.select().from(pushSubscriptions).where(and(eq(pushSubscriptions.id, id), isLive()));
  return row;
}

// ---------------------------------------------------------------------------------------------------------------
// Sending

interface PushJob extends PushMessage {
  subscriptionId: number;
}

/** A push's body: at most BODY_MAX characters, cut with an ellipsis. */
export const pushBody = (text: string) => (text.length > BODY_MAX ? `${text.slice(0, BODY_MAX - 1)}…` : text);

/**
 * The outbox insert of one push job per live browser of the user (`isLive`; none when they have none), for a
 * statement that writes more (outbox.server `outboxJob`): the message is queued without first reading who has a
 * subscription.
 */
export function pushJobs(userId: number | Placeholder, message: { [K in keyof PushMessage]: PushMessage[K] | Placeholder }): SQL {
  // A placeholder's body (db/prepared.ts) is filled already cut: `pushBody`.
  const body = typeof message.body === 'string' ? pushBody(message.body) : message.body;
  return sql`insert into outbox (kind, payload)
    select 'push', jsonb_build_object('subscriptionId', ${pushSubscriptions.id}, 'title', ${message.title}::text, 'body', ${body}::text, 'url', ${message.url}::text)
    from ${pushSubscriptions} where ${pushSubscriptions.userId} = ${userId} and ${isLive()}`;
}

/**
 * Queues the message for each of the user's live browsers (`isLive`), in `db`'s transaction. `word` is given a
 * translator in the recipient's language (their account's, zh-TW by default); nothing is worded when they have no
 * subscription.
 */
export async function enqueuePushes(
  userId: number,
  word: PushMessage | ((t: TFunction, locale: Locale) => PushMessage),
  db: Database = getDb(),
): Promise<number> {
  const rows = await db
    .select({ id: pushSubscriptions.id, locale: users.locale })
    .from(pushSubscriptions)
    .innerJoin(users, eq(users.id, pushSubscriptions.userId))
    .where(and(eq(pushSubscriptions.userId, userId), isLive()));
  if (rows.length === 0) return 0;
  let message: PushMessage;
  if (typeof word === 'function') {
    const locale: Locale = isLocale(rows[0]!.locale) ? rows[0]!.locale : 'zh-TW';
    message = word(await getFixedT(locale), locale);
  } else message = word;
  for (const row of rows) {
    const job: PushJob = { subscriptionId: row.id, title: message.title, body: pushBody(message.body), url: message.url };
    await enqueue('push', { ...job }, db);
  }
  return rows.length;
}

/** The push service's answer when it is not a success (the outbox logs the message and tries again). */
export class PushSendError extends Error {
  constructor(public readonly statusCode: number, body: string) {
    super(`push service answered ${statusCode}${body ? `: ${body.slice(0, 200)}` : ''}`);
    this.name = 'PushSendError';
  }
}

/**
 * Posts the push and reads the answer, at most ANSWER_MAX_BYTES of it. `signal` (the push lane's deadline, decision
 * 033) bounds all of it, a body trickled a byte at a time included: it destroys the request.
 */
function post(endpoint: URL, headers: Record<string, string | number>, body: Buffer, signal: AbortSignal): Promise<{ status: number; body: string }> {
  const secure = endpoint.protocol === 'https:';
  const request = (secure ? https : http).request;
  return new Promise((resolve, reject) => {
    const req = request(
      endpoint,
      {
        method: 'POST',
        headers,
        ...(allowPrivate() ? {} : { lookup: guardedLookup }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const answer = () => ({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        res.on('data', (chunk: Buffer) => {
          if (size >= ANSWER_MAX_BYTES) return;
          chunks.push(chunk.subarray(0, ANSWER_MAX_BYTES - size));
          size += chunk.length;
          if (size < ANSWER_MAX_BYTES) return;
          // Enough of it: the rest is not read.
          resolve(answer());
          req.destroy();
        });
        res.on('end', () => resolve(answer()));
        res.on('error', reject);
      },
    );
    const cut = () => req.destroy(signal.reason instanceof Error ? signal.reason : new Error('push send aborted'));
    if (signal.aborted) cut();
    else signal.addEventListener('abort', cut, { once: true });
    req.on('close', () => signal.removeEventListener('abort', cut));
    req.on('error', reject);
    req.end(body);
  });
}

/** The outbox worker's sender for 'push' rows; `signal` cuts the send (the push lane's deadline, or a shutdown). */
export async function deliverPush(payload: unknown, signal: AbortSignal, db: Database = getDb()): Promise<void> {
  const job = payload as PushJob;
  const subscription = await liveSubscription(job.subscriptionId, db);
  // Unsubscribed (or answered 410), or its session ended, since it was queued: nothing to send.
  if (!subscription) return;
  let endpoint: URL;
  try {
    endpoint = checkEndpoint(subscription.endpoint);
  } catch {
    // Stored when it was allowed (PUSH_ALLOW_PRIVATE_ENDPOINTS) and refused now: never posted to, and dropped.
    console.warn(`push: subscription #${subscription.id} points to a refused address; deleted`);
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id));
    return;
  }
  const keys = await vapidKeys(db);
  const details = webpush.generateRequestDetails(
    { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
    JSON.stringify({ title: job.title, body: job.body, url: job.url }),
    { vapidDetails: { subject: vapidSubject(), ...keys }, TTL: TTL_SECONDS, urgency: 'normal' },
  );
  const answer = await post(endpoint, details.headers as Record<string, string | number>, details.body, signal);
  if (answer.status >= 200 && answer.status < 300) return;
  if (answer.status === 404 || answer.status === 410) {
    // The browser unsubscribed or the subscription expired: it will never take a push again.
    await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscription.id));
    return;
  }
  throw new PushSendError(answer.status, answer.body);
}
