import { fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import express from 'express';
import { ConfigError, getConfig, type AppConfig } from '~/env.server';
import { setClock } from '~/services/platform/clock.server';
import { attachRealtime, type RealtimeOptions } from '~/http/realtime.server';
import { startCatalogueCache, stopCatalogueCache } from '~/services/catalogue/catalogue-cache.server';
import { startOutboxWorker } from '~/services/jobs/outbox-worker.server';
import { logError, setLogSink } from '~/services/platform/log.server';
import { startDatabase, startupSummary, startupWarnings, type GeneratedAdmin } from '~server/startup';
import { createApp, createHttpServer } from './server/app';
import { startJobRunner } from './server/jobs';
import { createShutdown, type Shutdown } from './server/lifecycle';
import { jsonLogger, Metrics, serveMetrics } from './server/observability';

/**
 * The HTTP entry point: opens the database, builds the Express app (server/app.ts), attaches Socket.IO to
 * the same HTTP server, listens, and shuts down gracefully.
 */

const isDev = process.argv.includes('--dev');

/**
 * Runs build/seed.js (beside this file) and waits for it; its output goes to this process's log. Resolves
 * with the demo admin it generated, if any (sent over the IPC channel), so the server can print it last.
 */
function seedInChildProcess(): Promise<GeneratedAdmin | undefined> {
  const script = fileURLToPath(new URL('./seed.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { stdio: 'inherit' });
    let generatedAdmin: GeneratedAdmin | undefined;
    child.on('message', (message: { demoAdmin?: GeneratedAdmin }) => {
      if (message?.demoAdmin) generatedAdmin = message.demoAdmin;
    });
    child.once('error', reject);
    // 'close', not 'exit': it comes after the IPC channel closed, so every message has arrived.
    child.once('close', (code, signal) =>
      code === 0 ? resolve(generatedAdmin) : reject(new Error(`the demo seed failed (${signal ?? `exit ${code}`})`)),
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

  if (config.TEST_CLOCK_START) {
    // End-to-end tests: the clock starts at this instant and runs on (app/services/platform/clock.server.ts).
    const offset = Date.parse(config.TEST_CLOCK_START) - Date.now();
    setClock(() => new Date(Date.now() + offset));
    console.warn(`The clock is moved for tests: it started at ${config.TEST_CLOCK_START} (TEST_CLOCK_START)`);
  }

  // In production the demo seed runs in a child process (build/seed.js): its memory leaves with it.
  const { handle: database, generatedAdmin } = await startDatabase(config, console.log, {
    seedElsewhere: isDev ? undefined : seedInChildProcess,
  });
  // Guide search and guide pages are served from memory until the database says they changed.
  await startCatalogueCache(database);
  // Mail (and later push) queued by requests leaves from here, after their commits (decision 017).
  const outbox = await startOutboxWorker(database);
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
  let shutdown: Shutdown | undefined;
  const logger = jsonLogger({ level: config.LOG_LEVEL, instance: config.INSTANCE_NAME });
  // Every logged error goes through the safe logger (app/services/platform/log.server.ts) into this log.
  setLogSink(logger);
  const metrics = new Metrics();
  const app = createApp({
    logger,
    metrics,
    build,
    mode: isDev ? 'development' : 'production',
    db: () => database.db,
    hsts: config.PUBLIC_URL.startsWith('https:'),
    before,
    trustProxy: config.TRUST_PROXY,
    isDraining: () => shutdown?.state.draining ?? false,
  });

  const server = createHttpServer(app, { maxConnectionsPerAddress: config.MAX_CONNECTIONS_PER_ADDRESS });
  // Sockets are counted per client address as req.ip finds it (Express's compiled TRUST_PROXY).
  const realtime = await attachRealtime(server, { redisUrl: config.REDIS_URL, trustProxy: app.get('trust proxy fn') as RealtimeOptions['trustProxy'] });
  metrics.gauge('socketio_connected_sockets', 'Socket.IO connections open on this instance', () => [[{}, realtime.io.engine.clientsCount]]);
  metrics.gauge('db_pool_connections', 'PostgreSQL pool connections by state', () => {
    const stats = database.poolStats?.();
    return stats ? [[{ state: 'total' }, stats.total], [{ state: 'idle' }, stats.idle], [{ state: 'waiting' }, stats.waiting]] : [];
  });
  metrics.gauge('draining', '1 while this instance drains for a shutdown', () => [[{}, shutdown?.state.draining ? 1 : 0]]);
  const metricsServer = config.METRICS_PORT === undefined ? undefined : await serveMetrics(metrics, config.METRICS_PORT, config.METRICS_HOST);
  if (metricsServer) {
    const address = metricsServer.address();
    console.log(`Metrics on http://${config.METRICS_HOST}:${typeof address === 'object' && address ? address.port : config.METRICS_PORT}/metrics`);
  }
  server.listen(config.PORT, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    // The last lines of the start: the address and, on a first start that generated one, the admin login.
    const url = `http://localhost:${port}`;
    for (const line of startupWarnings(config)) console.warn(line);
    for (const line of startupSummary({ url, driver: database.driver, readyMs: Date.now() - started, generatedAdmin })) {
      console.log(line);
    }
  });

  // Periodic jobs, run once across instances (docs/decisions/024).
  const jobs = startJobRunner({ db: () => database.db });

  // Graceful shutdown (server/lifecycle.ts): drain, let in-flight requests finish, then stop in this order, all
  // within SHUTDOWN_TIMEOUT_MS.
  shutdown = createShutdown({
    server,
    timeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    drainDelayMs: config.DRAIN_DELAY_MS,
    onStopAccepting: () => realtime.dropLocalSockets(),
    steps: [
      // Background work first: it may still write to the database and emit to sockets.
      { name: 'jobs', run: () => jobs.stop() },
      // After the last request: its queued mail is sent now or by the next instance. What is still being sent when
      // the time is up is cut and comes back after its lease (decision 033).
      { name: 'outbox', run: (signal) => outbox.stop(signal) },
      { name: 'sockets', run: () => realtime.close() },
      { name: 'catalogue cache', run: () => stopCatalogueCache() },
      { name: 'database', run: () => database.close() },
      { name: 'metrics', run: () => new Promise<void>((resolve) => (metricsServer ? metricsServer.close(() => resolve()) : resolve())) },
    ],
  });
  process.on('SIGTERM', () => shutdown!.begin('SIGTERM'));
  process.on('SIGINT', () => shutdown!.begin('SIGINT'));
}

main().catch((error) => {
  // Through the safe logger: a failed seed or admin insert must not print its parameters (a password hash).
  logError('the server could not start', error);
  process.exit(1);
});
