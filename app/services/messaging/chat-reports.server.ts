import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import type { ChatReportReason } from '~/lib/chat-report-reasons';
import { chatMessageReports, chatMessages, users } from '~db/schema';
import { recordAudit } from '../platform/audit.server';
import { now } from '../platform/clock.server';
import { AppError } from '../platform/errors.server';

/**
 * The admin queue of reported chat messages (issue 23 "Abuse"): each open report with the reported message as
 * sent (never masked: admins read the original), the messages around it, and the sender's history; an admin
 * dismisses the report or hides the message (participants then see a notice instead of the text). Both are
 * audited; a report that another admin already decided is left as it is.
 */
type Admin = { id: number; type: 'traveler' | 'guide' | 'admin' };

/** Messages shown on each side of the reported one. */
const CONTEXT = 2;
export const REPORT_QUEUE_LIMIT = 50;

export interface ReportedMessage {
  reportId: number;
  /** One of CHAT_REPORT_REASONS; null on reports made before reasons were asked for. */
  reasonCode: ChatReportReason | null;
  reason: string | null;
  reportedAt: string;
  reporter: { id: number; name: string };
  sender: { id: number; name: string; email: string; blocked: boolean; messages: number; reportsAgainst: number; hiddenMessages: number };
  message: { id: number; chatId: number; text: string; createdAt: string; hidden: boolean };
  context: { id: number; senderId: number; senderName: string; text: string; createdAt: string; reported: boolean }[];
}

/** Open reports waiting for an admin (the dashboard's "waits for a decision"). */
export async function countOpenReports(db: Database = getDb()): Promise<number> {
  const [row] = await db.select({ n: count() }).from(chatMessageReports).where(isNull(chatMessageReports.resolvedAt));
  return row?.n ?? 0;
}

/** The open reports, oldest first (the longest waiting on top), with what an admin needs to decide. */
export async function listOpenReports(admin: Admin, db: Database = getDb()): Promise<{ reports: ReportedMessage[]; total: number }> {
  if (admin.type !== 'admin') throw new AppError('FORBIDDEN');
  const reporter = sql<string>`(select name from users r where r.id = ${chatMessageReports.reporterId})`;
  const rows = await db
    .select({
      report: chatMessageReports,
      message: chatMessages,
      sender: { id: users.id, name: users.name, email: users.email, blockedAt: users.blockedAt },
      reporterName: reporter,
    })
    .from(chatMessageReports)
    .innerJoin(chatMessages, eq(chatMessages.id, chatMessageReports.messageId))
    .innerJoin(users, eq(users.id, chatMessages.senderId))
    .where(isNull(chatMessageReports.resolvedAt))
    .orderBy(asc(chatMessageReports.createdAt), asc(chatMessageReports.id))
    .limit(REPORT_QUEUE_LIMIT);
  const total = await countOpenReports(db);
  if (rows.length === 0) return { reports: [], total };
  const senderIds = [...new Set(rows.map((r) => r.sender.id))];
  const [sent, reported, hidden] = await Promise.all([
    db.select({ id: chatMessages.senderId, n: count() }).from(chatMessages).where(inArray(chatMessages.senderId, senderIds)).groupBy(chatMessages.senderId),
    db
      .select({ id: chatMessages.senderId, n: sql<number>`count(distinct ${chatMessages.id})::int` })
      .from(chatMessageReports)
      .innerJoin(chatMessages, eq(chatMessages.id, chatMessageReports.messageId))
      .where(inArray(chatMessages.senderId, senderIds))
      .groupBy(chatMessages.senderId),
    db
      .select({ id: chatMessages.senderId, n: count() })
      .from(chatMessages)
      .where(and(inArray(chatMessages.senderId, senderIds), isNotNull(chatMessages.hiddenAt)))
      .groupBy(chatMessages.senderId),
  ]);
  const by = (list: { id: number; n: number }[]) => new Map(list.map((r) => [r.id, Number(r.n)]));
  const sentBy = by(sent);
  const reportedBy = by(reported);
  const hiddenBy = by(hidden);
  const reports = await Promise.all(
    rows.map(async ({ report, message, sender, reporterName }) => {
      const around = async (side: 'before' | 'after') =>
        db
          .select({ id: chatMessages.id, senderId: chatMessages.senderId, senderName: users.name, body: chatMessages.body, createdAt: chatMessages.createdAt })
          .from(chatMessages)
          .innerJoin(users, eq(users.id, chatMessages.senderId))
          .where(and(eq(chatMessages.chatId, message.chatId), side === 'before' ? lt(chatMessages.id, message.id) : gt(chatMessages.id, message.id)))
          .orderBy(side === 'before' ? desc(chatMessages.id) : asc(chatMessages.id))
          .limit(CONTEXT);
      const [before, after] = await Promise.all([around('before'), around('after')]);
      const context = [
        ...before.reverse(),
        { id: message.id, senderId: sender.id, senderName: sender.name, body: message.body, createdAt: message.createdAt },
        ...after,
      ].map((m) => ({ id: m.id, senderId: m.senderId, senderName: m.senderName, text: m.body, createdAt: m.createdAt.toISOString(), reported: m.id === message.id }));
      return {
        reportId: report.id,
        reasonCode: report.reasonCode,
        reason: report.reason,
        reportedAt: report.createdAt.toISOString(),
        reporter: { id: report.reporterId, name: reporterName },
        sender: {
          id: sender.id,
          name: sender.name,
          email: sender.email,
          blocked: sender.blockedAt !== null,
          messages: sentBy.get(sender.id) ?? 0,
          reportsAgainst: reportedBy.get(sender.id) ?? 0,
          hiddenMessages: hiddenBy.get(sender.id) ?? 0,
        },
        message: { id: message.id, chatId: message.chatId, text: message.body, createdAt: message.createdAt.toISOString(), hidden: message.hiddenAt !== null },
        context,
      };
    }),
  );
  return { reports, total };
}

/**
 * An admin decides a report: `dismiss` closes it; `hide` hides the message from both participants and closes
 * every open report of it. Audited. Answers `changed: false` when the report was already decided (by another
 * admin a moment ago): nothing is changed twice.
 */
export async function resolveReport(admin: Admin, reportId: number, decision: 'dismiss' | 'hide', db: Database = getDb()) {
  if (admin.type !== 'admin') throw new AppError('FORBIDDEN');
  const [report] = await db.select().from(chatMessageReports).where(eq(chatMessageReports.id, reportId));
  if (!report) throw new AppError('NOT_FOUND');
  const at = now();
  return db.transaction(async (tx) => {
    const closed = await tx
      .update(chatMessageReports)
      .set({ resolvedAt: at, resolvedBy: admin.id, resolution: decision === 'hide' ? 'hidden' : 'dismissed' })
      .where(and(eq(chatMessageReports.id, reportId), isNull(chatMessageReports.resolvedAt)))
      .returning({ id: chatMessageReports.id });
    if (closed.length === 0) return { reportId, changed: false };
    if (decision === 'hide') {
      await tx.update(chatMessages).set({ hiddenAt: at }).where(and(eq(chatMessages.id, report.messageId), isNull(chatMessages.hiddenAt)));
      await tx
        .update(chatMessageReports)
        .set({ resolvedAt: at, resolvedBy: admin.id, resolution: 'hidden' })
        .where(and(eq(chatMessageReports.messageId, report.messageId), isNull(chatMessageReports.resolvedAt)));
    }
    await recordAudit(
      {
        actorId: admin.id,
        action: decision === 'hide' ? 'chat.message.hide' : 'chat.report.dismiss',
        targetType: 'chat_message',
        targetId: report.messageId,
        details: { reportId },
      },
      tx,
    );
    return { reportId, changed: true };
  });
}
