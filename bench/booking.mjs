// Booking at load (issue 10): a report, not a test. On PostgreSQL only (PGlite serialises transactions, so it
// proves nothing about races). Drops and creates BENCH_DATABASE_URL's database, seeds it (bench/booking-seed.ts:
// guides with every slot open, travelers with bearer tokens), starts the production build on it, then in one run:
//   (a0) as many signed-in reads (GET /api/v1/notifications/unread/count: the session lookup and one count), the
//        floor of any signed-in API call through HTTP, Remix and the session;
//   (a) BENCH_BOOKINGS bookings through POST /api/v1/orders, each a different slot, BENCH_CONCURRENCY at a time;
//   (b) the same number of plain `insert into orders` through pg, same concurrency (the floor: no HTTP, no auth,
//       no validation, no order event, notification or mail);
//   (c) contention: 50 parallel bookings of one slot by 50 travelers who booked nothing else, BENCH_ROUNDS times
//       → one 201 and 49 TIME_CONFLICT each;
// and prints req/s, p50/p99 of (a0), (a) and (b), the ratios, and the live orders per slot ("double bookings: 0").
//
//   npm run build && BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_booking node bench/booking.mjs
//   BENCH_BOOKINGS (default 2000), BENCH_WARMUP (default 400: bookings, reads and inserts before measuring), BENCH_CONCURRENCY (default 20), BENCH_TRAVELERS (default 400: at most 5 bookings each, under the booking limits of docs/decisions/005), BENCH_ROUNDS (20).
//   BENCH_CPU_PROF=<dir>: the server runs with `node --cpu-prof` and writes its profile there when it stops.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from './lib/server-flags.mjs';
import { startDiscardingMailSink } from './lib/mail-sink.mjs';

const dbUrl = process.env.BENCH_DATABASE_URL;
if (!dbUrl) {
  console.error('BENCH_DATABASE_URL (postgres://…) is required: the race is only real on PostgreSQL.');
  process.exit(2);
}
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const TRAVELERS = Number(process.env.BENCH_TRAVELERS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
// Requests before the measured phases (bookings, reads and raw inserts on slots and travelers of their own): the
// server's JIT compiles its hot paths and the pg pools open their connections, so the phases measure a warm server.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 400);
const WARMUP_TRAVELERS = Math.ceil(WARMUP / 5);
const CONTENDERS = 50;
const log = (s = '') => process.stdout.write(`${s}\n`);
const pg = createRequire(path.resolve('package.json'))('pg');

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
const secret = `bench-booking-${crypto.randomBytes(24).toString('hex')}`;
const seeded = spawnSync('npx', ['tsx', 'bench/booking-seed.ts', dbUrl, String(BOOKINGS + WARMUP), String(TRAVELERS + CONTENDERS + ROUNDS + WARMUP_TRAVELERS), String(ROUNDS)], {
  env: { ...process.env, SESSION_SECRET: secret },
  stdio: ['ignore', 'pipe', 'inherit'],
  maxBuffer: 64 * 1024 * 1024,
});
if (seeded.status !== 0) throw new Error('seeding failed');
const { today, firstDay, daysPerGuide, apiGuides, sqlGuides, contestGuide, travelers: seededTravelers } = JSON.parse(seeded.stdout.toString());
// Phase (c)'s contenders have booked nothing before, and each round's winner leaves the contest, so no booking
// limit (docs/decisions/005: six pending orders with one guide) answers for them.
const travelers = seededTravelers.slice(0, TRAVELERS);
const contenders = seededTravelers.slice(TRAVELERS, TRAVELERS + CONTENDERS + ROUNDS);
const warmupTravelers = seededTravelers.slice(TRAVELERS + CONTENDERS + ROUNDS);

// 2. The production build on it.
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const cpuProfile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
const product = spawn(process.execPath, [...serverNodeFlags(), ...cpuProfile, 'build/server.js'], {
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

// 3. The jobs: every booking a different (guide, day, slot).
const SLOTS = ['morning', 'afternoon', 'evening'];
const addDays = (iso, n) => new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const slotAt = (guides, i) => {
  const perGuide = daysPerGuide * SLOTS.length;
  const within = i % perGuide;
  return { guideId: guides[Math.floor(i / perGuide)], date: addDays(firstDay, Math.floor(within / SLOTS.length)), timeSlot: SLOTS[within % SLOTS.length] };
};

// CPU time (ms) used so far by the server process and by this client, read per phase: on a shared machine the
// milliseconds of CPU a request costs are steadier than req/s, and they say which process is the limit.
const clockTicks = Number(spawnSync('getconf', ['CLK_TCK']).stdout.toString().trim() || 100);
const serverCpuMs = () => {
  try {
    const fields = fs.readFileSync(`/proc/${product.pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return NaN;
  }
};
// PostgreSQL's CPU: every process named postgres (its backends live as long as the pool's connections).
const postgresCpuMs = () => {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* gone */
    }
  }
  return (ticks * 1000) / clockTicks;
};
const clientCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** Runs `count` jobs `concurrency` at a time; returns each job's latency (ms) and outcome, and the wall time. */
async function pool(count, concurrency, job) {
  const latencies = new Array(count);
  const outcomes = new Array(count);
  let next = 0;
  const started = performance.now();
  const cpuBefore = { server: serverCpuMs(), client: clientCpuMs(), postgres: postgresCpuMs() };
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        outcomes[i] = await job(i);
        latencies[i] = performance.now() - t0;
      }
    }),
  );
  const cpu = { server: (serverCpuMs() - cpuBefore.server) / count, client: (clientCpuMs() - cpuBefore.client) / count, postgres: (postgresCpuMs() - cpuBefore.postgres) / count };
  return { latencies, outcomes, cpu, seconds: (performance.now() - started) / 1000 };
}
const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const summary = (r) => ({ rps: r.latencies.length / r.seconds, p50: percentile(r.latencies, 50), p99: percentile(r.latencies, 99), cpu: r.cpu });

// The load comes from node:http with kept-alive connections, not fetch: on two cores the client shares the CPU
// with the server and PostgreSQL, and undici's fetch cost the client about 1.2 ms of CPU a request against about
// 0.3 ms here, time the raw insert loop's lean pg client does not spend (see the CPU columns of the report).
const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(CONCURRENCY, CONTENDERS) });
function request(method, pathname, token, body) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${pathname}`,
      {
        method,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, json: JSON.parse(Buffer.concat(chunks).toString() || '{}') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const book = async (token, body) => {
  const { status, json } = await request('POST', '/api/v1/orders', token, body);
  return { status, code: json.code };
};

// Warm-up: the contest guide's today (the contest itself uses days 1…ROUNDS).
for (const slot of SLOTS) await book(travelers[0].token, { guideId: contestGuide, date: today, timeSlot: slot, numberOfPeople: 2, termsAccepted: true });

// Warm-up, not measured: the slots after the measured ones, travelers of its own.
const sqlPool = new pg.Pool({ connectionString: dbUrl, max: CONCURRENCY });
const rawInsert = (traveler, s) =>
  sqlPool.query(
    `insert into orders (traveler_id, guide_id, date, time_slot, number_of_people, note, status, total_price, terms_accepted_at)
     values ($1, $2, $3, $4, 2, 'bench', 'pending', 2800, now())`,
    [traveler.id, s.guideId, s.date, s.timeSlot],
  );
await pool(WARMUP, CONCURRENCY, async (i) => {
  const traveler = warmupTravelers[i % warmupTravelers.length];
  await request('GET', '/api/v1/notifications/unread/count', traveler.token);
  await book(traveler.token, { ...slotAt(apiGuides, BOOKINGS + i), numberOfPeople: 2, note: 'bench', termsAccepted: true });
  await rawInsert(traveler, slotAt(sqlGuides, BOOKINGS + i));
});

// (a0) The floor of a signed-in API call: one session lookup and one count, same count and concurrency.
const read = await pool(BOOKINGS, CONCURRENCY, async (i) => {
  const { status } = await request('GET', '/api/v1/notifications/unread/count', travelers[i % travelers.length].token);
  return { status };
});

// (a) Through the API.
const api = await pool(BOOKINGS, CONCURRENCY, (i) =>
  book(travelers[i % travelers.length].token, { ...slotAt(apiGuides, i), numberOfPeople: 2, note: 'bench', termsAccepted: true }),
);
const apiStatuses = {};
for (const o of api.outcomes) apiStatuses[o.status] = (apiStatuses[o.status] ?? 0) + 1;

// (b) Raw SQL into the same table, same count and concurrency.
const raw = await pool(BOOKINGS, CONCURRENCY, async (i) => {
  await rawInsert(travelers[i % travelers.length], slotAt(sqlGuides, i));
  return { status: 201 };
});

// (c) Contention: 50 travelers at once on one slot, ROUNDS times.
const contest = [];
for (let round = 0; round < ROUNDS; round++) {
  const date = addDays(today, round + 1);
  const entrants = contenders.slice(0, CONTENDERS);
  const answers = await Promise.all(
    entrants.map((t) => book(t.token, { guideId: contestGuide, date, timeSlot: 'morning', numberOfPeople: 1, termsAccepted: true })),
  );
  const winner = entrants[answers.findIndex((a) => a.status === 201)];
  if (winner) contenders.splice(contenders.indexOf(winner), 1);
  const { rows } = await sqlPool.query(`select count(*)::int as n from orders where guide_id = $1 and date = $2 and time_slot = 'morning'`, [contestGuide, date]);
  contest.push({
    created: answers.filter((a) => a.status === 201).length,
    conflicts: answers.filter((a) => a.status === 409 && a.code === 'TIME_CONFLICT').length,
    other: answers.filter((a) => a.status !== 201 && !(a.status === 409 && a.code === 'TIME_CONFLICT')).length,
    orders: rows[0].n,
  });
}
const { rows: doubles } = await sqlPool.query(
  `select guide_id, date, time_slot, count(*)::int as n from orders
   where status in ('pending', 'confirmed') and deleted_at is null group by 1, 2, 3 having count(*) > 1`,
);
await sqlPool.end();

// 4. The report.
const a = summary(api);
const b = summary(raw);
log(`\nBooking on PostgreSQL: ${BOOKINGS} bookings, ${CONCURRENCY} at a time, ${travelers.length} travelers (Node ${process.version}, ${os.availableParallelism()} CPUs)`);
log('| path | req/s | p50 ms | p99 ms | CPU ms/req: server | PostgreSQL | client | answers |');
log('|---|---|---|---|---|---|---|---|');
const cpuCells = (x) => `${x.cpu.server.toFixed(2)} | ${x.cpu.postgres.toFixed(2)} | ${x.cpu.client.toFixed(2)}`;
log(`| POST /api/v1/orders | ${a.rps.toFixed(0)} | ${a.p50.toFixed(1)} | ${a.p99.toFixed(1)} | ${cpuCells(a)} | ${Object.entries(apiStatuses).map(([s, n]) => `${n}× ${s}`).join(', ')} |`);
const r = summary(read);
log(`| GET /api/v1/notifications/unread/count | ${r.rps.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${cpuCells(r)} | ${read.outcomes.filter((o) => o.status === 200).length}× 200 |`);
log(`| raw insert into orders (pg) | ${b.rps.toFixed(0)} | ${b.p50.toFixed(1)} | ${b.p99.toFixed(1)} | – | ${b.cpu.postgres.toFixed(2)} | ${b.cpu.client.toFixed(2)} | ${BOOKINGS}× inserted |`);
log(`API / raw SQL throughput: ${(a.rps / b.rps).toFixed(3)} (raw SQL is ${(b.rps / a.rps).toFixed(1)}× faster)`);
log(`booking / signed-in read throughput: ${(a.rps / r.rps).toFixed(3)}`);
const ok = contest.filter((c) => c.created === 1 && c.conflicts === CONTENDERS - 1 && c.other === 0 && c.orders === 1).length;
log(`\nContention: ${CONTENDERS} parallel bookings of one slot, ${ROUNDS} rounds: ${ok}/${ROUNDS} rounds gave exactly 1 order and ${CONTENDERS - 1} TIME_CONFLICT`);
log(`  orders per contested slot: ${contest.map((c) => c.orders).join(' ')}`);
if (ok !== ROUNDS) log(`  rounds: ${JSON.stringify(contest)}`);
log(`double bookings: ${doubles.length}${doubles.length ? ` ${JSON.stringify(doubles.slice(0, 5))}` : ''}`);
agent.destroy();
stopProduct();
process.exit(doubles.length === 0 && ok === ROUNDS ? 0 : 1);
