// The statistics at scale (issue 22): a report, not a test. Fills a fresh database with 20,000 users and 100,000
// orders (plus 30,000 reviews and 300,000 daily view counters; bench/admin-stats-run.ts) and times the service that
// /admin/stats and GET /api/v1/admin/stats call, for 7, 30 and 90 days, this year and 365 days: the median and the
// slowest of BENCH_RUNS calls after one warm-up, next to the floor (one plain count of the orders table on the same
// database, same moment: on a shared machine the load moves both). Aim: under 300 ms. An existing DATA_DIR that
// already holds orders is reused as it is (no new seed).
//
//   node bench/admin-stats.mjs                                   # PGlite (a fresh temporary DATA_DIR)
//   DATA_DIR=/tmp/x node bench/admin-stats.mjs                   # PGlite in that (empty) folder
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_stats node bench/admin-stats.mjs   # PostgreSQL
//     (the database is dropped and created again; needs the right to do so)
//   BENCH_USERS (default 20000), BENCH_ORDERS (default 100000), BENCH_RUNS (default 7).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const dbUrl = process.env.BENCH_DATABASE_URL;
const log = (s = '') => process.stdout.write(`${s}\n`);
let target;
if (dbUrl) {
  const pg = createRequire(path.resolve('package.json'))('pg');
  const name = new URL(dbUrl).pathname.slice(1);
  const adminUrl = new URL(dbUrl);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  target = dbUrl;
} else {
  target = process.env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'bench-admin-stats-'));
}
log(`admin statistics bench on ${dbUrl ? 'PostgreSQL' : `PGlite (${target})`}`);
const run = spawnSync('npx', ['tsx', 'bench/admin-stats-run.ts', target], { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 * 1024 * 1024 });
if (run.status !== 0) throw new Error('the bench failed');
const { driver, counts, results, floor } = JSON.parse(run.stdout.toString().trim().split('\n').at(-1));
log(`${driver}: ${counts.users} users, ${counts.orders} orders, ${counts.reviews} reviews, ${counts.views} view counters`);
log('period      bookings   median ms   max ms');
for (const [name, r] of Object.entries(results)) {
  log(`${name.padEnd(10)}  ${String(r.bookings).padStart(8)}  ${String(r.median).padStart(10)}  ${String(r.max).padStart(7)}${r.median > 300 ? '   over the 300 ms aim' : ''}`);
}
log(`floor: a plain "select count(*) from orders" takes ${floor} ms here now (load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')})`);
if (!dbUrl && !process.env.DATA_DIR) fs.rmSync(target, { recursive: true, force: true });
