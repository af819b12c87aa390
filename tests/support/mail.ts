import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { getDatabaseHandle, getDb } from '~db/client';
import { outbox } from '~db/schema';
import { getConfig } from '~/env.server';
import type { Mail } from '~/services/platform/mail.server';
import { startOutboxWorker, type OutboxWorker } from '~/services/jobs/outbox-worker.server';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp-sink';

/**
 * Mail in tests. `useSmtpSink()` starts a real SMTP server for the file, points the app's mail at it (SMTP_URL
 * in the process configuration, restored afterwards) and runs the outbox worker on the test database, so mail
 * leaves through the outbox and nodemailer exactly as in production (call it after useTestDatabase()). Without
 * it, mail stays queued in the outbox table: `outboxFor(email)` reads it.
 */
export function useSmtpSink(): { readonly sink: SmtpSink } {
  const state: { sink?: SmtpSink; previous?: string; worker?: OutboxWorker } = {};

  beforeAll(async () => {
    state.sink = await startSmtpSink();
    // getConfig() is the one cached configuration object deliverMail reads on every send.
    state.previous = getConfig().SMTP_URL;
    getConfig().SMTP_URL = state.sink.url;
    state.worker = await startOutboxWorker(getDatabaseHandle());
  });

  afterAll(async () => {
    await state.worker?.stop();
    getConfig().SMTP_URL = state.previous;
    await state.sink?.close();
  });

  return {
    get sink() {
      if (!state.sink) throw new Error('SMTP sink not started (use inside tests)');
      return state.sink;
    },
  };
}

/** Runs `action` and returns the mail to `to` that it caused (fails when none arrives). */
export async function mailCausedBy(sink: SmtpSink, to: string, action: () => Promise<unknown>): Promise<ReceivedMail> {
  const before = sink.messages.length;
  await action();
  return sink.waitFor(to, { after: before, timeoutMs: 5_000 });
}

/** How many messages to this address the sink has received. */
export function mailCount(sink: SmtpSink, to: string): number {
  return sink.messages.filter((m) => m.to.includes(to.toLowerCase())).length;
}

/** Every mail queued to this address (sent or not: with no SMTP_URL the outbox is the developer's mailbox), oldest first. */
export async function outboxFor(to: string): Promise<(Mail & { status: string; attempts: number })[]> {
  const rows = await getDb()
    .select({ payload: outbox.payload, status: outbox.status, attempts: outbox.attempts })
    .from(outbox)
    .where(and(eq(outbox.kind, 'mail'), sql`${outbox.payload}->>'to' = ${to.toLowerCase()}`))
    .orderBy(asc(outbox.id));
  return rows.map((r) => ({ ...(r.payload as Mail), status: r.status, attempts: r.attempts }));
}

/** The 6-digit code in a mail's text (a line holding only the code). */
export function codeInText(text: string): string {
  const match = /^\s*(\d{6})\s*$/m.exec(text);
  if (!match) throw new Error(`no code in mail: ${text}`);
  return match[1]!;
}
