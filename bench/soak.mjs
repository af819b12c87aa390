// Soak through the cluster (issue 25): a report, not a test. Starts `scripts/cluster.mjs` (nginx in front of two
// built instances) on a fresh PostgreSQL database seeded with the demo data and on Redis, sends mixed traffic at a
// steady rate for a while, and prints one row a minute: requests, errors, p50/p99 and each instance's resident
// memory (from /proc). Memory must not keep growing. Then it stops the cluster and drops the database.
//
//   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_soak REDIS_URL=redis://127.0.0.1:6379 node bench/soak.mjs
//   SOAK_MINUTES (default 10), SOAK_RPS (default 50), CLUSTER_PORT (default 8090: not the dev cluster's 8080),
//   CLUSTER_APP_PORTS (default 3201,3202).
//
// The traffic, per request drawn at random: the home page, the guide list (with and without filters), a guide's page,
// the guide API, a guide's open days, /api/ping, and, for logged-in demo travelers (bearer tokens from
// POST /api/v1/auth/login), their orders, notifications and unread counts. Reads only: a soak that books would meet
// the booking limits within minutes and measure those instead.
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { startDiscardingMailSink } from './lib/mail-sink.mjs';

const dbUrl = process.env.BENCH_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!dbUrl || !redisUrl) {
  console.error('BENCH_DATABASE_URL (postgres://…, dropped and created) and REDIS_URL are required: the cluster runs on both.');
  process.exit(2);
}
const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
const RPS = Number(process.env.SOAK_RPS ?? 50);
const PORT = Number(process.env.CLUSTER_PORT ?? 8090);
const APP_PORTS = process.env.CLUSTER_APP_PORTS ?? '3201,3202';
const CLUSTER_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'lvyou-soak-'));
const BASE = `http://127.0.0.1:${PORT}`;
const pg = createRequire(path.resolve('package.json'))('pg');
const log = (s = '') => process.stdout.write(`${s}\n`);

async function recreateDatabase(drop = false) {
  const name = new URL(dbUrl).pathname.slice(1);
  const adminUrl = new URL(dbUrl);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  if (!drop) await admin.query(`create database ${name}`);
  await admin.end();
}

const clusterEnv = {
  ...process.env,
  DATABASE_URL: dbUrl,
  REDIS_URL: redisUrl,
  SEED: 'demo',
  CLUSTER_DIR,
  CLUSTER_PORT: String(PORT),
  CLUSTER_APP_PORTS: APP_PORTS,
  SESSION_SECRET: `soak-${crypto.randomBytes(24).toString('hex')}`,
  LOG_LEVEL: 'warn',
  // Production on PostgreSQL requires SMTP_URL (docs/decisions/036); this process keeps the sink while the cluster runs.
  SMTP_URL: (await startDiscardingMailSink()).url,
  // And names its payment provider (issue 32): the built-in simulator, test mode.
  PAYMENT_PROVIDER: 'simulator',
};
const cluster = (command) => spawnSync(process.execPath, ['scripts/cluster.mjs', command], { env: clusterEnv, stdio: 'inherit' });

/** Resident memory of a process in MiB (Linux /proc). */
function rssMiB(pid) {
  try {
    const line = fs.readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return Math.round(Number(line.split(/\s+/)[1]) / 1024);
  } catch {
    return NaN;
  }
}
const instancePid = (name) => Number(fs.readFileSync(path.join(CLUSTER_DIR, `${name}.pid`), 'utf8'));

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : NaN);

await recreateDatabase();
let started = false;
try {
  if (cluster('start').status !== 0) throw new Error('the cluster did not start');
  started = true;

  // Demo travelers and guides to request as (README: Accounts).
  const travelers = ['emily.carter', 'sophie.martin', 'olivia.bennett'].map((n) => `${n}@demo.travel-assistant.tw`);
  const tokens = [];
  for (const email of travelers) {
    const response = await fetch(`${BASE}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'demo1234' }),
    });
    const body = await response.json();
    if (body?.data?.token) tokens.push(body.data.token);
  }
  const guides = (await (await fetch(`${BASE}/api/v1/guides?limit=50`)).json()).data.guides.map((g) => g.id);
  if (guides.length === 0 || tokens.length === 0) throw new Error(`seed incomplete: ${guides.length} guides, ${tokens.length} tokens`);

  const pick = (list) => list[Math.floor(Math.random() * list.length)];
  const requests = [
    () => ['/', {}],
    () => ['/guides', {}],
    () => [`/guides?city=${pick(['taipei', 'tainan', 'kaohsiung'])}&sort=price_asc`, {}],
    () => [`/guides/${pick(guides)}`, {}],
    () => [`/api/v1/guides?page=${1 + Math.floor(Math.random() * 3)}`, {}],
    () => [`/api/v1/guides/${pick(guides)}/availability-slots`, {}],
    () => ['/api/ping', {}],
    () => ['/api/v1/orders', { Authorization: `Bearer ${pick(tokens)}` }],
    () => ['/api/v1/notifications/unread/count', { Authorization: `Bearer ${pick(tokens)}` }],
    () => ['/api/v1/notifications', { Authorization: `Bearer ${pick(tokens)}` }],
  ];

  log(`\nSoak through nginx (:${PORT}) in front of two instances on PostgreSQL and Redis: ${RPS} requests a second for ${MINUTES} min (Node ${process.version}, ${os.cpus().length} CPUs)`);
  log('| minute | requests | errors | p50 ms | p99 ms | RSS a MiB | RSS b MiB |');
  log('|---|---|---|---|---|---|---|');
  const [pidA, pidB] = [instancePid('a'), instancePid('b')];
  let minute = { latencies: [], errors: 0, sent: 0 };
  const inFlight = new Set();
  const fire = () => {
    const [url, headers] = pick(requests)();
    const at = performance.now();
    const current = minute;
    current.sent++;
    const job = fetch(`${BASE}${url}`, { headers, signal: AbortSignal.timeout(10_000) })
      .then(async (response) => {
        await response.arrayBuffer();
        if (response.status >= 500 || response.status === 429) current.errors++;
        else current.latencies.push(performance.now() - at);
      })
      .catch(() => current.errors++)
      .finally(() => inFlight.delete(job));
    inFlight.add(job);
  };
  const rows = [];
  for (let m = 1; m <= MINUTES; m++) {
    const start = performance.now();
    for (let i = 0; i < RPS * 60; i++) {
      // Steady pacing: the i-th request of the minute leaves at i / RPS seconds.
      const due = start + (i * 1000) / RPS;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      fire();
    }
    await Promise.all([...inFlight]);
    const sorted = minute.latencies.sort((a, b) => a - b);
    const row = { m, sent: minute.sent, errors: minute.errors, p50: percentile(sorted, 50), p99: percentile(sorted, 99), a: rssMiB(pidA), b: rssMiB(pidB) };
    rows.push(row);
    log(`| ${m} | ${row.sent} | ${row.errors} | ${row.p50.toFixed(1)} | ${row.p99.toFixed(1)} | ${row.a} | ${row.b} |`);
    minute = { latencies: [], errors: 0, sent: 0 };
  }
  const half = Math.floor(rows.length / 2);
  const avg = (list, key) => list.reduce((s, r) => s + r[key], 0) / Math.max(1, list.length);
  // The first minute warms up (caches, JIT) and is left out of the comparison.
  const early = rows.slice(1, Math.max(1, half));
  const late = rows.slice(Math.max(1, half));
  for (const key of early.length && late.length ? ['a', 'b'] : []) {
    const [first, second] = [avg(early, key), avg(late, key)];
    log(`instance ${key}: RSS ${first.toFixed(0)} MiB in the first half (after minute 1), ${second.toFixed(0)} MiB in the second (${second > first ? '+' : ''}${(second - first).toFixed(0)} MiB)`);
  }
  log(`errors: ${rows.reduce((s, r) => s + r.errors, 0)} of ${rows.reduce((s, r) => s + r.sent, 0)} requests`);
} finally {
  if (started) cluster('stop');
  await recreateDatabase(true);
  fs.rmSync(CLUSTER_DIR, { recursive: true, force: true });
}
