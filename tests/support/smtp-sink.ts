import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 that keeps every message it receives (tests only). The app sends to it
 * through nodemailer exactly as it would to a provider; tests read the decoded subject and text back.
 */
export interface ReceivedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface SmtpSink {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** Waits for the next message to this address that arrives after `since` messages (default: any new one). */
  waitFor(to: string, options?: { timeoutMs?: number; after?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        messages.push({
          ...parseMessage(raw),
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  return {
    url: `smtp://127.0.0.1:${actualPort}`,
    port: actualPort,
    messages,
    async waitFor(to, options = {}) {
      const deadline = Date.now() + (options.timeoutMs ?? 10_000);
      const address = to.toLowerCase();
      for (;;) {
        const found = messages.slice(options.after ?? 0).filter((m) => m.to.includes(address));
        if (found.length) return found[found.length - 1]!;
        if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${options.timeoutMs ?? 10_000} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit verification code in a message's text. */
export function codeFrom(mail: ReceivedMail): string {
  const match = /^\s*(\d{6})\s*$/m.exec(mail.text);
  if (!match) throw new Error(`no code in mail: ${mail.text}`);
  return match[1]!;
}

// --- a minimal MIME reader: enough for what nodemailer writes (multipart/alternative, QP or base64) ---

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=\s*/g, (_m, _charset, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeQuotedPrintable(text.replace(/_/g, ' ')),
  );
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const s = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(s[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function splitHeaders(part: string): { headers: Record<string, string>; body: string } {
  const index = part.search(/\r?\n\r?\n/);
  const head = index < 0 ? part : part.slice(0, index);
  const body = index < 0 ? '' : part.slice(index).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, body };
}

function decodeBody(headers: Record<string, string>, body: string): string {
  const encoding = (headers['content-transfer-encoding'] ?? '').toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

function parseMessage(raw: string): { subject: string; text: string; html: string } {
  const { headers, body } = splitHeaders(raw);
  const subject = decodeWords(headers.subject ?? '');
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  let text = '';
  let html = '';
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1) : [raw];
  for (const part of parts) {
    const p = boundary ? splitHeaders(part.replace(/^\r?\n/, '')) : { headers, body };
    const partType = (p.headers['content-type'] ?? 'text/plain').toLowerCase();
    if (partType.startsWith('text/plain')) text = decodeBody(p.headers, p.body);
    else if (partType.startsWith('text/html')) html = decodeBody(p.headers, p.body);
  }
  return { subject, text: text.trim(), html };
}
