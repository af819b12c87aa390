// Guide search at scale (issue 9): a report, not a test. Seeds 10,000 guides and 200,000 reviews
// (bench/search-seed.ts), starts the production build on that database and the bare Remix app of
// ../shared/perf (its /guides renders 10 static cards: the floor), and loads:
//   bare /guides · product /guides with city+language+price+keyword+sort · /api/v1/guides with the same
// reporting req/s (and the ratio to the bare app) and p50/p99 latency. Those repeat one URL, so after the first
// request they measure the catalogue cache (docs/decisions/011) and the render path, not the query. The query's own
// latency (target p50 < 20 ms for 4-character keywords) is measured twice without the cache:
//   - in process, before the server starts (bench/search-query.ts: searchGuides straight on the database);
//   - over HTTP with one connection, every request a search the server has not answered yet (4-character keyword
//     × sort × a minPrice below every seeded price, which filters nothing but makes each cache key new).
//
//   npm run build && node bench/search.mjs                                  # PGlite (fresh temp DATA_DIR)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_search node bench/search.mjs   # PostgreSQL
//     (the database is dropped and created again; needs the right to do so)
//   BENCH_DURATION_S (default 8), BENCH_CONNECTIONS (default 20), BENCH_GUIDES, BENCH_REVIEWS.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from './lib/server-flags.mjs';
import { startDiscardingMailSink } from './lib/mail-sink.mjs';

const PERF_DIR = path.resolve('../shared/perf');
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const dbUrl = process.env.BENCH_DATABASE_URL;
const log = (s = '') => process.stdout.write(`${s}\n`);

const { startBaseline, stopAll, installExitHandlers } = await import(path.join(PERF_DIR, 'servers.mjs'));
const autocannon = createRequire(path.join(PERF_DIR, 'package.json'))('autocannon');
installExitHandlers();

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// 1. The database.
let dataDir;
let target;
if (dbUrl) {
  const url = new URL(dbUrl);
  const name = url.pathname.slice(1);
  const admin = new URL(dbUrl);
  admin.pathname = '/postgres';
  const pg = createRequire(path.resolve('package.json'))('pg');
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`drop database if exists ${name} with (force)`);
  await client.query(`create database ${name}`);
  await client.end();
  target = dbUrl;
} else {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-search-'));
  target = dataDir;
}
const seedStart = Date.now();
const seeded = spawnSync('npx', ['tsx', 'bench/search-seed.ts', target], { stdio: 'inherit' });
if (seeded.status !== 0) throw new Error('seeding failed');
log(`seeded in ${((Date.now() - seedStart) / 1000).toFixed(0)} s`);
// Before the server opens the database (PGlite allows one process per data directory).
const direct = spawnSync('npx', ['tsx', 'bench/search-query.ts', target], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
if (direct.status !== 0) throw new Error('bench/search-query.ts failed');
const queryLatency = JSON.parse(direct.stdout.trim().split('\n').at(-1));

// 2. The product on it, and the bare app.
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const product = spawn(process.execPath, [...serverNodeFlags(), 'build/server.js'], {
  env: {
    ...process.env,
    PORT: String(port),
    NODE_ENV: 'production',
    SEED: 'none',
    PUBLIC_URL: base,
    SESSION_SECRET: `bench-search-${Math.random().toString(36).slice(2)}-0123456789abcdef0123`,
    ...(dbUrl ? { DATABASE_URL: dbUrl, SMTP_URL: (await startDiscardingMailSink()).url, PAYMENT_PROVIDER: 'simulator' } : { DATA_DIR: dataDir }),
  },
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
process.on('exit', () => {
  stopProduct();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});
for (let i = 0; i < 240; i++) {
  try {
    if ((await fetch(`${base}/api/ping`)).ok) break;
  } catch {
    /* starting */
  }
  await new Promise((r) => setTimeout(r, 250));
}
const bare = await startBaseline();

// 3. Load.
const FILTERS = 'city=taipei&language=en&minPrice=1500&maxPrice=4000&sort=rating_desc';
const FOUR_CHAR_KEYWORDS = ['夜市美食', '老街散步', '登山步道', '溫泉泡湯', '攝影散策', '寺廟巡禮', '單車環湖', '茶園體驗', '海邊浮潛', '部落文化', 'hike', 'temp', 'walk', 'mark', 'tast', 'moun'];
const SORTS = ['newest', 'oldest', 'price_asc', 'price_desc', 'rating_desc', 'rating_asc'];
async function run(url, accept, connections = CONNECTIONS, duration = DURATION_S) {
  await autocannon({ url, connections, duration: 2, headers: { accept } });
  const r = await autocannon({ url, connections, duration, headers: { accept } });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}
/** One connection, each request a search not answered before (see the header), so the cache never answers. */
async function runUncached(duration) {
  let n = 0;
  const path = () => {
    const keyword = FOUR_CHAR_KEYWORDS[n % FOUR_CHAR_KEYWORDS.length];
    const sort = SORTS[Math.floor(n / FOUR_CHAR_KEYWORDS.length) % SORTS.length];
    // Below the seed's lowest price (1,000): filters nothing; 96,000 distinct searches before one repeats.
    const minPrice = 1 + (Math.floor(n / (FOUR_CHAR_KEYWORDS.length * SORTS.length)) % 999);
    n += 1;
    return `/api/v1/guides?keyword=${encodeURIComponent(keyword)}&sort=${sort}&minPrice=${minPrice}`;
  };
  const options = { url: base, connections: 1, headers: { accept: json }, requests: [{ setupRequest: (req) => ({ ...req, path: path() }) }] };
  await autocannon({ ...options, amount: 20 });
  const r = await autocannon({ ...options, duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts };
}
const html = 'text/html';
const json = 'application/json';
const results = {};
results['bare /guides'] = await run(`${bare.baseUrl}/guides`, html);
results['/guides (filters + keyword), cached'] = await run(`${base}/guides?${FILTERS}&keyword=${encodeURIComponent('夜市美食')}`, html);
results['/guides (filters, no keyword), cached'] = await run(`${base}/guides?${FILTERS}`, html);
results['/api/v1/guides (filters + keyword), cached'] = await run(`${base}/api/v1/guides?${FILTERS}&keyword=${encodeURIComponent('夜市美食')}`, json);
results['/guides (no filter), cached'] = await run(`${base}/guides`, html);
results['/api/v1/guides 4-char keyword, uncached, 1 connection'] = await runUncached(Math.max(4, DURATION_S));

const bareRps = results['bare /guides'].rps;
log(`\nGuide search at scale on ${dbUrl ? 'PostgreSQL' : 'PGlite'} (${process.env.BENCH_GUIDES ?? 10000} guides, ${process.env.BENCH_REVIEWS ?? 200000} reviews), ${CONNECTIONS} connections, ${DURATION_S} s`);
log('| target | req/s | × bare | p50 ms | p99 ms | non-2xx |');
log('|---|---|---|---|---|---|');
for (const [name, r] of Object.entries(results)) {
  log(`| ${name} | ${r.rps.toFixed(0)} | ${(r.rps / bareRps).toFixed(2)} | ${r.p50} | ${r.p99} | ${r.non2xx + r.errors} |`);
}
log(`\nsearchGuides in process, no cache (6 sorts × each keyword; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`);
log('| search | calls | p50 ms | p99 ms |');
log('|---|---|---|---|');
for (const [name, r] of Object.entries(queryLatency)) log(`| ${name} | ${r.n} | ${r.p50} | ${r.p99} |`);
await bare.stop();
await stopAll();
stopProduct();
process.exit(0);
