import { and, count, desc, eq, gt, gte, inArray, isNull, lt, max, min, ne, or, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { boardPosts, chatMessageReports, chatMessages, chats, orders, users } from '~db/schema';
import type { ChatReportReason } from '~/lib/chat-report-reasons';
import { maskContacts } from '~/lib/contact-mask';
import {
  CHAT_EVENTS,
  type ChatMessageView,
  type ChatStart,
  type ChatStartFromPost,
  type ChatSummary,
  type MessageListQuery,
  type MessageReadEvent,
} from '~/schemas/chat';
import { recordAudit } from '../platform/audit.server';
import { blobUrl } from '../platform/blobs.server';
import { pairKey, pairsShowingContacts } from './contact-visibility.server';
import { now } from '../platform/clock.server';
import { AppError, idParamOr } from '../platform/errors.server';
import { reserveAttempt, type LimitLog } from '../platform/rate-limit.server';
import { enqueuePushes } from './push.server';
import { emitToUser } from '../platform/realtime.server';
import { assertAgreedToTerms } from '../accounts/terms.server';

/**
 * Conversations between one traveler and one guide (issue 23, docs/decisions/022-chat-delivery.md).
 *
 * - Only the two participants read a conversation; admins read any; everyone else gets NOT_FOUND (its existence
 *   is not revealed).
 * - A message is committed before it is emitted (`new_message` to both participants' rooms `user_{id}`, on every
 *   instance through the Redis adapter). Messages of one conversation are inserted under a lock on its row, so
 *   their ids rise in commit order and a client that asks for the messages `after` the last id it has misses none.
 * - The sender's client id is unique per sender: sending the same one again answers the stored message.
 * - Until the traveler has a confirmed (or completed) order with the guide, contact details are masked for both
 *   participants; the stored text is the original, which admins read.
 * - Every read of a conversation by an admin who takes no part in it writes an audit row `chat.read` (issue 31).
 */
export const MESSAGES_PER_MINUTE = 20;
export const NEW_CHATS_PER_HOUR = 5;

type Viewer = { id: number; type: 'traveler' | 'guide' | 'admin'; isEmailVerified: boolean };
type ChatRow = typeof chats.$inferSelect;
type MessageRow = typeof chatMessages.$inferSelect;

/** A chat id from a URL segment; anything that is not an id is NOT_FOUND. */
export const chatIdParam = (raw: string | undefined): number => idParamOr('NOT_FOUND', raw);

function isParticipant(chat: ChatRow, userId: number): boolean {
  return chat.travelerId === userId || chat.guideId === userId;
}

/** The conversation if the viewer may read it (a participant, or an admin), else NOT_FOUND. */
async function readable(viewer: Viewer, chatId: number, db: Database): Promise<ChatRow> {
  const [chat] = await db.select().from(chats).where(eq(chats.id, chatId));
  if (!chat || (!isParticipant(chat, viewer.id) && viewer.type !== 'admin')) throw new AppError('NOT_FOUND');
  return chat;
}

/** Access first (404 before 400): throws NOT_FOUND unless the viewer may read this conversation. */
export async function assertChatReadable(viewer: Viewer, chatId: number, db: Database = getDb()): Promise<void> {
  await readable(viewer, chatId, db);
}

/** Access first for a report: throws NOT_FOUND unless the message is in a conversation the viewer may read. */
export async function assertMessageReadable(viewer: Viewer, messageId: number, db: Database = getDb()): Promise<void> {
  const [message] = await db.select({ chatId: chatMessages.chatId }).from(chatMessages).where(eq(chatMessages.id, messageId));
  if (!message) throw new AppError('NOT_FOUND');
  await readable(viewer, message.chatId, db);
}

/** The conversations among these whose pair has a confirmed or completed order: their contacts show. */
async function unmaskedChatIds(rows: ChatRow[], db: Database): Promise<Set<number>> {
  const shown = await pairsShowingContacts(rows, db);
  return new Set(rows.filter((c) => shown.has(pairKey(c))).map((c) => c.id));
}

/** Whether contact details are masked in this conversation now. */
export async function isMasking(chat: ChatRow, db: Database = getDb()): Promise<boolean> {
  return !(await unmaskedChatIds([chat], db)).has(chat.id);
}

/** A message as a reader sees it: masked while the booking is not confirmed; admins read the original. */
export function toMessageView(row: MessageRow, masking: boolean, admin = false): ChatMessageView {
  const hidden = row.hiddenAt !== null;
  const shown = hidden && !admin ? { text: '', masked: false } : masking ? maskContacts(row.body) : { text: row.body, masked: false };
  return {
    id: row.id,
    chatId: row.chatId,
    senderId: row.senderId,
    clientId: row.clientId,
    text: shown.text,
    masked: shown.masked,
    hidden,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt?.toISOString() ?? null,
  };
}

/** Unread messages sent to this person, over all their conversations (the header count). */
export async function countUnreadMessages(userId: number, db: Database = getDb()): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(chatMessages)
    .innerJoin(chats, eq(chats.id, chatMessages.chatId))
    .where(
      and(
        or(eq(chats.travelerId, userId), eq(chats.guideId, userId)),
        ne(chatMessages.senderId, userId),
        isNull(chatMessages.readAt),
      ),
    );
  return row?.n ?? 0;
}

/** The participant the viewer talks to; for an admin reading, the guide. */
function otherParty(chat: ChatRow, viewerId: number): number {
  return chat.guideId === viewerId ? chat.travelerId : chat.guideId;
}

async function summaries(viewer: Viewer, rows: ChatRow[], db: Database): Promise<ChatSummary[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((c) => c.id);
  const partyIds = [...new Set(rows.map((c) => otherParty(c, viewer.id)))];
  const [people, lasts, unread, unmasked] = await Promise.all([
    db.select({ id: users.id, name: users.name, avatarKey: users.avatarKey, type: users.type }).from(users).where(inArray(users.id, partyIds)),
    db
      .select()
      .from(chatMessages)
      .where(inArray(chatMessages.id, db.select({ id: max(chatMessages.id) }).from(chatMessages).where(inArray(chatMessages.chatId, ids)).groupBy(chatMessages.chatId))),
    db
      .select({ chatId: chatMessages.chatId, n: count() })
      .from(chatMessages)
      .where(and(inArray(chatMessages.chatId, ids), ne(chatMessages.senderId, viewer.id), isNull(chatMessages.readAt)))
      .groupBy(chatMessages.chatId),
    unmaskedChatIds(rows, db),
  ]);
  const person = new Map(people.map((p) => [p.id, p]));
  const last = new Map(lasts.map((m) => [m.chatId, m]));
  const unreadBy = new Map(unread.map((u) => [u.chatId, u.n]));
  return rows.map((chat) => {
    const participant = isParticipant(chat, viewer.id);
    const other = person.get(otherParty(chat, viewer.id))!;
    const masking = participant && !unmasked.has(chat.id);
    const lastRow = last.get(chat.id);
    const blocked = chat.blockedBy !== null;
    return {
      id: chat.id,
      travelerId: chat.travelerId,
      guideId: chat.guideId,
      orderId: chat.orderId,
      other: { id: other.id, name: other.name, avatar: blobUrl(other.avatarKey), type: other.type },
      lastMessage: lastRow ? toMessageView(lastRow, masking, !participant) : null,
      lastMessageAt: chat.lastMessageAt?.toISOString() ?? null,
      unreadCount: participant ? (unreadBy.get(chat.id) ?? 0) : 0,
      masking: !unmasked.has(chat.id),
      blocked,
      canSend: participant && (!blocked || chat.blockedBy === viewer.id),
    };
  });
}

/** The viewer's conversations, newest activity first, with the unread total. */
export async function listChats(viewer: Viewer, db: Database = getDb()) {
  const rows = await db
    .select()
    .from(chats)
    .where(or(eq(chats.travelerId, viewer.id), eq(chats.guideId, viewer.id)))
    .orderBy(desc(sql`coalesce(${chats.lastMessageAt}, ${chats.createdAt})`), desc(chats.id))
    .limit(200);
  const list = await summaries(viewer, rows, db);
  return { chats: list, unreadCount: list.reduce((n, c) => n + c.unreadCount, 0) };
}

/** Every conversation one user takes part in, for an admin (the admin user page links here). */
export async function listChatsOfUser(admin: Viewer, userId: number, db: Database = getDb()) {
  if (admin.type !== 'admin') throw new AppError('FORBIDDEN');
  const rows = await db
    .select()
    .from(chats)
    .where(or(eq(chats.travelerId, userId), eq(chats.guideId, userId)))
    .orderBy(desc(sql`coalesce(${chats.lastMessageAt}, ${chats.createdAt})`), desc(chats.id));
  return summaries({ ...admin, id: userId }, rows, db);
}

/** An admin read a conversation they take no part in (issue 31): who, which conversation, which messages. */
async function auditAdminRead(viewer: Viewer, chat: ChatRow, read: Record<string, number | undefined>, db: Database): Promise<void> {
  if (isParticipant(chat, viewer.id)) return;
  // A catch-up that found no new message showed nothing.
  if (read.messages === 0) return;
  await recordAudit(
    { actorId: viewer.id, action: 'chat.read', targetType: 'chat', targetId: chat.id, details: { travelerId: chat.travelerId, guideId: chat.guideId, ...read } },
    db,
  );
}

/** One conversation as the viewer sees it (participant or admin), with both parties' names. */
export async function getChat(viewer: Viewer, chatId: number, db: Database = getDb()) {
  const chat = await readable(viewer, chatId, db);
  const [summary] = await summaries(viewer, [chat], db);
  await auditAdminRead(viewer, chat, { lastMessageId: summary!.lastMessage?.id }, db);
  const [traveler, guide] = await Promise.all(
    [chat.travelerId, chat.guideId].map(async (id) => {
      const [row] = await db.select({ id: users.id, name: users.name, avatarKey: users.avatarKey }).from(users).where(eq(users.id, id));
      return { id: row!.id, name: row!.name, avatar: blobUrl(row!.avatarKey) };
    }),
  );
  return { chat: summary!, traveler: traveler!, guide: guide! };
}

/**
 * Messages of a conversation, oldest first: `after` an id (catch-up after a reconnect), `before` an id (the
 * older page), or the newest page. `hasMore` says whether more lie in that direction.
 */
export async function listMessages(viewer: Viewer, chatId: number, query: MessageListQuery, db: Database = getDb()) {
  const chat = await readable(viewer, chatId, db);
  const participant = isParticipant(chat, viewer.id);
  const masking = participant && (await isMasking(chat, db));
  const view = (r: MessageRow) => toMessageView(r, masking, !participant);
  const limit = query.limit;
  let rows: MessageRow[];
  if (query.after !== undefined) {
    rows = await db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.chatId, chatId), gt(chatMessages.id, query.after), query.before ? lt(chatMessages.id, query.before) : undefined))
      .orderBy(chatMessages.id)
      .limit(limit + 1);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    await auditAdminRead(viewer, chat, { messages: page.length, firstMessageId: page[0]?.id, lastMessageId: page.at(-1)?.id }, db);
    return { messages: page.map(view), hasMore };
  }
  rows = await db
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.chatId, chatId), query.before ? lt(chatMessages.id, query.before) : undefined))
    .orderBy(desc(chatMessages.id))
    .limit(limit + 1);
  const hasMore = rows.length > limit;
  const page = rows.slice(0, limit).reverse();
  await auditAdminRead(viewer, chat, { messages: page.length, firstMessageId: page[0]?.id, lastMessageId: page.at(-1)?.id }, db);
  return { messages: page.map(view), hasMore };
}

function emitMessage(chat: ChatRow, view: ChatMessageView): void {
  for (const userId of [chat.travelerId, chat.guideId]) emitToUser(userId, CHAT_EVENTS.newMessage, view);
}

/**
 * Stores one message and then tells both participants. The same client id from the same sender answers the
 * message stored the first time, storing and emitting nothing.
 */
export async function sendMessage(
  sender: Viewer,
  chatId: number,
  input: { text: string; clientId?: string },
  db: Database = getDb(),
  limits?: LimitLog,
): Promise<{ message: ChatMessageView; created: boolean }> {
  const chat = await readable(sender, chatId, db);
  if (!isParticipant(chat, sender.id)) throw new AppError('FORBIDDEN');
  const masking = await isMasking(chat, db);
  if (input.clientId) {
    const [existing] = await db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.senderId, sender.id), eq(chatMessages.clientId, input.clientId)));
    if (existing) {
      if (existing.chatId !== chatId) throw new AppError('VALIDATION_ERROR', { fieldErrors: { clientId: ['validation.invalid'] } });
      return { message: toMessageView(existing, masking), created: false };
    }
  }
  if (!sender.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  await assertAgreedToTerms(sender, db);
  if (chat.blockedBy !== null && chat.blockedBy !== sender.id) throw new AppError('FORBIDDEN', { messageKey: 'chat.errors.blocked' });
  await reserveAttempt([{ key: `chat-send:${sender.id}`, limit: MESSAGES_PER_MINUTE }], undefined, limits);
  const at = now();
  const stored = await db.transaction(async (tx) => {
    // One writer per conversation at a time: ids then rise in commit order (catch-up `after` misses nothing).
    await tx.select({ id: chats.id }).from(chats).where(eq(chats.id, chatId)).for('update');
    const [row] = await tx
      .insert(chatMessages)
      .values({ chatId, senderId: sender.id, body: input.text, clientId: input.clientId ?? null, createdAt: at })
      .onConflictDoNothing({ target: [chatMessages.senderId, chatMessages.clientId] })
      .returning();
    if (!row) return undefined;
    await tx.update(chats).set({ lastMessageAt: at }).where(eq(chats.id, chatId));
    // A web push to the other participant's browsers, with the text as they will read it (masked until a booking
    // is confirmed), queued with the message (decision 029).
    const recipientId = chat.travelerId === sender.id ? chat.guideId : chat.travelerId;
    const [from] = await tx.select({ name: users.name }).from(users).where(eq(users.id, sender.id));
    await enqueuePushes(
      recipientId,
      (t) => ({ title: t('push.chat.title', { name: from?.name ?? '' }), body: toMessageView(row, masking).text, url: `/chat/${chatId}` }),
      tx,
    );
    return row;
  });
  if (!stored) {
    // Two sends of one client id at once: the other one stored it.
    const [existing] = await db
      .select()
      .from(chatMessages)
      .where(and(eq(chatMessages.senderId, sender.id), eq(chatMessages.clientId, input.clientId!)));
    return { message: toMessageView(existing!, masking), created: false };
  }
  const view = toMessageView(stored, masking);
  emitMessage(chat, view);
  return { message: view, created: true };
}

/**
 * Conversations this person opened in the last hour (the first message of the conversation is theirs): a traveler
 * asking guides, a guide writing to board posters. A conversation the other side opened does not count.
 */
async function openedInLastHour(opener: Viewer, db: Database): Promise<{ n: number; oldest: Date | null }> {
  const since = new Date(now().getTime() - HOUR_MS);
  const side = opener.type === 'guide' ? chats.guideId : chats.travelerId;
  const firstSender = sql`(select ${chatMessages.senderId} from ${chatMessages} where ${chatMessages.chatId} = ${chats.id} order by ${chatMessages.id} limit 1)`;
  const [row] = await db
    .select({ n: count(), oldest: min(chats.createdAt) })
    .from(chats)
    .where(and(eq(side, opener.id), gte(chats.createdAt, since), eq(firstSender, opener.id)));
  return { n: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

const HOUR_MS = 3_600_000;

/**
 * The new-conversation limit for the answer's RateLimit-* headers (decision 041): `opened` this hour, the window
 * ending when the oldest of them leaves the hour (an hour from now when there is none).
 */
function noteOpenLimit(log: LimitLog | undefined, openerId: number, opened: number, oldest: Date | null): void {
  if (!log) return;
  const current = now().getTime();
  // The log counts time by the process clock; ours may be moved (tests): keep the distance.
  const resetIn = (oldest ? oldest.getTime() : current) + HOUR_MS - current;
  log.note(`chat-open:${openerId}`, NEW_CHATS_PER_HOUR, opened, Date.now() + resetIn);
}

/**
 * Opens (or reuses) the one conversation of a traveler and a guide, and sends the opener's first message. At most
 * NEW_CHATS_PER_HOUR new conversations an hour per opener; sending follows sendMessage's rules (verified e-mail,
 * 20 a minute, a block by the other side).
 */
async function openChat(
  opener: Viewer,
  pair: { travelerId: number; guideId: number; orderId?: number },
  first: { message: string; clientId?: string },
  db: Database,
  limits?: LimitLog,
) {
  if (!opener.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  await assertAgreedToTerms(opener, db);
  const samePair = and(eq(chats.travelerId, pair.travelerId), eq(chats.guideId, pair.guideId));
  let [chat] = await db.select().from(chats).where(samePair);
  let created = false;
  if (!chat) {
    const opened = await openedInLastHour(opener, db);
    if (opened.n >= NEW_CHATS_PER_HOUR) {
      noteOpenLimit(limits, opener.id, opened.n, opened.oldest);
      throw new AppError('RATE_LIMIT_EXCEEDED', { retryAfter: 3600 });
    }
    [chat] = await db
      .insert(chats)
      .values({ travelerId: pair.travelerId, guideId: pair.guideId, orderId: pair.orderId ?? null, createdAt: now() })
      .onConflictDoNothing({ target: [chats.travelerId, chats.guideId] })
      .returning();
    created = chat !== undefined;
    chat ??= (await db.select().from(chats).where(samePair))[0];
    noteOpenLimit(limits, opener.id, opened.n + (created ? 1 : 0), opened.oldest ?? (created ? chat!.createdAt : null));
  }
  if (pair.orderId !== undefined && chat!.orderId !== pair.orderId) {
    [chat] = await db.update(chats).set({ orderId: pair.orderId }).where(eq(chats.id, chat!.id)).returning();
  }
  const { message } = await sendMessage(opener, chat!.id, { text: first.message, clientId: first.clientId }, db, limits);
  const { chat: summary } = await getChat(opener, chat!.id, db);
  return { chat: summary, message, created };
}

/**
 * A traveler opens (or reopens) the conversation with a guide, from the guide's page or an order, with a first
 * message. At most one conversation exists per pair; an order names it.
 */
export async function startChat(traveler: Viewer, input: ChatStart, db: Database = getDb(), limits?: LimitLog) {
  if (traveler.type !== 'traveler') throw new AppError('FORBIDDEN', { messageKey: 'chat.errors.travelersStart' });
  const [guide] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, input.guideId), eq(users.type, 'guide'), isNull(users.deletedAt)));
  if (!guide) throw new AppError('GUIDE_NOT_FOUND');
  if (input.orderId !== undefined) {
    const [order] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.id, input.orderId), eq(orders.travelerId, traveler.id), eq(orders.guideId, guide.id), isNull(orders.deletedAt)));
    if (!order) throw new AppError('NOT_FOUND');
  }
  return openChat(traveler, { travelerId: traveler.id, guideId: guide.id, orderId: input.orderId }, input, db, limits);
}

/**
 * The order's other party and the conversation the two already have, if any (the order page's and the order
 * list's "message" entry, issue 35): only the order's traveler and guide; anyone else gets NOT_FOUND.
 */
export async function orderChatContext(viewer: Viewer, orderId: number, db: Database = getDb()) {
  const [order] = await db
    .select({ id: orders.id, travelerId: orders.travelerId, guideId: orders.guideId })
    .from(orders)
    .where(and(eq(orders.id, orderId), isNull(orders.deletedAt)));
  if (!order || (order.travelerId !== viewer.id && order.guideId !== viewer.id)) throw new AppError('NOT_FOUND');
  const role = order.travelerId === viewer.id ? ('traveler' as const) : ('guide' as const);
  const otherId = role === 'traveler' ? order.guideId : order.travelerId;
  const [other] = await db.select({ id: users.id, name: users.name, avatarKey: users.avatarKey }).from(users).where(eq(users.id, otherId));
  if (!other) throw new AppError('NOT_FOUND');
  const [chat] = await db
    .select({ id: chats.id })
    .from(chats)
    .where(and(eq(chats.travelerId, order.travelerId), eq(chats.guideId, order.guideId)));
  return {
    order: { id: order.id, travelerId: order.travelerId, guideId: order.guideId },
    role,
    other: { id: other.id, name: other.name, avatar: blobUrl(other.avatarKey) },
    chatId: chat?.id,
  };
}

/**
 * Either party of an order writes to the other about it (issue 35: the guide too, not only the traveler): opens
 * (or reuses) the pair's one conversation, naming the order, with a first message. Same limits and masking as
 * any conversation.
 */
export async function startChatFromOrder(viewer: Viewer, input: { orderId: number; message: string; clientId?: string }, db: Database = getDb(), limits?: LimitLog) {
  const { order } = await orderChatContext(viewer, input.orderId, db);
  return openChat(viewer, { travelerId: order.travelerId, guideId: order.guideId, orderId: order.id }, input, db, limits);
}

/**
 * A guide writes to the traveler who wrote a board post (issue 23: "guides reply publicly or start a conversation
 * with the poster"): opens or reuses the one conversation of that traveler and this guide. Only through a visible
 * post of a traveler: a guide cannot cold-message arbitrary travelers. Same limits and masking as any conversation.
 */
export async function startChatFromBoardPost(guide: Viewer, input: ChatStartFromPost, db: Database = getDb(), limits?: LimitLog) {
  if (guide.type !== 'guide') throw new AppError('FORBIDDEN', { messageKey: 'chat.errors.guidesFromPost' });
  const [post] = await db
    .select({ authorId: boardPosts.authorId })
    .from(boardPosts)
    .innerJoin(users, eq(users.id, boardPosts.authorId))
    .where(and(eq(boardPosts.id, input.boardPostId), eq(boardPosts.isHidden, false), eq(users.type, 'traveler'), isNull(users.deletedAt)));
  if (!post?.authorId) throw new AppError('NOT_FOUND');
  return openChat(guide, { travelerId: post.authorId, guideId: guide.id }, input, db, limits);
}

/** The conversation a guide already has with a board post's author, if any (the post page links to it). */
export async function findChatWithPoster(guide: { id: number }, boardPostId: number, db: Database = getDb()): Promise<number | undefined> {
  const [chat] = await db
    .select({ id: chats.id })
    .from(chats)
    .innerJoin(boardPosts, eq(boardPosts.authorId, chats.travelerId))
    .where(and(eq(boardPosts.id, boardPostId), eq(chats.guideId, guide.id)));
  return chat?.id;
}

/** The conversation a traveler already has with a guide, if any (the guide page links to it instead of a new one). */
export async function findChatWith(traveler: { id: number }, guideId: number, db: Database = getDb()): Promise<number | undefined> {
  const [chat] = await db.select({ id: chats.id }).from(chats).where(and(eq(chats.travelerId, traveler.id), eq(chats.guideId, guideId)));
  return chat?.id;
}

/** Marks every message sent to the reader in this conversation read, and tells the sender (`message_read`). */
export async function markChatRead(reader: Viewer, chatId: number, db: Database = getDb()) {
  const chat = await readable(reader, chatId, db);
  if (!isParticipant(chat, reader.id)) return { chatId, read: 0, unreadCount: await countUnreadMessages(reader.id, db) };
  const at = now();
  const rows = await db
    .update(chatMessages)
    .set({ readAt: at })
    .where(and(eq(chatMessages.chatId, chatId), ne(chatMessages.senderId, reader.id), isNull(chatMessages.readAt)))
    .returning({ id: chatMessages.id });
  const unreadCount = await countUnreadMessages(reader.id, db);
  if (rows.length > 0) {
    const event: MessageReadEvent = { chatId, readerId: reader.id, upToId: Math.max(...rows.map((r) => r.id)), readAt: at.toISOString() };
    const otherId = chat.travelerId === reader.id ? chat.guideId : chat.travelerId;
    emitToUser(otherId, CHAT_EVENTS.messageRead, event);
    // The reader's other tabs lower their header count.
    emitToUser(reader.id, CHAT_EVENTS.messageRead, event);
  }
  return { chatId, read: rows.length, unreadCount };
}

/** A participant blocks (or unblocks) the conversation: the other side can no longer send. */
export async function setChatBlocked(user: Viewer, chatId: number, blocked: boolean, db: Database = getDb()) {
  const chat = await readable(user, chatId, db);
  if (!isParticipant(chat, user.id)) throw new AppError('FORBIDDEN');
  // Only the one who blocked lifts it.
  if (!blocked && chat.blockedBy !== null && chat.blockedBy !== user.id) throw new AppError('FORBIDDEN');
  await db
    .update(chats)
    .set(blocked ? { blockedBy: chat.blockedBy ?? user.id, blockedAt: chat.blockedAt ?? now() } : { blockedBy: null, blockedAt: null })
    .where(eq(chats.id, chatId));
  return { chatId, blocked };
}

/**
 * A participant reports a message the other side sent, with a reason (issue 35): it joins the admin queue once per
 * message and reporter. Reporting it again changes nothing and answers the same (`reported: true`).
 */
export async function reportMessage(
  user: Viewer,
  messageId: number,
  input: { reasonCode?: ChatReportReason; reason?: string },
  db: Database = getDb(),
) {
  const [message] = await db.select().from(chatMessages).where(eq(chatMessages.id, messageId));
  if (!message) throw new AppError('NOT_FOUND');
  const chat = await readable(user, message.chatId, db);
  if (!isParticipant(chat, user.id) || message.senderId === user.id) throw new AppError('FORBIDDEN');
  await db
    .insert(chatMessageReports)
    .values({ messageId, reporterId: user.id, reasonCode: input.reasonCode ?? null, reason: input.reason ?? null, createdAt: now() })
    .onConflictDoNothing({ target: [chatMessageReports.messageId, chatMessageReports.reporterId] });
  return { messageId, reported: true };
}

/** The messages of this conversation the viewer already reported: the page shows "reported" instead of the button. */
export async function reportedMessageIds(viewer: Viewer, chatId: number, db: Database = getDb()): Promise<number[]> {
  const rows = await db
    .select({ id: chatMessageReports.messageId })
    .from(chatMessageReports)
    .innerJoin(chatMessages, eq(chatMessages.id, chatMessageReports.messageId))
    .where(and(eq(chatMessages.chatId, chatId), eq(chatMessageReports.reporterId, viewer.id)));
  return rows.map((r) => r.id);
}

/** A message id from a URL segment. */
export const messageIdParam = (raw: string | undefined): number => idParamOr('NOT_FOUND', raw);

/**
 * What the "Ask a question" page needs: the guide (listed or not, by id) and the conversation the traveler already
 * has with them, if any. Travelers only.
 */
export async function askContext(viewer: Viewer, guideId: number, db: Database = getDb()) {
  if (viewer.type !== 'traveler') throw new AppError('FORBIDDEN', { messageKey: 'chat.errors.travelersStart' });
  const [guide] = await db
    .select({ id: users.id, name: users.name, avatarKey: users.avatarKey })
    .from(users)
    .where(and(eq(users.id, guideId), eq(users.type, 'guide'), isNull(users.deletedAt)));
  if (!guide) throw new AppError('GUIDE_NOT_FOUND');
  return { guide: { id: guide.id, name: guide.name, avatar: blobUrl(guide.avatarKey) }, chatId: await findChatWith(viewer, guideId, db) };
}
