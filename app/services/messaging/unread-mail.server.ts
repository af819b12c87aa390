import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { chatMessages, chats, users } from '~db/schema';
import { getConfig } from '~/env.server';
import { isLocale } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { maskContacts } from '~/lib/contact-mask';
import { isMasking } from './chats.server';
import { now } from '../platform/clock.server';
import { enqueueMail } from '../platform/mail.server';

/**
 * The unread-message mail (issue 23, docs/decisions/028): a message still unread UNREAD_AFTER_MS after it was
 * sent gets its recipient one mail, in their language, with the unread texts (masked as in the conversation)
 * and a link. Each message is mailed at most once (`chat_messages.unread_mailed_at`), and one conversation
 * mails one recipient at most once an hour: messages that wait behind that hour go in the next mail, if they
 * are still unread then. It runs as a periodic job (jobs.server.ts): one instance at a time, in the job's
 * transaction, so the mail (written to the outbox) and the marks commit together or not at all. The job
 * itself (`unreadMessageMail`) is in jobs.server.ts.
 */
export const UNREAD_AFTER_MS = 10 * 60 * 1000;
export const ONE_MAIL_PER_MS = 60 * 60 * 1000;
/** Conversations mailed per run; the rest wait for the next run (a minute later). */
const BATCH = 200;
/** Texts quoted in one mail; the link shows the rest. */
const QUOTED = 5;
const QUOTE_MAX = 300;

const recipientOf = sql<number>`case when ${chatMessages.senderId} = ${chats.travelerId} then ${chats.guideId} else ${chats.travelerId} end`;

export async function mailUnreadMessages(db: Database = getDb()): Promise<{ mails: number; messages: number }> {
  const at = now();
  const cutoff = new Date(at.getTime() - UNREAD_AFTER_MS);
  const hourAgo = new Date(at.getTime() - ONE_MAIL_PER_MS);
  // (conversation, recipient) pairs with messages unread since the cutoff that no mail has covered yet, and no
  // mail to that recipient about that conversation in the last hour.
  const groups = await db
    .select({ chatId: chatMessages.chatId, recipientId: recipientOf, ids: sql<number[]>`array_agg(${chatMessages.id} order by ${chatMessages.id})` })
    .from(chatMessages)
    .innerJoin(chats, eq(chats.id, chatMessages.chatId))
    .where(
      and(
        isNull(chatMessages.readAt),
        isNull(chatMessages.unreadMailedAt),
        isNull(chatMessages.hiddenAt),
        lte(chatMessages.createdAt, cutoff),
        sql`not exists (
          select 1 from ${chatMessages} recent
          where recent.chat_id = ${chatMessages.chatId} and recent.sender_id = ${chatMessages.senderId}
            and recent.unread_mailed_at > ${hourAgo.toISOString()}::timestamptz)`,
      ),
    )
    .groupBy(chatMessages.chatId, recipientOf)
    .limit(BATCH);
  let mails = 0;
  let messages = 0;
  for (const group of groups) {
    const ids = group.ids.map(Number);
    const [recipient] = await db
      .select({ id: users.id, name: users.name, email: users.email, locale: users.locale, deletedAt: users.deletedAt, blockedAt: users.blockedAt })
      .from(users)
      .where(eq(users.id, group.recipientId));
    const [chat] = await db.select().from(chats).where(eq(chats.id, group.chatId));
    // Mark them either way: a blocked or archived account gets no mail (docs/decisions/035), now or later.
    const marked = await db
      .update(chatMessages)
      .set({ unreadMailedAt: at })
      .where(and(inArray(chatMessages.id, ids), isNull(chatMessages.unreadMailedAt), isNull(chatMessages.readAt)))
      .returning({ id: chatMessages.id });
    if (!recipient || !chat || recipient.deletedAt !== null || recipient.blockedAt !== null || marked.length === 0) continue;
    const rows = await db
      .select({ id: chatMessages.id, body: chatMessages.body, createdAt: chatMessages.createdAt, senderName: users.name })
      .from(chatMessages)
      .innerJoin(users, eq(users.id, chatMessages.senderId))
      .where(inArray(chatMessages.id, marked.map((m) => m.id)))
      .orderBy(chatMessages.id);
    const masking = await isMasking(chat, db);
    const locale = isLocale(recipient.locale) ? recipient.locale : 'zh-TW';
    const t = await getFixedT(locale);
    const sender = rows[0]!.senderName;
    const quoted = rows.slice(-QUOTED).map((m) => {
      const text = masking ? maskContacts(m.body).text : m.body;
      const short = text.length > QUOTE_MAX ? `${text.slice(0, QUOTE_MAX)}…` : text;
      return `${formatTaipeiDateTime(m.createdAt.toISOString(), locale)}\n${short}`;
    });
    const link = new URL(`/chat/${chat.id}`, getConfig().PUBLIC_URL).toString();
    const text = [
      t('chat.mail.greeting', { name: recipient.name }),
      '',
      t('chat.mail.body', { count: rows.length, name: sender }),
      '',
      ...quoted.flatMap((q) => [q, '']),
      ...(rows.length > QUOTED ? [t('chat.mail.more', { count: rows.length - QUOTED }), ''] : []),
      ...(masking ? [t('chat.mail.masked'), ''] : []),
      t('chat.mail.open'),
      link,
      '',
      t('chat.mail.signature'),
    ].join('\n');
    await enqueueMail({ to: recipient.email, subject: t('chat.mail.subject', { count: rows.length, name: sender }), text }, db);
    mails++;
    messages += rows.length;
  }
  return { mails, messages };
}
