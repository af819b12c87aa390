import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderToStaticMarkup } from 'react-dom/server';
import { openDatabase, type Database, type DatabaseHandle } from '~db/client';
import { dataDirHolder } from '~db/data-dir-lock';
import { SimulatorCard, SimulatorRefused } from '~/components/payment-simulator';
import { ConfigError, type PaymentSimulatorConfig } from '~/env.server';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { handleSimulatorRequest, SIMULATOR_HEADERS, simulatorResponse, type SimulatorAnswer } from '~/services/payments/simulator-http.server';
import { SIMULATOR_PATH } from '~/services/payments/simulator.server';
import { createShutdown } from './lifecycle';

/**
 * The payment simulator on its own port (`npm run payments:simulator`, issue 32): what the app serves under
 * /payments/simulator, served by a small server of its own, as a real provider is another site. The handling is the
 * app's (simulator-http.server.ts) and so is the markup (components/payment-simulator.tsx); only the page around it
 * is this server's. Point the app at it with PAYMENT_SIMULATOR_URL=http://HOST:PORT/payments/simulator.
 */

/** Form posts and server-to-server calls are a few hundred bytes; anything much larger is not ECPay's protocol. */
const MAX_BODY_BYTES = 64 * 1024;

/** The page's only style (the CSP admits exactly this text by its hash, nothing else). */
const STYLE = [
  'body{font-family:system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24;line-height:1.5}',
  'main{max-width:32rem;margin:2rem auto;padding:0 1rem}',
  '.card{background:#fff;border:1px solid #d0d5dc;border-radius:8px;padding:1.5rem}',
  '.notice{background:#fff4d6;border:1px solid #c99a00;border-radius:6px;padding:.5rem .75rem}',
  '.muted{color:#4a5360}.small{font-size:.875rem}',
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dl div{display:contents}dd{margin:0}',
  'label{display:block;font-weight:600}input{font:inherit;padding:.5rem;width:100%;box-sizing:border-box}',
  '.form-actions{display:flex;gap:.75rem;flex-wrap:wrap;margin-top:1rem}',
  'button,.button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid #1f5fbf;background:#1f5fbf;color:#fff;text-decoration:none;cursor:pointer}',
  '.button-secondary{background:#fff;color:#1f5fbf}',
].join('');
const STYLE_HASH = `'sha256-${crypto.createHash('sha256').update(STYLE).digest('base64')}'`;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A card page or a refused checkout as a whole document, in the traveler's language (?lng, the lng cookie, Accept-Language). */
async function renderPage(answer: Extract<SimulatorAnswer, { kind: 'card' | 'refused' }>, request: Request): Promise<Response> {
  const locale = await getLocale(request);
  const t = await getFixedT(locale);
  const body =
    answer.kind === 'card'
      ? renderToStaticMarkup(<SimulatorCard trade={answer.trade} result={answer.result} t={t} language={locale} />)
      : renderToStaticMarkup(<SimulatorRefused reason={answer.reason} t={t} />);
  const page =
    `<!DOCTYPE html><html lang="${escapeHtml(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(t('payments.simulator.title'))}</title><style>${STYLE}</style></head>` +
    `<body><main>${body}</main></body></html>`;
  // The card form posts here; the way back posts to the shop (ECPay's page does the same).
  const returnTo = answer.kind === 'card' && answer.result?.browserReturn ? ` ${new URL(answer.result.browserReturn.url).origin}` : '';
  return new Response(page, {
    status: answer.status,
    headers: {
      ...SIMULATOR_HEADERS,
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self'${returnTo}; base-uri 'none'; frame-ancestors 'none'`,
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    },
  });
}

class BodyTooLarge extends Error {}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function send(res: http.ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** The simulator's HTTP server over `db`; `track` is told of every server callback in flight. */
export function createPaymentSimulatorServer(db: Database, track: (delivery: Promise<unknown>) => void): http.Server {
  return http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://simulator.invalid');
      const path = url.pathname.startsWith(`${SIMULATOR_PATH}/`) ? url.pathname.slice(SIMULATOR_PATH.length) : '';
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
      const request = new Request(url, { headers });
      const answer = path
        ? await handleSimulatorRequest(db, { method: req.method ?? 'GET', path, body: () => readBody(req) }, { now: () => new Date(), track })
        : ({ kind: 'not_found' } as const);
      await send(res, answer.kind === 'card' || answer.kind === 'refused' ? await renderPage(answer, request) : simulatorResponse(answer));
    })().catch((error: unknown) => {
      if (error instanceof BodyTooLarge) {
        res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('Payload Too Large');
        return;
      }
      console.error('payment simulator: request failed:', error instanceof Error ? error.message : error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error');
    });
  });
}

/**
 * Opens the simulator's database (migrated: its table is one of the app's migrations), listens, and stops gracefully
 * on SIGTERM or SIGINT: no new connections, the requests in flight and the callbacks being delivered finish (within
 * SHUTDOWN_TIMEOUT_MS), the database closes, exit 0. Resolves with the server once it listens.
 */
export async function runPaymentSimulator(config: PaymentSimulatorConfig): Promise<{ server: http.Server; url: string }> {
  if (!config.DATABASE_URL) {
    const holder = dataDirHolder(config.DATA_DIR);
    if (holder) {
      throw new ConfigError(
        'PAYMENT_SIMULATOR_DATA_DIR',
        `${config.DATA_DIR} is open in another process (pid ${holder.pid} on ${holder.host}); an embedded database has one process: stop it, give this simulator another folder, or set DATABASE_URL`,
      );
    }
  }
  const handle: DatabaseHandle = await openDatabase(config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: config.DATA_DIR });
  await handle.migrate();
  const inFlight = new Set<Promise<unknown>>();
  const track = (delivery: Promise<unknown>) => {
    inFlight.add(delivery);
    void delivery.finally(() => inFlight.delete(delivery));
  };
  const server = createPaymentSimulatorServer(handle.db, track);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  const url = `http://${host}:${port}${SIMULATOR_PATH}`;
  const where = config.DATABASE_URL ? 'PostgreSQL' : `PGlite in ${config.DATA_DIR}`;
  console.log(`Payment simulator (test mode, no real money) on ${url} (${where})`);

  const shutdown = createShutdown({
    server,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    drainDelayMs: 0,
    steps: [
      // A card paid just before the signal still tells the shop (each delivery has its own deadline and retries).
      { name: 'callbacks', run: async () => void (await Promise.allSettled([...inFlight])) },
      { name: 'database', run: () => handle.close() },
    ],
  });
  process.on('SIGTERM', () => shutdown.begin('SIGTERM'));
  process.on('SIGINT', () => shutdown.begin('SIGINT'));
  return { server, url };
}
