import { and, arrayContains, asc, count, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { boardPosts, boardReplies, users } from '~db/schema';
import { maskContacts } from '~/lib/contact-mask';
import {
  BOARD_PAGE_SIZE,
  type BoardListQuery,
  type BoardPostInput,
  type BoardPostView,
  type BoardReplyInput,
  type BoardReplyView,
} from '~/schemas/board';
import { getFixedT } from '~/i18n/i18n.server';
import { isLocale } from '~/i18n/config';
import { recordAudit } from '../platform/audit.server';
import { now } from '../platform/clock.server';
import { AppError, idParamOr } from '../platform/errors.server';
import { publishableGuide } from '../catalogue/guide-publishable.server';
import { writeNotification } from './notifications.server';
import { wordNotice } from './notice-wording.server';
import { reserveAttempt, type LimitLog } from '../platform/rate-limit.server';

/**
 * The message board (issue 23): travelers post trip requests and questions; anyone reads them, newest first, by
 * city and language. Contact details are always masked on the board (it is public; admins read the original). A
 * verified e-mail is needed to post; the author deletes their post; admins hide one with a reason (audited).
 */
type Viewer = { id: number; type: 'traveler' | 'guide' | 'admin'; isEmailVerified: boolean; name: string };
type Row = typeof boardPosts.$inferSelect;

export const boardPostIdParam = (raw: string | undefined): number => idParamOr('NOT_FOUND', raw);

function toView(row: Row, viewer: Viewer | undefined, replyCount = 0): BoardPostView {
  const admin = viewer?.type === 'admin';
  const shown = admin ? { text: row.body, masked: false } : maskContacts(row.body);
  return {
    id: row.id,
    authorId: row.authorId,
    authorName: row.authorName,
    city: row.city,
    languages: row.languages,
    startDate: row.startDate,
    endDate: row.endDate,
    body: shown.text,
    masked: shown.masked,
    isHidden: row.isHidden,
    hiddenReason: admin ? row.hiddenReason : null,
    createdAt: row.createdAt.toISOString(),
    canDelete: admin || (viewer !== undefined && row.authorId === viewer.id),
    canEdit: viewer !== undefined && row.authorId === viewer.id,
    replyCount,
  };
}

/** The replies a viewer sees: every one for admins; the visible ones and their own hidden ones (issue 35) for others. */
function repliesShownTo(viewer: Viewer | undefined) {
  if (viewer?.type === 'admin') return undefined;
  return viewer ? or(eq(boardReplies.isHidden, false), eq(boardReplies.authorId, viewer.id)) : eq(boardReplies.isHidden, false);
}

/** How many replies each of these posts shows this viewer (hidden ones count for admins, and for their own authors). */
async function replyCounts(viewer: Viewer | undefined, postIds: number[], db: Database): Promise<Map<number, number>> {
  if (postIds.length === 0) return new Map();
  const rows = await db
    .select({ postId: boardReplies.postId, n: count() })
    .from(boardReplies)
    .where(and(inArray(boardReplies.postId, postIds), repliesShownTo(viewer)))
    .groupBy(boardReplies.postId);
  return new Map(rows.map((r) => [r.postId, r.n]));
}

/** One page of posts, newest first; hidden posts only for admins. */
export async function listBoardPosts(viewer: Viewer | undefined, query: BoardListQuery, db: Database = getDb()) {
  const where = and(
    viewer?.type === 'admin' ? undefined : eq(boardPosts.isHidden, false),
    query.city ? eq(boardPosts.city, query.city) : undefined,
    query.language ? arrayContains(boardPosts.languages, [query.language]) : undefined,
  );
  const [[total], rows] = await Promise.all([
    db.select({ n: count() }).from(boardPosts).where(where),
    db
      .select()
      .from(boardPosts)
      .where(where)
      .orderBy(desc(boardPosts.createdAt), desc(boardPosts.id))
      .limit(BOARD_PAGE_SIZE)
      .offset((query.page - 1) * BOARD_PAGE_SIZE),
  ]);
  const n = total?.n ?? 0;
  const totalPages = Math.ceil(n / BOARD_PAGE_SIZE);
  const counts = await replyCounts(viewer, rows.map((r) => r.id), db);
  return {
    posts: rows.map((row) => toView(row, viewer, counts.get(row.id) ?? 0)),
    pagination: { page: query.page, limit: BOARD_PAGE_SIZE, total: n, totalPages, hasNext: query.page < totalPages, hasPrev: query.page > 1 },
  };
}

export async function createBoardPost(author: Viewer, input: BoardPostInput, db: Database = getDb()): Promise<BoardPostView> {
  if (author.type !== 'traveler') throw new AppError('FORBIDDEN', { messageKey: 'board.errors.travelersPost' });
  if (!author.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  const at = now();
  const [row] = await db
    .insert(boardPosts)
    .values({
      authorId: author.id,
      authorName: author.name,
      body: input.body,
      city: input.city,
      languages: input.languages,
      startDate: input.startDate ?? null,
      endDate: input.endDate ?? null,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  return toView(row!, author);
}

/**
 * Who may delete a post or a reply: its author, or an admin. Answers whether an admin removes someone else's words
 * (then the deletion is audited).
 */
function assertAuthorOrAdmin(viewer: Viewer, authorId: number | null): boolean {
  if (authorId !== viewer.id && viewer.type !== 'admin') throw new AppError('FORBIDDEN');
  return authorId !== viewer.id;
}

async function visible(viewer: Viewer, id: number, db: Database): Promise<Row> {
  const [row] = await db.select().from(boardPosts).where(eq(boardPosts.id, id));
  if (!row || (row.isHidden && viewer.type !== 'admin')) throw new AppError('NOT_FOUND');
  return row;
}

/**
 * Access first for an edit: the post as its author may change it, else NOT_FOUND (missing, or hidden) or FORBIDDEN
 * (anyone else: admins hide posts, they do not rewrite other people's words). Answers the post's current values.
 */
export async function editableBoardPost(viewer: Viewer, id: number, db: Database = getDb()): Promise<BoardPostInput> {
  const row = await visible(viewer, id, db);
  if (row.authorId !== viewer.id) throw new AppError('FORBIDDEN', { messageKey: 'board.errors.onlyAuthorEdits' });
  return {
    city: (row.city ?? undefined) as BoardPostInput['city'],
    languages: row.languages as BoardPostInput['languages'],
    startDate: row.startDate ?? undefined,
    endDate: row.endDate ?? undefined,
    body: row.body,
  };
}

/** The author edits their post (city, languages, dates, text); read back masked as every post is. */
export async function updateBoardPost(viewer: Viewer, id: number, input: BoardPostInput, db: Database = getDb()): Promise<BoardPostView> {
  await editableBoardPost(viewer, id, db);
  if (!viewer.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  const [row] = await db
    .update(boardPosts)
    .set({
      body: input.body,
      city: input.city,
      languages: input.languages,
      startDate: input.startDate ?? null,
      endDate: input.endDate ?? null,
      updatedAt: now(),
    })
    .where(and(eq(boardPosts.id, id), eq(boardPosts.authorId, viewer.id)))
    .returning();
  if (!row) throw new AppError('NOT_FOUND');
  const counts = await replyCounts(viewer, [id], db);
  return toView(row, viewer, counts.get(id) ?? 0);
}

/** The author (or an admin) deletes a post. */
export async function deleteBoardPost(viewer: Viewer, id: number, db: Database = getDb()): Promise<{ id: number }> {
  const row = await visible(viewer, id, db);
  const byModerator = assertAuthorOrAdmin(viewer, row.authorId);
  await db.delete(boardPosts).where(eq(boardPosts.id, id));
  if (byModerator) {
    await recordAudit({ actorId: viewer.id, action: 'board.delete', targetType: 'board_post', targetId: id }, db);
  }
  return { id };
}

/** An admin hides a post with a reason; the audit log keeps who and why. */
export async function hideBoardPost(admin: Viewer, id: number, reason: string, db: Database = getDb()): Promise<BoardPostView> {
  if (admin.type !== 'admin') throw new AppError('FORBIDDEN');
  await visible(admin, id, db);
  const [row] = await db.update(boardPosts).set({ isHidden: true, hiddenReason: reason, updatedAt: now() }).where(eq(boardPosts.id, id)).returning();
  await recordAudit({ actorId: admin.id, action: 'board.hide', targetType: 'board_post', targetId: id, details: { reason } }, db);
  return toView(row!, admin);
}

// ── Replies (issue 23: "guides reply publicly") ──

/** Replies a person may write in a minute (a reply form is an easy place to spam contact details). */
export const REPLIES_PER_MINUTE = 10;

type ReplyRow = typeof boardReplies.$inferSelect;
type ReplyJoined = ReplyRow & { authorName: string; authorType: 'traveler' | 'guide' | 'admin'; authorPublic: boolean };

export const boardReplyIdParam = (raw: string | undefined): number => idParamOr('NOT_FOUND', raw);

function toReplyView(row: ReplyJoined, viewer: Viewer | undefined): BoardReplyView {
  const admin = viewer?.type === 'admin';
  // A hidden reply's author still reads it with the admin's reason (issue 35); nobody else but admins sees it.
  const own = viewer !== undefined && row.authorId === viewer.id;
  const shown = admin ? { text: row.body, masked: false } : maskContacts(row.body);
  return {
    id: row.id,
    postId: row.postId,
    authorId: row.authorId,
    authorName: row.authorName,
    authorType: row.authorType,
    body: shown.text,
    masked: shown.masked,
    isHidden: row.isHidden,
    hiddenReason: admin || own ? row.hiddenReason : null,
    createdAt: row.createdAt.toISOString(),
    // A hidden reply stays as the admin left it: its author reads it but does not delete it.
    canDelete: admin || (own && !row.isHidden),
    authorPublicGuide: row.authorType === 'guide' && row.authorPublic,
  };
}

const replyColumns = {
  id: boardReplies.id,
  postId: boardReplies.postId,
  authorId: boardReplies.authorId,
  body: boardReplies.body,
  isHidden: boardReplies.isHidden,
  hiddenReason: boardReplies.hiddenReason,
  createdAt: boardReplies.createdAt,
  authorName: users.name,
  authorType: users.type,
  // A guide the public may find and book: their name links to their page (issue 35).
  authorPublic: sql<boolean>`coalesce(${publishableGuide}, false)`.mapWith(Boolean),
};

/** One post as the viewer may see it (a hidden one only for admins), with its reply count. */
export async function getBoardPost(viewer: Viewer | undefined, id: number, db: Database = getDb()): Promise<BoardPostView> {
  const [row] = await db.select().from(boardPosts).where(eq(boardPosts.id, id));
  if (!row || (row.isHidden && viewer?.type !== 'admin')) throw new AppError('NOT_FOUND');
  const counts = await replyCounts(viewer, [id], db);
  return toView(row, viewer, counts.get(id) ?? 0);
}

/** The replies under a post, oldest first (a conversation reads top to bottom); hidden ones only for admins and their authors. */
export async function listBoardReplies(viewer: Viewer | undefined, postId: number, db: Database = getDb()): Promise<BoardReplyView[]> {
  await getBoardPost(viewer, postId, db);
  const rows = await db
    .select(replyColumns)
    .from(boardReplies)
    .innerJoin(users, eq(users.id, boardReplies.authorId))
    .where(
      and(
        eq(boardReplies.postId, postId),
        repliesShownTo(viewer),
      ),
    )
    .orderBy(asc(boardReplies.id))
    .limit(500);
  return rows.map((row) => toReplyView(row, viewer));
}

/** A guide, or the post's own author, replies publicly; a verified e-mail is needed. */
export async function createBoardReply(
  author: Viewer,
  postId: number,
  input: BoardReplyInput,
  db: Database = getDb(),
  limits?: LimitLog,
): Promise<BoardReplyView> {
  const post = await getBoardPost(author, postId, db);
  if (author.type !== 'guide' && post.authorId !== author.id) throw new AppError('FORBIDDEN', { messageKey: 'board.errors.whoReplies' });
  if (!author.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  await reserveAttempt([{ key: `board-reply:${author.id}`, limit: REPLIES_PER_MINUTE }], undefined, limits);
  const [row] = await db.insert(boardReplies).values({ postId, authorId: author.id, body: input.body, createdAt: now() }).returning();
  const [{ authorPublic } = { authorPublic: false }] = await db.select({ authorPublic: replyColumns.authorPublic }).from(users).where(eq(users.id, author.id));
  return toReplyView({ ...row!, authorName: author.name, authorType: author.type, authorPublic }, author);
}

async function visibleReply(viewer: Viewer, id: number, db: Database): Promise<ReplyJoined> {
  const [row] = await db.select(replyColumns).from(boardReplies).innerJoin(users, eq(users.id, boardReplies.authorId)).where(eq(boardReplies.id, id));
  if (!row || (row.isHidden && viewer.type !== 'admin')) throw new AppError('NOT_FOUND');
  return row;
}

/** The reply's author (or an admin, audited) deletes a reply. */
export async function deleteBoardReply(viewer: Viewer, id: number, db: Database = getDb()): Promise<{ id: number }> {
  const row = await visibleReply(viewer, id, db);
  const byModerator = assertAuthorOrAdmin(viewer, row.authorId);
  await db.delete(boardReplies).where(eq(boardReplies.id, id));
  if (byModerator) {
    await recordAudit({ actorId: viewer.id, action: 'board.reply.delete', targetType: 'board_reply', targetId: id, details: { postId: row.postId } }, db);
  }
  return { id };
}

/**
 * An admin hides a reply with a reason (audited): the public no longer sees it; its author still does, marked
 * hidden with the reason, and is told so in a notification in their language (issue 35).
 */
export async function hideBoardReply(admin: Viewer, id: number, reason: string, db: Database = getDb()): Promise<BoardReplyView> {
  if (admin.type !== 'admin') throw new AppError('FORBIDDEN');
  const row = await visibleReply(admin, id, db);
  await db.transaction(async (tx) => {
    const hidden = await tx
      .update(boardReplies)
      .set({ isHidden: true, hiddenReason: reason })
      .where(and(eq(boardReplies.id, id), eq(boardReplies.isHidden, false)))
      .returning({ id: boardReplies.id });
    await recordAudit({ actorId: admin.id, action: 'board.reply.hide', targetType: 'board_reply', targetId: id, details: { postId: row.postId, reason } }, tx);
    if (hidden.length > 0 && row.authorId !== admin.id) await noticeReplyHidden(row, reason, tx);
  });
  return toReplyView({ ...row, isHidden: true, hiddenReason: reason }, admin);
}

/** The notification `board.replyHidden` to a hidden reply's author: which post, and the admin's reason. */
async function noticeReplyHidden(row: ReplyJoined, reason: string, db: Database): Promise<void> {
  const [author] = await db.select({ id: users.id, locale: users.locale }).from(users).where(eq(users.id, row.authorId));
  if (!author) return;
  const locale = isLocale(author.locale) ? author.locale : 'zh-TW';
  const params = { postId: row.postId, replyId: row.id, reason };
  const { title, body } = wordNotice(await getFixedT(locale), locale, 'board.replyHidden', params);
  await writeNotification({ userId: author.id, type: 'board.replyHidden', title, body, params, link: `/board/${row.postId}#reply-${row.id}` }, db);
}
