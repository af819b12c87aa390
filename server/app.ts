import crypto from 'node:crypto';
import http from 'node:http';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import { sql } from 'drizzle-orm';
import { contextHeaders } from '~/http/request-context.server';
import { getSession } from '~/http/session.server';
import { findUpload } from '~/services/platform/blobs.server';
import { countEvent } from '~/services/platform/counters.server';
import { checkoutFormOrigins } from '~/services/payments/configured-provider.server';
import { logError, logEvent } from '~/services/platform/log.server';
import { ipKey } from '~/services/platform/rate-limit.server';
import type { Database } from '~db/client';
import { allowedMethodsOnly, apiAuthorization, bodySizeLimit, decodablePath, sameOriginWrites } from './guards';
import { databaseHealthCheck } from './health';
import { trustProxySetting } from './trust-proxy';
import { observeRequests, routePatterns, type Logger, type Metrics } from './observability';
import { serviceWorkerScript } from './service-worker';

/**
 * The Express application: compression, security headers, the cross-site check, /api/ping, /uploads and
 * the Remix request handler. server.ts listens with it; the HTTP tests start the very same app on a free
 * port (tests/support/http-server.ts), so what they assert is what a client receives.
 */

declare module '@remix-run/node' {
  interface AppLoadContext {
    cspNonce: string;
    /** The client's address (req.ip), for rate limits. */
    clientIp?: string;
    /** This request's id (X-Request-Id; server/observability.ts), for error envelopes and error pages. */
    requestId?: string;
  }
}

export interface AppOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: 'development' | 'production';
  db: () => Database;
  /** Strict-Transport-Security on every answer (PUBLIC_URL is https). */
  hsts?: boolean;
  /** Middleware that must run before Remix (Vite's dev middleware, static files). */
  before?: express.RequestHandler[];
  /** How long a successful database check answers /api/ping (server/health.ts; default 1 s). */
  pingFreshForMs?: number;
  /** True once the instance drains for a shutdown (server/lifecycle.ts): /api/ready answers 503. */
  isDraining?: () => boolean;
  /** Express `trust proxy`: which hops may set X-Forwarded-For/-Proto (TRUST_PROXY; loopback by default). */
  trustProxy?: string;
  /** One JSON line per request and error (server.ts; tests leave it out). */
  logger?: Logger;
  /** Request durations by route pattern and status (server.ts; served on METRICS_PORT). */
  metrics?: Metrics;
  /** The service worker the browser build wrote (default build/client/sw.js; server/service-worker.ts). */
  serviceWorkerFile?: string;
}

export function createApp(options: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Nothing reads req.query (Remix parses the URL itself): Express need not parse every query string with qs.
  app.set('query parser', false);
  app.set('trust proxy', trustProxySetting(options.trustProxy ?? 'loopback'));
  // First: every answer carries the request id, and every request ends in the log and the metrics.
  const build = options.build;
  app.use(
    observeRequests({
      logger: options.logger,
      metrics: options.metrics,
      route: routePatterns(() => (typeof build === 'function' ? undefined : build)),
    }),
  );
  app.use(compression());
  app.use(securityHeaders({ dev: options.mode === 'development', hsts: options.hsts ?? false, formTargets: checkoutFormOrigins }));
  app.use(allowedMethodsOnly);
  app.use(decodablePath);
  app.use(apiAuthorization);
  app.use(sameOriginWrites);
  app.use(bodySizeLimit);
  // A draining instance ends each keep-alive connection after its answer, so the proxy reconnects elsewhere.
  app.use((_req, res, next) => {
    if (options.isDraining?.()) res.set('Connection', 'close');
    next();
  });

  // Clients call this to wake a sleeping backend; it also tells health checks the database answers.
  const databaseAnswers = databaseHealthCheck(() => options.db().execute(sql`select 1`), options.pingFreshForMs);
  app.get('/api/ping', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    try {
      await databaseAnswers();
      res.json({ success: true, data: { status: 'ok', time: new Date().toISOString() } });
    } catch (error) {
      logError('ping: database unreachable', error, { requestId: res.locals.requestId as string });
      res.status(503).json({ success: false, code: 'SERVER_ERROR', message: 'Database unavailable', requestId: res.locals.requestId });
    }
  });

  // Readiness for the proxy or orchestrator: 503 while draining for a shutdown or when the database does not
  // answer. /api/ping stays 200 while draining (the process is alive and finishing its requests).
  app.get('/api/ready', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    if (options.isDraining?.()) {
      return res.status(503).json({ success: false, code: 'SERVICE_UNAVAILABLE', message: 'Draining for a restart', requestId: res.locals.requestId });
    }
    try {
      await databaseAnswers();
      res.json({ success: true, data: { status: 'ready' } });
    } catch {
      res.status(503).json({ success: false, code: 'SERVICE_UNAVAILABLE', message: 'Database unavailable', requestId: res.locals.requestId });
    }
  });

  // Content-addressed images: a key never changes meaning, so public ones can be cached forever. Photos that
  // are not approved are for their guide and admins only, never cached; unused bytes for nobody (findUpload).
  app.get('/uploads/:file', async (req, res, next) => {
    try {
      const key = req.params.file.replace(/\.webp$/, '');
      const blob = await findUpload(key, async () => (await getSession(sessionRequest(req)))?.user);
      if (!blob) return res.status(404).set('Cache-Control', 'no-store').end();
      if (blob.audience === 'restricted') {
        res.set({ 'Content-Type': blob.contentType, 'Cache-Control': 'private, no-store' });
        return res.end(blob.bytes);
      }
      res.set({ 'Content-Type': blob.contentType, 'Cache-Control': 'public, max-age=31536000, immutable', ETag: `"${key}"` });
      if (req.headers['if-none-match'] === `"${key}"`) return res.status(304).end();
      res.end(blob.bytes);
    } catch (error) {
      next(error);
    }
  });

  app.get('/sw.js', serviceWorkerScript(options.serviceWorkerFile ?? 'build/client/sw.js'));

  for (const handler of options.before ?? []) app.use(handler);

  app.all(
    '*',
    createRequestHandler({
      build: options.build,
      mode: options.mode,
      getLoadContext: (req, res) => ({
        cspNonce: res.locals.cspNonce as string,
        clientIp: req.ip,
        requestId: res.locals.requestId as string,
      }),
    }),
  );

  // Last resort: never send a stack trace to a client.
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    logError('unhandled error', error, { requestId: res.locals.requestId as string });
    if (!res.headersSent) res.status(500).json({ success: false, code: 'SERVER_ERROR', message: 'Server error', requestId: res.locals.requestId });
  });
  return app;
}

/** The request as the session lookup reads it (cookie or bearer token), for the routes that answer before Remix. */
function sessionRequest(req: express.Request): Request {
  const headers = new Headers();
  if (req.headers.cookie) headers.set('cookie', req.headers.cookie);
  if (req.headers.authorization) headers.set('authorization', req.headers.authorization);
  // The request's context (server/observability.ts): the session found here names the user in the log line.
  for (const [name, value] of contextHeaders(req.headers)) headers.set(name, value);
  return new Request(new URL(req.originalUrl, 'http://localhost'), { headers });
}

export interface HttpServerOptions {
  /**
   * Open connections one client address may hold (MAX_CONNECTIONS_PER_ADDRESS); unset or 0: no cap. A peer the
   * app trusts as a proxy (TRUST_PROXY) is not counted: it carries every client, and caps each one itself.
   */
  maxConnectionsPerAddress?: number;
  /** Headers must be complete this long after the connection or the previous request (408 and closed). */
  headersTimeoutMs?: number;
  /** The whole request, body included (a 10 MiB upload on a slow line), must arrive within this. */
  requestTimeoutMs?: number;
  /** How often Node looks for connections past those timeouts. */
  checkEveryMs?: number;
}

/**
 * Node's own defaults let a client keep a request open for 5 minutes and its headers for 1, looked at every 30 s:
 * thousands of slow connections then hold the process's sockets and memory (issue 31). nginx, in front in
 * production, gives up on headers after 60 s; these are for a Node that faces clients itself.
 */
export const HTTP_TIMEOUTS = { headersMs: 15_000, requestMs: 120_000, checkEveryMs: 5_000 } as const;

/**
 * The HTTP server for the app. A client that sends `Expect: 100-continue` waits for our go-ahead before
 * sending its body; Node would give it at once, so the app decides instead (bodySizeLimit answers 413 to an
 * oversized body before the client sends a byte of it).
 */
export function createHttpServer(app: express.Express, options: HttpServerOptions = {}): http.Server {
  const server = http.createServer(
    {
      headersTimeout: options.headersTimeoutMs ?? HTTP_TIMEOUTS.headersMs,
      requestTimeout: options.requestTimeoutMs ?? HTTP_TIMEOUTS.requestMs,
      connectionsCheckingInterval: options.checkEveryMs ?? HTTP_TIMEOUTS.checkEveryMs,
    },
    app,
  );
  server.on('checkContinue', (req, res) => app(req, res));
  if (options.maxConnectionsPerAddress) {
    capConnectionsPerAddress(server, options.maxConnectionsPerAddress, app.get('trust proxy fn') as (address: string, hop: number) => boolean);
  }
  return server;
}

/** How often at most a refusal is logged (with the count since the last line): a flood must not flood the log too. */
const REFUSAL_LOG_EVERY_MS = 60_000;

/**
 * Counts each client address's open connections (IPv6 by its /64, as the rate limits do) and closes a new one over
 * `max` at once, before a byte is read. The direct peer is what is counted: behind a trusted proxy that is the proxy,
 * which is not counted at all (nginx's limit_conn caps each client there: deploy/nginx/site.conf.template).
 */
function capConnectionsPerAddress(server: http.Server, max: number, trusted: (address: string, hop: number) => boolean): void {
  const open = new Map<string, number>();
  let refused = 0;
  let lastLogged = 0;
  server.on('connection', (socket: import('node:net').Socket) => {
    const address = socket.remoteAddress;
    if (!address || trusted(address, 0)) return;
    const key = ipKey(address);
    const count = open.get(key) ?? 0;
    if (count >= max) {
      socket.destroy();
      countEvent('connections_refused_total');
      refused++;
      if (Date.now() - lastLogged >= REFUSAL_LOG_EVERY_MS) {
        logEvent('warn', 'connections over the per-address cap closed', { address: key, refused, cap: max });
        lastLogged = Date.now();
        refused = 0;
      }
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

/** CSP with a fresh nonce per request (the Remix scripts carry it), plus the usual hardening headers. */
function securityHeaders({ dev, hsts, formTargets }: { dev: boolean; hsts: boolean; formTargets: () => readonly string[] }): express.RequestHandler {
  return (_req, res, next) => {
    const nonce = crypto.randomBytes(16).toString('base64');
    res.locals.cspNonce = nonce;
    const csp = [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}'${dev ? " 'unsafe-inline'" : ''}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self'",
      "connect-src 'self' ws: wss:",
      "manifest-src 'self'",
      "worker-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      // The checkout page posts its form to the payment provider's card page (issue 32): ECPay's, or a simulator on its
      // own port (PAYMENT_SIMULATOR_URL). Read per request, as the provider is (the configuration can be replaced).
      ["form-action 'self'", ...formTargets()].join(' '),
      "frame-ancestors 'none'",
    ].join('; ');
    res.set({
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    });
    // Only when the public address is https: on plain http://localhost it would pin the browser to https.
    if (hsts) res.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
      // A 304 leaves the browser its copy, whose scripts carry the nonce of the policy it came with: a new policy
      // stored over it would block them (docs/decisions/043-conditional-requests.md).
      if ((typeof args[0] === 'number' ? args[0] : this.statusCode) === 304) this.removeHeader('Content-Security-Policy');
      // An answer that sets a cookie is someone's own, whatever its route said.
      if (this.hasHeader('set-cookie') && /\bpublic\b/.test(String(this.getHeader('cache-control') ?? ''))) this.setHeader('Cache-Control', 'private, no-cache');
      return writeHead.apply(this, args);
    } as typeof writeHead;
    next();
  };
}
