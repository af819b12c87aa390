import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import express from 'express';
import { ConfigError, getConfig, type AppConfig } from '~/env.server';
import { attachRealtime } from '~/http/realtime.server';
import { startCatalogueCache, stopCatalogueCache } from '~/services/catalogue-cache.server';
import { startDatabase } from '~db/seed/startup';
import { createApp, createHttpServer } from './server/app';

/**
 * The HTTP entry point: opens the database, builds the Express app (server/app.ts), attaches Socket.IO to
 * the same HTTP server, listens, and shuts down gracefully.
 */

const isDev = process.argv.includes('--dev');

/** Runs build/seed.js (beside this file) and waits for it; its output goes to this process's log. */
function seedInChildProcess(): Promise<void> {
  const script = fileURLToPath(new URL('./seed.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`the demo seed failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

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

  // In production the demo seed runs in a child process (build/seed.js): its memory leaves with it.
  const database = await startDatabase(config, console.log, { seedElsewhere: isDev ? undefined : seedInChildProcess });
  // Guide search and guide pages are served from memory until the database says they changed.
  await startCatalogueCache(database);
  let build: ServerBuild | (() => Promise<ServerBuild>);
  const before: express.RequestHandler[] = [];
  if (isDev) {
    const vite = await import('vite').then((v) => v.createServer({ server: { middlewareMode: true } }));
    before.push(vite.middlewares);
    build = () => vite.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>;
  } else {
    // Vite fingerprints everything under /assets, so it can be cached for a year.
    const statics = express.Router();
    statics.use('/assets', express.static('build/client/assets', { immutable: true, maxAge: '1y', index: false }));
    // Only a path whose last segment has an extension can be one of the public files (favicon.svg, icons/,
    // images/); pages skip the file-system look-up that would miss on every request.
    const files = express.static('build/client', { maxAge: '1h', index: false });
    statics.use((req, res, next) => (/\.[\w]+$/.test(req.path) ? files(req, res, next) : next()));
    before.push(statics);
    build = (await import(pathToFileURL(path.resolve('build/server/index.js')).href)) as ServerBuild;
  }
  const app = createApp({
    build,
    mode: isDev ? 'development' : 'production',
    db: () => database.db,
    hsts: config.PUBLIC_URL.startsWith('https:'),
    before,
  });

  const server = createHttpServer(app);
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
      await stopCatalogueCache();
      await database.close();
      console.log('Shutdown complete');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
