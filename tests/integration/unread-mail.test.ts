import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { chatMessages } from '~db/schema';
import { createGuide, createTraveler } from '~server/seed/factories';
import { MASK } from '~/lib/contact-mask';
import { markChatRead, sendMessage, startChat } from '~/services/messaging/chats.server';
import { setClock } from '~/services/platform/clock.server';
import { runJobIfDue, unreadMessageMail } from '~/services/jobs/jobs.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { mailUnreadMessages } from '~/services/messaging/unread-mail.server';
import { outboxFor, useSmtpSink } from '../support/mail';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The unread-message mail (issue 23, docs/decisions/028): once per batch of unread messages, 10 minutes after,
 * at most once an hour per conversation, in the recipient's language, masked, through the outbox to a real SMTP
 * server. On PostgreSQL the concurrent runs below are on different pool connections, as two instances would be.
 */
useTestDatabase();
const mail = useSmtpSink();
beforeEach(() => resetRateLimits());
afterEach(() => setClock(undefined));

const MINUTE = 60_000;

async function conversation(start: Date) {
  setClock(start);
  const traveler = await createTraveler({ name: 'Amy', locale: 'en' });
  const guide = await createGuide({ name: '林導遊', locale: 'ja' });
  const { chat } = await startChat(traveler, { guideId: guide.id, message: '半日ツアーは可能ですか？ 0912-345-678 に電話ください', clientId: crypto.randomUUID() });
  await sendMessage(traveler, chat.id, { text: '子ども二人です', clientId: crypto.randomUUID() });
  // The guide's answer, which the traveler reads at once: no mail for it.
  await sendMessage(guide, chat.id, { text: 'Yes, a half day works.', clientId: crypto.randomUUID() });
  await markChatRead(traveler, chat.id);
  return { traveler, guide, chatId: chat.id };
}

describe(`unread-message mail (${testDriver})`, () => {
  it('mails the recipient once, 10 minutes after, in their language, masked, with a link; eight instances at once send one', async () => {
    const t0 = new Date('2026-12-01T02:00:00Z');
    const { traveler, guide, chatId } = await conversation(t0);

    setClock(new Date(t0.getTime() + 9 * MINUTE));
    expect(await runJobIfDue(unreadMessageMail)).toEqual({ ran: true, result: { mails: 0, messages: 0 } });

    setClock(new Date(t0.getTime() + 10 * MINUTE));
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => runJobIfDue(unreadMessageMail)));
    expect(outcomes.filter((o) => o.ran)).toEqual([{ ran: true, result: { mails: 1, messages: 2 } }]);
    expect(await outboxFor(guide.email)).toHaveLength(1);
    expect(await outboxFor(traveler.email)).toEqual([]);

    const received = await mail.sink.waitFor(guide.email, { timeoutMs: 10_000 });
    expect(received.subject).toBe('Amy さんから旅遊助手でメッセージが 2 件届いています');
    expect(received.text).toContain('林導遊 様');
    expect(received.text).toContain(`半日ツアーは可能ですか？ ${MASK} に電話ください`);
    expect(received.text).toContain('子ども二人です');
    expect(received.text).not.toContain('0912');
    expect(received.text).toContain('予約が確定するまで連絡先は非表示になります');
    expect(received.text).toMatch(new RegExp(`https?://[^\\s]+/chat/${chatId}\\n`));
  });

  it('the same messages are never mailed again; a new one waits for the hour, and a read one is never mailed', async () => {
    const t0 = new Date('2026-12-02T02:00:00Z');
    const { traveler, guide, chatId } = await conversation(t0);
    const at = (minutes: number) => setClock(new Date(t0.getTime() + minutes * MINUTE));

    at(10);
    await runJobIfDue(unreadMessageMail);
    expect(await outboxFor(guide.email)).toHaveLength(1);

    at(12);
    await sendMessage(traveler, chatId, { text: 'Are you there?', clientId: crypto.randomUUID() });
    at(30);
    expect(await runJobIfDue(unreadMessageMail)).toEqual({ ran: true, result: { mails: 0, messages: 0 } });
    at(70);
    expect(await runJobIfDue(unreadMessageMail)).toEqual({ ran: true, result: { mails: 1, messages: 1 } });
    const mails = await outboxFor(guide.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toBe('Amy さんから旅遊助手でメッセージが 1 件届いています');
    expect(mails[1]!.text).toContain('Are you there?');
    expect(mails[1]!.text).not.toContain('子ども二人です');

    // Read before its 10 minutes: no mail.
    at(80);
    await sendMessage(traveler, chatId, { text: 'Read me soon', clientId: crypto.randomUUID() });
    at(85);
    await markChatRead(guide, chatId);
    at(200);
    expect(await runJobIfDue(unreadMessageMail)).toEqual({ ran: true, result: { mails: 0, messages: 0 } });
    expect(await outboxFor(guide.email)).toHaveLength(2);
    const unmarked = await getDb().select().from(chatMessages).where(eq(chatMessages.chatId, chatId));
    expect(unmarked.filter((m) => m.unreadMailedAt !== null)).toHaveLength(3);
  });

  it('two runs that bypass the job lock still mail once: the mark is taken row by row', async () => {
    const t0 = new Date('2026-12-03T02:00:00Z');
    const { guide } = await conversation(t0);
    setClock(new Date(t0.getTime() + 11 * MINUTE));
    const results = await Promise.all([1, 2].map(() => getDb().transaction((tx) => mailUnreadMessages(tx))));
    expect(results.map((r) => r.mails).sort()).toEqual([0, 1]);
    expect(await outboxFor(guide.email)).toHaveLength(1);
  });
});
