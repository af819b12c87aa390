import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { getDb } from '~db/client';
import { outboxEmails } from '~db/schema';
import { getConfig } from '~/env.server';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from './smtp-sink';

/**
 * Mail in tests. `useSmtpSink()` starts a real SMTP server for the file and points the app's mail at it
 * (SMTP_URL in the process configuration, restored afterwards), so mail leaves through nodemailer exactly
 * as in production. Without it, mail lands in the outbox_emails table: `outboxFor(email)` reads it.
 */
export function useSmtpSink(): { readonly sink: SmtpSink } {
  const state: { sink?: SmtpSink; previous?: string } = {};

  beforeAll(async () => {
    state.sink = await startSmtpSink();
    // getConfig() is the one cached configuration object sendMail reads on every call.
    state.previous = getConfig().SMTP_URL;
    getConfig().SMTP_URL = state.sink.url;
  });

  afterAll(async () => {
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

/** The dev outbox (no SMTP_URL): every message to this address, oldest first. */
export async function outboxFor(to: string) {
  return getDb().select().from(outboxEmails).where(eq(outboxEmails.to, to.toLowerCase())).orderBy(asc(outboxEmails.id));
}

/** The 6-digit code in a mail's text (a line holding only the code). */
export function codeInText(text: string): string {
  const match = /^\s*(\d{6})\s*$/m.exec(text);
  if (!match) throw new Error(`no code in mail: ${text}`);
  return match[1]!;
}
