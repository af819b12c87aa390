import { Placeholder, sql, type SQL } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import { getDb, type Database } from '~db/client';
import { getConfig } from '~/env.server';
import { outboxJob, wakeOutboxWorkers } from './outbox.server';

/**
 * Outgoing mail (ARCHITECTURE §3, §6). A request never talks to SMTP: `enqueueMail` writes the message to the
 * outbox in the caller's transaction and the outbox worker sends it (`deliverMail`) through nodemailer when
 * SMTP_URL is set; otherwise the message is written to the server log and stays readable in the outbox table,
 * so a developer can still read a code.
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Queues the mail in `db`'s transaction (decision 017): it leaves after the commit, never when it rolls back. */
export async function enqueueMail(mail: Mail, db: Database = getDb()): Promise<void> {
  await db.execute(sql`with job as (${mailJob(mail)}) select ${wakeOutboxWorkers}`);
}

/** The outbox insert of one mail, for a statement that writes more (outbox.server `outboxJob`). */
export function mailJob(mail: Mail | Placeholder): SQL {
  return outboxJob('mail', mail instanceof Placeholder ? mail : mailPayload(mail));
}

/** The outbox payload of a mail (for a placeholder of `mailJob`: its JSON text). */
export function mailPayload(mail: Mail): Record<string, unknown> {
  return { ...mail, to: mail.to.toLowerCase() };
}

const TRANSPORT_KEY = Symbol.for('lvyou.mail-transport');
type WithTransport = typeof globalThis & { [TRANSPORT_KEY]?: { url: string; transport: Transporter } };

/**
 * An SMTP server that accepts the connection and then says nothing must not hold a send (and its outbox lease,
 * two minutes) for ever: nodemailer gives up on it after these and the row is tried again later.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 };

/** nodemailer is loaded with the first mail, and only when SMTP_URL is set. */
async function smtpTransport(url: string): Promise<Transporter> {
  const g = globalThis as WithTransport;
  if (g[TRANSPORT_KEY]?.url !== url) {
    const { default: nodemailer } = await import('nodemailer');
    // nodemailer reads transport options from the URL's query; the operator's own values win.
    const withTimeouts = new URL(url);
    for (const [key, ms] of Object.entries(SMTP_TIMEOUTS)) {
      if (!withTimeouts.searchParams.has(key)) withTimeouts.searchParams.set(key, String(ms));
    }
    g[TRANSPORT_KEY] = { url, transport: nodemailer.createTransport(withTimeouts.toString()) };
  }
  return g[TRANSPORT_KEY]!.transport;
}

/** The outbox worker's sender for 'mail' rows: throws when the SMTP server refuses or does not answer. */
export async function deliverMail(mail: Mail): Promise<void> {
  const config = getConfig();
  if (config.SMTP_URL) {
    await (await smtpTransport(config.SMTP_URL)).sendMail({ from: config.MAIL_FROM, ...mail });
    return;
  }
  console.log(`[mail] to ${mail.to}: ${mail.subject}\n${mail.text}`);
}
