import type { Transporter } from 'nodemailer';
import { getDb, type Database } from '~db/client';
import { outboxEmails } from '~db/schema';
import { getConfig } from '~/env.server';

/**
 * Outgoing mail (ARCHITECTURE §3, §6): SMTP through nodemailer when SMTP_URL is set; otherwise the message
 * is written to the server log and kept in the outbox_emails table, so a developer can still read a code.
 */
export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

const TRANSPORT_KEY = Symbol.for('lvyou.mail-transport');
type WithTransport = typeof globalThis & { [TRANSPORT_KEY]?: { url: string; transport: Transporter } };

/** nodemailer is loaded with the first mail, and only when SMTP_URL is set. */
async function smtpTransport(url: string): Promise<Transporter> {
  const g = globalThis as WithTransport;
  if (g[TRANSPORT_KEY]?.url !== url) {
    const { default: nodemailer } = await import('nodemailer');
    g[TRANSPORT_KEY] = { url, transport: nodemailer.createTransport(url) };
  }
  return g[TRANSPORT_KEY]!.transport;
}

export async function sendMail(mail: Mail, db: Database = getDb()): Promise<void> {
  const config = getConfig();
  if (config.SMTP_URL) {
    await (await smtpTransport(config.SMTP_URL)).sendMail({ from: config.MAIL_FROM, ...mail });
    return;
  }
  await db.insert(outboxEmails).values(mail);
  console.log(`[mail] to ${mail.to}: ${mail.subject}\n${mail.text}`);
}
