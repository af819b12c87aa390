import crypto from 'node:crypto';
import http from 'node:http';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import { sql } from 'drizzle-orm';
import { getPublicBlob } from '~/services/blobs.server';
import type { Database } from '~db/client';
import { allowedMethodsOnly, bodySizeLimit, decodablePath, sameOriginWrites } from './guards';
import { databaseHealthCheck } from './health';

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
}

export function createApp(options: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(compression());
  app.use(securityHeaders({ dev: options.mode === 'development', hsts: options.hsts ?? false }));
  app.use(allowedMethodsOnly);
  app.use(decodablePath);
  app.use(sameOriginWrites);
  app.use(bodySizeLimit);

  // Clients call this to wake a sleeping backend; it also tells health checks the database answers.
  const databaseAnswers = databaseHealthCheck(() => options.db().execute(sql`select 1`), options.pingFreshForMs);
  app.get('/api/ping', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    try {
      await databaseAnswers();
      res.json({ success: true, data: { status: 'ok', time: new Date().toISOString() } });
    } catch (error) {
      console.error('ping: database unreachable', error);
      res.status(503).json({ success: false, code: 'SERVER_ERROR', message: 'Database unavailable' });
    }
  });

  // Content-addressed images: a key never changes meaning, so they can be cached forever.
  app.get('/uploads/:file', async (req, res, next) => {
    try {
      const key = req.params.file.replace(/\.webp$/, '');
      const blob = await getPublicBlob(key);
      if (!blob) return res.status(404).set('Cache-Control', 'no-store').end();
      res.set({ 'Content-Type': blob.contentType, 'Cache-Control': 'public, max-age=31536000, immutable', ETag: `"${key}"` });
      if (req.headers['if-none-match'] === `"${key}"`) return res.status(304).end();
      res.end(blob.bytes);
    } catch (error) {
      next(error);
    }
  });

  for (const handler of options.before ?? []) app.use(handler);

  app.all(
    '*',
    createRequestHandler({
      build: options.build,
      mode: options.mode,
      getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce as string, clientIp: req.ip }),
    }),
  );

  // Last resort: never send a stack trace to a client.
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    console.error(error);
    if (!res.headersSent) res.status(500).json({ success: false, code: 'SERVER_ERROR', message: 'Server error' });
  });
  return app;
}

/**
 * The HTTP server for the app. A client that sends `Expect: 100-continue` waits for our go-ahead before
 * sending its body; Node would give it at once, so the app decides instead (bodySizeLimit answers 413 to an
 * oversized body before the client sends a byte of it).
 */
export function createHttpServer(app: express.Express): http.Server {
  const server = http.createServer(app);
  server.on('checkContinue', (req, res) => app(req, res));
  return server;
}

/** CSP with a fresh nonce per request (the Remix scripts carry it), plus the usual hardening headers. */
function securityHeaders({ dev, hsts }: { dev: boolean; hsts: boolean }): express.RequestHandler {
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
      "form-action 'self'",
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
    next();
  };
}
