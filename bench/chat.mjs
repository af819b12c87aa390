// Chat delivery at load (issue 23): a report, not a test. Seeds a fresh database (bench/chat-seed.ts: BENCH_PAIRS
// traveler–guide pairs, one conversation each, bearer tokens for everyone), starts the production build on it,
// connects one Socket.IO client per person (2 × BENCH_PAIRS sockets, bearer token in `auth.token`, as the API
// clients and tests/integration/http/chat.test.ts do), then both sides of every conversation send messages through
// POST /api/v1/chats/{id}/messages, BENCH_CONCURRENCY messages in flight at a time. For each message it measures
// the time from the POST being sent to the recipient's socket receiving `new_message` (the same process holds both
// ends, so one clock), and prints p50/p99/max, the POST's own latency, and messages lost (no event within 5 s);
// then once more with one message in flight at a time (the latency without queueing behind other messages).
//
//   npm run build && node bench/chat.mjs                                                       # PGlite (fresh temp DATA_DIR)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_chat node bench/chat.mjs       # PostgreSQL
//     (the database is dropped and created again; needs the right to do so)
//   BENCH_PAIRS (default 100), BENCH_PER_USER (messages each person sends, default 10; the limit is 20 a minute,
//   docs/decisions/005), BENCH_CONCURRENCY (default 20).
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from './lib/server-flags.mjs';
import { startDiscardingMailSink } from './lib/mail-sink.mjs';

const dbUrl = process.env.BENCH_DATABASE_URL;
const PAIRS = Number(process.env.BENCH_PAIRS ?? 100);
const PER_USER = Number(process.env.BENCH_PER_USER ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const DELIVERY_TIMEOUT_MS = 5_000;
const log = (s = '') => process.stdout.write(`${s}\n`);
const requireHere = createRequire(path.resolve('package.json'));
const { io: connect } = requireHere('socket.io-client');

const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

// 1. A fresh database, seeded.
let dataDir;
let target;
if (dbUrl) {
  const name = new URL(dbUrl).pathname.slice(1);
  const adminUrl = new URL(dbUrl);
  adminUrl.pathname = '/postgres';
  const pg = requireHere('pg');
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  target = dbUrl;
} else {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-chat-'));
  target = dataDir;
}
const secret = `bench-chat-${crypto.randomBytes(24).toString('hex')}`;
const seeded = spawnSync('npx', ['tsx', 'bench/chat-seed.ts', target, String(PAIRS)], {
  env: { ...process.env, SESSION_SECRET: secret },
  stdio: ['ignore', 'pipe', 'inherit'],
  maxBuffer: 64 * 1024 * 1024,
});
if (seeded.status !== 0) throw new Error('seeding failed');
const { pairs } = JSON.parse(seeded.stdout.toString());

// 2. The production build on it.
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const product = spawn(process.execPath, [...serverNodeFlags(), 'build/server.js'], {
  env: {
    ...process.env,
    PORT: String(port),
    NODE_ENV: 'production',
    SEED: 'none',
    PUBLIC_URL: base,
    SESSION_SECRET: secret,
    ...(dbUrl ? { DATABASE_URL: dbUrl, SMTP_URL: (await startDiscardingMailSink()).url, PAYMENT_PROVIDER: 'simulator' } : { DATA_DIR: dataDir }),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
  detached: true,
});
const sockets = [];
let stopped = false;
const stopProduct = () => {
  if (stopped) return;
  stopped = true;
  for (const s of sockets) s.close();
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

// 3. One socket per person; `waiting` maps a clientId to the resolver of its recipient's delivery.
const waiting = new Map();
async function open(person) {
  const socket = connect(base, { transports: ['websocket'], reconnection: false, timeout: 10_000, auth: { token: person.token } });
  sockets.push(socket);
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  socket.on('new_message', (message) => {
    const w = waiting.get(message.clientId);
    if (w && w.recipientId === person.id) {
      waiting.delete(message.clientId);
      w.resolve(performance.now());
    }
  });
}
const people = pairs.flatMap((p) => [p.traveler, p.guide]);
const connectStart = performance.now();
for (let i = 0; i < people.length; i += 20) await Promise.all(people.slice(i, i + 20).map(open));
const connectSeconds = (performance.now() - connectStart) / 1000;

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** Sends one message and waits for its recipient's event; answers the POST latency and the delivery latency. */
async function send(pair, fromTraveler, clientId) {
  const from = fromTraveler ? pair.traveler : pair.guide;
  const to = fromTraveler ? pair.guide : pair.traveler;
  let timer;
  const delivered = new Promise((resolve) => {
    waiting.set(clientId, { recipientId: to.id, resolve });
    timer = setTimeout(() => resolve(undefined), DELIVERY_TIMEOUT_MS);
  });
  const t0 = performance.now();
  const res = await fetch(`${base}/api/v1/chats/${pair.chatId}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${from.token}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ text: `bench ${clientId}: 可以半天嗎？ NT$2,500`, clientId }),
  });
  const answered = performance.now();
  await res.arrayBuffer();
  if (res.status !== 201) {
    waiting.delete(clientId);
    clearTimeout(timer);
    return { status: res.status, post: answered - t0 };
  }
  const at = await delivered;
  clearTimeout(timer);
  waiting.delete(clientId);
  return { status: res.status, post: answered - t0, delivery: at === undefined ? undefined : at - t0 };
}

// Warm-up: one message per conversation from the traveler (counts toward the limit of 20 a minute; not measured).
const run = crypto.randomBytes(4).toString('hex');
for (let i = 0; i < pairs.length; i += CONCURRENCY) {
  await Promise.all(pairs.slice(i, i + CONCURRENCY).map((p, j) => send(p, true, `w-${run}-${i + j}`)));
}

// 4. The load: every person sends PER_USER messages, turns interleaved over the conversations and both sides.
const jobs = [];
for (let k = 0; k < PER_USER; k++) {
  for (const pair of pairs) {
    jobs.push([pair, true]);
    jobs.push([pair, false]);
  }
}
const results = new Array(jobs.length);
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < jobs.length) {
      const i = next++;
      const [pair, fromTraveler] = jobs[i];
      results[i] = await send(pair, fromTraveler, `m-${run}-${i}`);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;

// 4b. The floor: one message in flight at a time, one from each person (the same 200 sockets stay connected).
const serial = [];
for (const [i, pair] of pairs.entries()) {
  serial.push(await send(pair, true, `s-${run}-${i}-t`));
  serial.push(await send(pair, false, `s-${run}-${i}-g`));
}

// 5. The report.
const statuses = {};
for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
const delivered = results.filter((r) => r.delivery !== undefined).map((r) => r.delivery);
const posts = results.map((r) => r.post);
const lost = [...results, ...serial].filter((r) => r.status === 201 && r.delivery === undefined).length;
const load = os.loadavg().map((n) => n.toFixed(1)).join(' ');
log(`\nChat delivery on ${dbUrl ? 'PostgreSQL' : 'PGlite'}: ${sockets.length} sockets in ${pairs.length} conversations (connected in ${connectSeconds.toFixed(1)} s), ${jobs.length} messages, ${CONCURRENCY} in flight (Node ${process.version}, ${os.availableParallelism()} CPUs, load average ${load})`);
log('| measure | p50 ms | p99 ms | max ms |');
log('|---|---|---|---|');
log(`| POST sent → recipient's new_message | ${percentile(delivered, 50).toFixed(1)} | ${percentile(delivered, 99).toFixed(1)} | ${Math.max(...delivered).toFixed(1)} |`);
log(`| POST /api/v1/chats/{id}/messages answered | ${percentile(posts, 50).toFixed(1)} | ${percentile(posts, 99).toFixed(1)} | ${Math.max(...posts).toFixed(1)} |`);
const serialDelivered = serial.filter((r) => r.delivery !== undefined).map((r) => r.delivery);
log(`| the same, one message in flight (${serial.length} messages) | ${percentile(serialDelivered, 50).toFixed(1)} | ${percentile(serialDelivered, 99).toFixed(1)} | ${Math.max(...serialDelivered).toFixed(1)} |`);
log(`${(jobs.length / seconds).toFixed(0)} messages/s; answers: ${Object.entries(statuses).map(([s, n]) => `${n}× ${s}`).join(', ')}; not delivered within ${DELIVERY_TIMEOUT_MS / 1000} s: ${lost}`);
const p99 = percentile(delivered, 99);
log(`aim p99 < 100 ms: ${p99 < 100 ? 'met' : 'NOT met'}`);
stopProduct();
process.exit(lost === 0 && statuses['201'] === jobs.length && serial.every((r) => r.status === 201) ? 0 : 1);
