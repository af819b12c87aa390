import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { getDb } from '~db/client';
import { banners, boardPosts, boardReplies, chatMessageReports, chatMessages, chats, favorites, idVerifications, notifications } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { READ_AUDIT_ACTIONS } from '~/services/platform/audit.server';
import { storeBlob } from '~/services/platform/blobs.server';
import { vapidKeys } from '~/services/messaging/push.server';
import {
  createAvailability,
  createCompletedOrder,
  createGuide,
  createOrder,
  createPhoto,
  createReview,
  createTraveler,
  createUser,
} from '~server/seed/factories';
import type { MatrixRole } from '../../../scripts/lib/authorization-roles';
import { loginAs } from '../../support/api';
import type { TestRequestInit } from '../../support/http-server';

/**
 * The seeded world the authorization matrix and the fuzzer ask about (issue 21): one of each role and one of
 * each object, owned as ROLE_MEANING says (scripts/lib/authorization-roles.ts). Sessions are real: a bearer
 * token for /api/v1, a session cookie for pages.
 */
export interface World {
  ids: Record<string, number>;
  credentials: Record<MatrixRole, { token?: string; cookie?: string }>;
}

export async function seedWorld(): Promise<World> {
  const traveler = await createTraveler();
  const otherTraveler = await createTraveler();
  const guide = await createGuide();
  const otherGuide = await createGuide();
  const admin = await createUser({ type: 'admin' });
  const blocked = await createTraveler();
  await createAvailability(guide.id, { from: addDays(todayInTaipei(), 1), days: 14, price: 2000 });
  // The push key pair exists in a running site (made by its first use): GET /api/v1/push/public-key reads it, writes nothing.
  await vapidKeys();
  const order = await createOrder({ travelerId: traveler.id, guideId: guide.id });
  const done = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id });
  const review = await createReview({ orderId: done.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler' });
  const [notification] = await getDb()
    .insert(notifications)
    .values({ userId: traveler.id, type: 'order', title: '新訂單', link: `/orders/${order.id}` })
    .returning();
  const [favorite] = await getDb().insert(favorites).values({ userId: traveler.id, targetId: guide.id }).returning();
  const photo = await createPhoto(guide.id, { status: 'pending_review' });
  const document = await sharp({ create: { width: 64, height: 40, channels: 3, background: '#888' } }).webp().toBuffer();
  const key = await storeBlob(document, 'image/webp', { private: true });
  const [application] = await getDb()
    .insert(idVerifications)
    .values({ userId: guide.id, type: 'national_id', documentKeys: [key, key], status: 'pending' })
    .returning();
  // The conversation of the traveler and the guide, with one message from the traveler. It is already read, so a
  // participant opening /chat/{chat} (which marks messages read) changes nothing.
  const [chat] = await getDb().insert(chats).values({ travelerId: traveler.id, guideId: guide.id, orderId: order.id, lastMessageAt: new Date() }).returning();
  const [message] = await getDb()
    .insert(chatMessages)
    .values({ chatId: chat!.id, senderId: traveler.id, body: '請問可以帶長輩嗎？', clientId: 'world-message', readAt: new Date() })
    .returning();
  const [banner] = await getDb().insert(banners).values({ title: '世界的橫幅', isActive: true, sortOrder: 1 }).returning();
  const [post] = await getDb().insert(boardPosts).values({ authorId: traveler.id, authorName: traveler.name, body: '想找台南一日遊的導遊', city: 'tainan' }).returning();
  // The guide's public reply under that post, and the guide's report of the traveler's message (the admin queue).
  const [reply] = await getDb().insert(boardReplies).values({ postId: post!.id, authorId: guide.id, body: '我可以帶台南一日遊' }).returning();
  const [report] = await getDb().insert(chatMessageReports).values({ messageId: message!.id, reporterId: guide.id, reason: null }).returning();

  const credentials = {} as World['credentials'];
  const people = { traveler, otherTraveler, guide, otherGuide, admin, blocked };
  for (const [role, user] of Object.entries(people)) credentials[role as MatrixRole] = await loginAs(user);
  credentials.visitor = {};
  // Blocked after its sessions were made: what a blocked person still holds.
  await getDb().execute(sql`update users set blocked_at = now() where id = ${blocked.id}`);

  return {
    ids: {
      traveler: traveler.id,
      otherTraveler: otherTraveler.id,
      guide: guide.id,
      otherGuide: otherGuide.id,
      admin: admin.id,
      order: order.id,
      completedOrder: done.id,
      review: review.id,
      notification: notification!.id,
      favorite: favorite!.id,
      photo: photo.id,
      application: application!.id,
      chat: chat!.id,
      message: message!.id,
      post: post!.id,
      banner: banner!.id,
      reply: reply!.id,
      report: report!.id,
    },
    credentials,
  };
}

/** Fills {fixture} placeholders in a URL or a body with the world's ids. */
export function fill<T>(value: T, world: World): T {
  const text = JSON.stringify(value).replace(/"\{(\w+)\}"|\{(\w+)\}/g, (whole, quoted: string | undefined, bare: string | undefined) => {
    const id = world.ids[(quoted ?? bare)!];
    if (id === undefined) return whole;
    return quoted ? String(id) : String(id);
  });
  return JSON.parse(text) as T;
}

/** A role's credentials for a route: the bearer token for /api/, the cookie for pages. */
export function as(world: World, role: MatrixRole, api: boolean): Pick<TestRequestInit, 'token' | 'cookie'> {
  const c = world.credentials[role];
  return api ? { token: c.token } : { cookie: c.cookie };
}

/**
 * Tables a refused request may still write, left out of the "nothing changed" digests of the matrix and the fuzzer:
 * sessions (a page request rolls its session), rate-limit counters (a refusal counts), and the guide view counts
 * (a page shown again after a refused form is a view: docs/decisions/025).
 */
export const VOLATILE_TABLES = ['sessions', 'rate_limits', 'rate_limit_hits', 'guide_view_counts'] as const;

/**
 * A digest of every table, to prove that refused requests changed nothing. Tables a request may touch without
 * changing anything anyone owns are left out: sessions (last seen), rate limits, the cache of search answers; and
 * of audit_logs the rows that record an admin's allowed read (READ_AUDIT_ACTIONS: an export, a conversation, an ID
 * document), which the matrix's admin GETs write.
 */
export async function databaseDigest(skip: readonly string[] = []): Promise<Record<string, string>> {
  const db = getDb();
  const tables = (await db.execute(
    sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { rows: Array<{ table_name: string }> } | Array<{ table_name: string }>;
  const names = (Array.isArray(tables) ? tables : tables.rows).map((r) => r.table_name).filter((n) => !skip.includes(n));
  const out: Record<string, string> = {};
  for (const name of names) {
    const reads = name === 'audit_logs' ? ` where t.action not in (${READ_AUDIT_ACTIONS.map((a) => `'${a}'`).join(', ')})` : '';
    const result = (await db.execute(sql.raw(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h, count(*)::int as n from "${name}" t${reads}`))) as unknown as
      | { rows: Array<{ h: string; n: number }> }
      | Array<{ h: string; n: number }>;
    const row = (Array.isArray(result) ? result : result.rows)[0]!;
    out[name] = `${row.n}:${row.h}`;
  }
  return out;
}
