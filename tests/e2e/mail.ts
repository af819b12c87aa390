/**
 * Mail in the browser tests. global-setup runs a real SMTP server (tests/support/smtp-sink.ts) that the
 * app sends to through SMTP_URL; every message it receives is written as one JSON file under
 * `${E2E_DATA_DIR}/mail/`, because the sink lives in the runner process and tests run in workers.
 * Node only; no Playwright imports (global-setup uses this module too).
 */
import fs from 'node:fs';
import path from 'node:path';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

export interface StoredMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
}

export function mailDir(dataDir = process.env.E2E_DATA_DIR): string {
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set (global-setup sets it)');
  return path.join(dataDir, 'mail');
}

/** Starts the sink and mirrors each message it receives into `dir` (one file each, written atomically). */
export async function startMailSink(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  fs.mkdirSync(dir, { recursive: true });
  const sink: SmtpSink = await startSmtpSink();
  let written = 0;
  const flush = () => {
    while (written < sink.messages.length) {
      const m = sink.messages[written]!;
      const file = path.join(dir, `${String(written).padStart(6, '0')}.json`);
      const stored: StoredMail = { to: m.to, from: m.from, subject: m.subject, text: m.text, html: m.html, receivedAt: new Date().toISOString() };
      fs.writeFileSync(`${file}.tmp`, JSON.stringify(stored));
      fs.renameSync(`${file}.tmp`, file);
      written += 1;
    }
  };
  const timer = setInterval(flush, 20);
  timer.unref();
  return {
    url: sink.url,
    async close() {
      clearInterval(timer);
      flush();
      await sink.close();
    },
  };
}

/** Every message to this address so far, oldest first. */
export function mailsTo(to: string): StoredMail[] {
  const dir = mailDir();
  if (!fs.existsSync(dir)) return [];
  const address = to.toLowerCase();
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as StoredMail)
    .filter((m) => m.to.includes(address));
}

/** Waits until more than `after` messages to this address have arrived; returns the newest. */
export async function waitForMail(to: string, { after = 0, timeoutMs = 10_000 } = {}): Promise<StoredMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = mailsTo(to);
    if (mails.length > after) return mails[mails.length - 1]!;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms (had ${mails.length})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The 6-digit code in a verification mail (a line holding only the code). */
export function codeIn(mail: StoredMail): string {
  const match = /^\s*(\d{6})\s*$/m.exec(mail.text);
  if (!match) throw new Error(`no code in mail "${mail.subject}": ${mail.text}`);
  return match[1]!;
}

/** The code of the newest verification mail to `email` (waiting for one after `after` messages). */
export async function codeFor(email: string, options: { after?: number; timeoutMs?: number } = {}): Promise<string> {
  return codeIn(await waitForMail(email, options));
}
