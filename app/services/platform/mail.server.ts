import net from 'node:net';
import { Placeholder, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { getConfig } from '~/env.server';
import { whenAborted } from '~/lib/abort';
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

/**
 * nodemailer's own timeouts are idle ones (a server that answers one line now and then resets them for ever); they
 * stay, and the outbox worker's deadline (decision 033) bounds the whole send.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 30_000 };

/** SMTP_URL with our timeouts where the operator set none (nodemailer reads transport options from the query). */
function withTimeouts(url: string): string {
  const withTimeouts = new URL(url);
  for (const [key, ms] of Object.entries(SMTP_TIMEOUTS)) {
    if (!withTimeouts.searchParams.has(key)) withTimeouts.searchParams.set(key, String(ms));
  }
  return withTimeouts.toString();
}

/**
 * Sends one message on a connection of its own, which `signal` destroys: nodemailer keeps its sockets out of reach,
 * so we open the connection ourselves (its `getSocket` hook; TLS and STARTTLS are still nodemailer's) and a hung
 * one can neither hold the send nor be used again. nodemailer is loaded with the first mail, and only with SMTP_URL.
 */
async function sendOverSmtp(url: string, message: Mail & { from: string }, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  const [{ default: nodemailer }, { default: SMTPTransport }] = await Promise.all([
    import('nodemailer'),
    // The SMTP transport itself: nodemailer.createTransport keeps only the URL's options and drops getSocket.
    import('nodemailer/lib/smtp-transport/index.js'),
  ]);
  let socket: net.Socket | undefined;
  const smtp = new SMTPTransport({
    url: withTimeouts(url),
    getSocket(options, callback) {
      if (signal.aborted) return callback(signal.reason as Error, false);
      // nodemailer's defaults for an address without a port.
      socket = net.connect({ host: options.host || 'localhost', port: Number(options.port) || (options.secure ? 465 : 587) });
      callback(null, { connection: socket });
    },
  });
  const transport = nodemailer.createTransport(smtp);
  const cut = () => socket?.destroy();
  signal.addEventListener('abort', cut, { once: true });
  try {
    await Promise.race([transport.sendMail(message), whenAborted(signal)]);
  } finally {
    signal.removeEventListener('abort', cut);
    transport.close();
  }
}

/**
 * The outbox worker's sender for 'mail' rows: throws when the SMTP server refuses or does not answer, and when
 * `signal` aborts (the mail lane's deadline, or a shutdown), which also destroys the connection.
 */
export async function deliverMail(mail: Mail, signal: AbortSignal): Promise<void> {
  const config = getConfig();
  if (config.SMTP_URL) {
    await sendOverSmtp(config.SMTP_URL, { from: config.MAIL_FROM, ...mail }, signal);
    return;
  }
  console.log(`[mail] to ${mail.to}: ${mail.subject}\n${mail.text}`);
}
