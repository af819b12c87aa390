// The CSV export's memory (issue 22): a report, not a test. Drops and creates BENCH_DATABASE_URL's database, seeds
// it (bench/export-seed.ts: BENCH_ORDERS orders, default 100,000), starts the production build on it with the
// production Node flags, and downloads GET /api/v1/orders/export.csv as an admin twice — as fast as it comes, and
// as a slow client (BENCH_SLOW_MS pause per chunk read, default 10) — sampling the server's RSS (/proc/<pid>/status
// VmRSS) every 20 ms. Prints, per run, the rows and bytes received, the time, the RSS before (after a warm-up
// export) and its peak during the download, and the growth; the aim is under 50 MiB.
//
//   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_export node bench/export-memory.mjs
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { serverNodeFlags } from './lib/server-flags.mjs';
import { startDiscardingMailSink } from './lib/mail-sink.mjs';

const dbUrl = process.env.BENCH_DATABASE_URL;
if (!dbUrl) {
  console.error('BENCH_DATABASE_URL (postgres://…) is required.');
  process.exit(2);
}
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const SLOW_MS = Number(process.env.BENCH_SLOW_MS ?? 10);
const LIMIT_MIB = 50;
const log = (s = '') => process.stdout.write(`${s}\n`);
const pg = createRequire(path.resolve('package.json'))('pg');
const MiB = 1024 * 1024;

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// 1. A fresh database, seeded.
const name = new URL(dbUrl).pathname.slice(1);
const adminUrl = new URL(dbUrl);
adminUrl.pathname = '/postgres';
const admin = new pg.Client({ connectionString: adminUrl.toString() });
await admin.connect();
await admin.query(`drop database if exists ${name} with (force)`);
await admin.query(`create database ${name}`);
await admin.end();
const secret = `bench-export-${crypto.randomBytes(24).toString('hex')}`;
const seedStarted = performance.now();
const seeded = spawnSync('npx', ['tsx', 'bench/export-seed.ts', dbUrl, String(ORDERS)], {
  env: { ...process.env, SESSION_SECRET: secret },
  stdio: ['ignore', 'pipe', 'inherit'],
});
if (seeded.status !== 0) throw new Error('seeding failed');
const { token } = JSON.parse(seeded.stdout.toString());
log(`seeded ${ORDERS} orders in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

// 2. The production build on it.
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const flags = serverNodeFlags();
const product = spawn(process.execPath, [...flags, 'build/server.js'], {
  env: { ...process.env, PORT: String(port), NODE_ENV: 'production', SEED: 'none', PUBLIC_URL: base, SESSION_SECRET: secret, DATABASE_URL: dbUrl, SMTP_URL: (await startDiscardingMailSink()).url, PAYMENT_PROVIDER: 'simulator' },
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
});
const stopProduct = () => {
  try {
    process.kill(-product.pid, 'SIGTERM');
  } catch {
    /* gone */
  }
};
process.on('exit', stopProduct);
let up = false;
for (let i = 0; i < 240 && !up; i++) {
  try {
    up = (await fetch(`${base}/api/ping`)).ok;
  } catch {
    /* starting */
  }
  if (!up) await new Promise((r) => setTimeout(r, 250));
}
if (!up) throw new Error('the server did not start');

const rss = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${product.pid}/status`, 'utf8'));
  return Number(m[1]) * 1024;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Downloads the export, reading chunk by chunk (optionally pausing), counting rows; samples RSS meanwhile. */
async function download(query, pauseMs) {
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, rss());
      await sleep(20);
    }
  })();
  const started = performance.now();
  const res = await fetch(`${base}/api/v1/orders/export.csv${query}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  let bytes = 0;
  let newlines = 0;
  for await (const chunk of res.body) {
    bytes += chunk.length;
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) newlines++;
    if (pauseMs) await sleep(pauseMs);
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  return { rows: newlines - 1, bytes, seconds, peak };
}

// 3. Warm-up: the route, the translations and the pool are loaded; then the baseline.
for (let i = 0; i < 3; i++) await download('?status=refunded&tourTo=2020-03-01', 0);
await sleep(1000);
let before = 0;
for (let i = 0; i < 20; i++) {
  before = Math.max(before, rss());
  await sleep(50);
}

log(`server: node ${flags.join(' ')} build/server.js (pid ${product.pid}); RSS before ${(before / MiB).toFixed(1)} MiB`);
let worst = 0;
for (const [label, pause] of [
  ['fast client', 0],
  [`slow client (${SLOW_MS} ms per chunk)`, SLOW_MS],
]) {
  const r = await download('', pause);
  const growth = (r.peak - before) / MiB;
  worst = Math.max(worst, growth);
  log(
    `${label}: ${r.rows} rows, ${(r.bytes / MiB).toFixed(1)} MiB in ${r.seconds.toFixed(1)} s; ` +
      `RSS peak ${(r.peak / MiB).toFixed(1)} MiB, growth ${growth.toFixed(1)} MiB`,
  );
  if (r.rows !== ORDERS) log(`  ! expected ${ORDERS} rows`);
}
log(`largest growth ${worst.toFixed(1)} MiB (aim: under ${LIMIT_MIB} MiB) → ${worst < LIMIT_MIB ? 'OK' : 'OVER'}`);
stopProduct();
process.exit(0);
