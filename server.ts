import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler } from '@remix-run/express';
import type { ServerBuild } from '@remix-run/node';
import compression from 'compression';
import express from 'express';
import { sql } from 'drizzle-orm';
import { ConfigError, getConfig, type AppConfig } from '~/env.server';
import { getPublicBlob } from '~/services/blobs.server';
import { attachRealtime } from '~/services/realtime.server';
import { startDatabase } from '~db/startup';

/**
 * The HTTP entry point: Express with compression, caching and security headers, the uploads and ping
 * endpoints, Socket.IO on the same server, and the Remix request handler for everything else.
 */

declare module '@remix-run/node' {
  interface AppLoadContext {
    cspNonce: string;
    /** The client's address (req.ip), for rate limits. */
    clientIp?: string;
  }
}

const isDev = process.argv.includes('--dev');

async function main() {
  const started = Date.now();
  let config: AppConfig;
  try {
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await startDatabase(config);
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(compression());
  app.use(securityHeaders(isDev));
  app.use(rejectCrossSiteFormPosts);

  // Clients call this to wake a sleeping backend; it also tells health checks the database answers.
  app.get('/api/ping', async (_req, res) => {
    res.set('Cache-Control', 'no-store');
    try {
      await database.db.execute(sql`select 1`);
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

  let build: ServerBuild | (() => Promise<ServerBuild>);
  if (isDev) {
    const vite = await import('vite').then((v) => v.createServer({ server: { middlewareMode: true } }));
    app.use(vite.middlewares);
    build = () => vite.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>;
  } else {
    // Vite fingerprints everything under /assets, so it can be cached for a year.
    app.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', index: false }));
    app.use(express.static('build/client', { maxAge: '1h', index: false }));
    build = (await import(pathToFileURL(path.resolve('build/server/index.js')).href)) as ServerBuild;
  }

  app.all(
    '*',
    createRequestHandler({
      build,
      mode: isDev ? 'development' : 'production',
      getLoadContext: (req, res) => ({ cspNonce: res.locals.cspNonce as string, clientIp: req.ip }),
    }),
  );

  // Last resort: never send a stack trace to a client.
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    console.error(error);
    if (!res.headersSent) res.status(500).json({ success: false, code: 'SERVER_ERROR', message: 'Server error' });
  });

  const server = http.createServer(app);
  const realtime = await attachRealtime(server, { redisUrl: config.REDIS_URL });
  server.listen(config.PORT, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    console.log(`旅遊助手 listening on http://localhost:${port} (${database.driver}, ready in ${Date.now() - started} ms)`);
  });

  // Graceful shutdown: stop accepting, let in-flight requests finish, then close sockets and the database.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: shutting down`);
    const force = setTimeout(() => {
      console.error('Shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    void realtime.close();
    server.close(async () => {
      await database.close();
      console.log('Shutdown complete');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/**
 * Mutating form posts must come from our own pages (ARCHITECTURE §5): a browser always sends Origin on
 * them. API clients authenticate with a bearer token instead of cookies, so /api is not checked here.
 */
const rejectCrossSiteFormPosts: express.RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' || req.path.startsWith('/api/')) return next();
  const origin = req.get('origin');
  const sameSite = origin ? origin !== 'null' && safeHost(origin) === req.get('host') : req.get('sec-fetch-site') !== 'cross-site';
  if (sameSite) return next();
  res.status(403).type('text/plain').send('Forbidden: cross-site form post');
};

function safeHost(url: string): string | undefined {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
}

/** CSP with a fresh nonce per request (the Remix scripts carry it), plus the usual hardening headers. */
function securityHeaders(dev: boolean): express.RequestHandler {
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
    next();
  };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
