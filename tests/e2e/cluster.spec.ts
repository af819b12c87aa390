import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { openDatabase, type DatabaseHandle } from '~db/client';
import { users } from '~db/schema';
import { eq } from 'drizzle-orm';
import { addDays, todayInTaipei } from '~/lib/dates';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { expect, test } from './test';
import { assertBuilt, freePort, PROJECT_ROOT } from './server-process';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink';

/**
 * The local cluster of issue 25 from real parts (scripts/cluster.mjs, deploy/nginx/site.conf.template): Debian's
 * nginx in front of two instances of the built server on PostgreSQL and Redis. Needs nginx, TEST_DATABASE_URL
 * and TEST_REDIS_URL (skipped without them, failed without them when E2E_REQUIRED=1, as in .ci/run). Plain
 * Node: js-on project only.
 */
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const missing = [!NGINX && 'nginx', !databaseUrl && 'TEST_DATABASE_URL', !redisUrl && 'TEST_REDIS_URL'].filter(Boolean);
const ADMIN = { email: 'cluster-admin@example.com', password: 'cluster-admin-pw-1' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function runScript(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/cluster.mjs', ...args], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.once('close', (code) => resolve({ code, output }));
  });
}

test.describe('two instances behind nginx', () => {
  test.describe.configure({ mode: 'serial' });
  let env: NodeJS.ProcessEnv;
  let dir: string;
  let database: string;
  let nginxUrl: string;
  let appUrls: string[];
  let metricsUrls: string[];
  // Production on PostgreSQL requires SMTP_URL (docs/decisions/036): the instances mail this sink.
  let mailSink: SmtpSink | undefined;
  let token: string;
  const sockets: Socket[] = [];

  test.beforeAll(async ({}, testInfo) => {
    test.skip(testInfo.project.name !== 'js-on', 'the cluster runs in the js-on project only');
    if (missing.length && process.env.E2E_REQUIRED !== '1') test.skip(true, `needs ${missing.join(', ')}`);
    expect(missing, 'the cluster test needs these (E2E_REQUIRED=1)').toEqual([]);
    test.setTimeout(180_000);
    assertBuilt();
    dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'lvyou-cluster-'));
    database = `lvyou_cluster_${process.pid}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.query(`create database ${database}`);
    await admin.end();
    const url = new URL(databaseUrl!);
    url.pathname = `/${database}`;
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    env = {
      ...process.env,
      DATABASE_URL: url.toString(),
      REDIS_URL: redisUrl,
      CLUSTER_DIR: dir,
      CLUSTER_PORT: String(ports[0]),
      CLUSTER_APP_PORTS: `${ports[1]},${ports[2]}`,
      SEED: 'none',
      // Instance a's metrics port; b takes the next one (scripts/cluster.mjs).
      METRICS_PORT: String(ports[3]),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    };
    for (const key of ['PORT', 'DATA_DIR', 'SMTP_URL', 'TEST_CLOCK_START', 'PUBLIC_URL']) delete env[key];
    mailSink = await startSmtpSink();
    env.SMTP_URL = mailSink.url;
    // Production on PostgreSQL names its payment provider (issue 32): the built-in simulator, in test mode.
    env.PAYMENT_PROVIDER = 'simulator';
    nginxUrl = `http://127.0.0.1:${ports[0]}`;
    appUrls = [`http://127.0.0.1:${ports[1]}`, `http://127.0.0.1:${ports[2]}`];
    metricsUrls = [`http://127.0.0.1:${ports[3]}/metrics`, `http://127.0.0.1:${ports[3]! + 1}/metrics`];
    const started = await runScript(['start'], env);
    expect(started.code, started.output).toBe(0);
  });

  test.afterAll(async () => {
    for (const socket of sockets) socket.close();
    if (!env) return;
    const stopped = await runScript(['stop'], env);
    expect(stopped.code, stopped.output).toBe(0);
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
    await fs.promises.rm(dir, { recursive: true, force: true });
    await mailSink?.close();
  });

  const api = (base: string, pathname: string, init: RequestInit & { json?: unknown } = {}) =>
    fetch(`${base}${pathname}`, {
      ...init,
      headers: {
        ...(init.json !== undefined ? { 'Content-Type': 'application/json' } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });

  test('nginx answers with a request id, compression and long-cached assets', async () => {
    const res = await fetch(`${nginxUrl}/guides`, { headers: { 'Accept-Encoding': 'gzip', 'X-Request-Id': 'trace-me-12345' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('x-request-id')).toBe('trace-me-12345');
    const html = await res.text();
    const asset = html.match(/\/assets\/entry\.client-[\w-]+\.js/)?.[0];
    expect(asset).toBeTruthy();
    const script = await fetch(`${nginxUrl}${asset}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // A body over anything the product accepts stops at nginx.
    const big = await fetch(`${nginxUrl}/api/v1/auth/login`, { method: 'POST', body: new Uint8Array(12 * 1024 * 1024), headers: { 'Content-Type': 'application/json' } }).catch(() => undefined);
    if (big) expect(big.status).toBe(413);
  });

  test('a login on one instance works on the other', async () => {
    const login = await api(appUrls[0]!, '/api/v1/auth/login', { method: 'POST', json: ADMIN });
    expect(login.status).toBe(200);
    token = ((await login.json()) as { data: { token: string } }).data.token;
    const me = await api(appUrls[1]!, '/api/v1/notifications');
    expect(me.status).toBe(200);
    // And through nginx, whichever instance answers.
    for (let i = 0; i < 4; i++) expect((await api(nginxUrl, '/api/v1/notifications')).status).toBe(200);
  });

  /** One series on each instance's metrics page (0 where absent). */
  async function scrape(series: string): Promise<number[]> {
    return Promise.all(
      metricsUrls.map(async (url) => {
        const text = await (await fetch(url)).text();
        const line = text.split('\n').find((l) => l.startsWith(`${series} `));
        return line ? Number(line.slice(series.length + 1)) : 0;
      }),
    );
  }
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

  test('150 parallel wrong logins spread over both instances are limited as one: 10 password checks, 140 refusals', async () => {
    const email = `cluster-limit-${Date.now()}@example.com`;
    const refusedBefore = await scrape('rate_limit_refusals_total{limit="login:account-ip"}');
    // Through nginx (round-robin over both instances), all at once, from one client address.
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        fetch(`${nginxUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: `wrong-${i}` }) }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(140);
    // Both instances answered some of them, and together they counted 140 refusals of that one limit (Redis).
    const refused = (await scrape('rate_limit_refusals_total{limit="login:account-ip"}')).map((n, i) => n - refusedBefore[i]!);
    expect(sum(refused)).toBe(140);
    const answered = await scrape('http_request_duration_seconds_count{method="POST",route="/api/v1/auth/login",status="429"}');
    expect(answered.every((n) => n > 0), `429s by instance: ${answered}`).toBe(true);
  });

  test('50 parallel bookings of one slot through nginx give exactly one order', async () => {
    // The guide, the open slot and ten travelers (with the admin's password hash), written straight to the cluster's database.
    let handle: DatabaseHandle | undefined;
    const date = addDays(todayInTaipei(), 3);
    let guideId: number;
    let travelerEmails: string[];
    try {
      handle = await openDatabase({ url: env.DATABASE_URL });
      const [admin] = await handle.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, ADMIN.email));
      const guide = await createGuide({}, handle.db);
      guideId = guide.id;
      await createAvailability(guide.id, { from: date, days: 1, price: 1800, slots: ['morning'] }, handle.db);
      const travelers = await Promise.all(Array.from({ length: 10 }, () => createTraveler({ passwordHash: admin!.hash }, handle!.db)));
      travelerEmails = travelers.map((t) => t.email);
    } finally {
      await handle?.close();
    }
    const tokens = await Promise.all(
      travelerEmails.map(async (email) => {
        const res = await fetch(`${nginxUrl}/api/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email, password: ADMIN.password }) });
        expect(res.status).toBe(200);
        return ((await res.json()) as { data: { token: string } }).data.token;
      }),
    );
    const [createdBefore, conflictsBefore, heldBefore] = [
      await scrape('bookings_created_total'),
      await scrape('bookings_refused_total{reason="TIME_CONFLICT"}'),
      await scrape('bookings_refused_total{reason="ALREADY_BOOKED"}'),
    ];
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        fetch(`${nginxUrl}/api/v1/orders`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens[i % tokens.length]}` },
          body: JSON.stringify({ guideId, date, timeSlot: 'morning', numberOfPeople: 2, termsAccepted: true }),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
    const { rows } = await db.query('select count(*)::int as n from orders where guide_id = $1 and date = $2', [guideId!, date]);
    await db.end();
    expect(rows[0].n).toBe(1);
    // Counted where they were answered: one order created; the winner's four other requests told the slot is already
    // theirs (ALREADY_BOOKED), the other 45 that another traveler has it (TIME_CONFLICT), over both instances.
    const created = (await scrape('bookings_created_total')).map((n, i) => n - createdBefore[i]!);
    const conflicts = (await scrape('bookings_refused_total{reason="TIME_CONFLICT"}')).map((n, i) => n - conflictsBefore[i]!);
    const held = (await scrape('bookings_refused_total{reason="ALREADY_BOOKED"}')).map((n, i) => n - (heldBefore[i] ?? 0));
    expect(sum(created)).toBe(1);
    expect(sum(held)).toBe(4);
    expect(sum(conflicts)).toBe(45);
    expect(conflicts.every((n) => n > 0), `conflicts by instance: ${conflicts}`).toBe(true);
  });

  test('a guide’s profile edit on one instance shows in search on the other within a second', async () => {
    // A listed guide who logs in with the admin's password, written straight to the cluster's database.
    let handle: DatabaseHandle | undefined;
    let guide: { id: number; email: string };
    try {
      handle = await openDatabase({ url: env.DATABASE_URL });
      const [admin] = await handle.db.select({ hash: users.passwordHash }).from(users).where(eq(users.email, ADMIN.email));
      guide = await createGuide({ passwordHash: admin!.hash }, handle.db);
    } finally {
      await handle?.close();
    }
    const login = await api(appUrls[0]!, '/api/v1/auth/login', { method: 'POST', json: { email: guide!.email, password: ADMIN.password } });
    expect(login.status).toBe(200);
    const guideToken = ((await login.json()) as { data: { token: string } }).data.token;
    const word = `soakword${Date.now().toString(36)}`;
    const search = async () => {
      const res = await fetch(`${appUrls[1]}/api/v1/guides?keyword=${word}`);
      return ((await res.json()) as { data: { guides: Array<{ id: number }> } }).data.guides.map((g) => g.id);
    };
    // Instance b has answered this search (and keeps its catalogue in memory) before the edit.
    expect(await search()).toEqual([]);
    const edited = await fetch(`${appUrls[0]}/api/v1/guides/${guide!.id}/profile`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${guideToken}` },
      body: JSON.stringify({ city: 'taipei', language: ['zh'], price: 2000, description: `帶你走訪在地景點 ${word}` }),
    });
    expect(edited.status, await edited.clone().text()).toBe(200);
    const start = Date.now();
    let found: number[] = [];
    while (Date.now() - start < 1_000 && !found.includes(guide!.id)) {
      found = await search();
      if (!found.includes(guide!.id)) await sleep(50);
    }
    expect(found, `instance b after ${Date.now() - start} ms`).toContain(guide!.id);
  });

  /** Marks all read on one instance; resolves with the event each socket got. */
  async function eventsFrom(base: string, expected: Socket[]) {
    const received = expected.map((socket) => new Promise((resolve) => socket.once('notification_read', resolve)));
    const res = await api(base, '/api/v1/notifications/read-all', { method: 'PUT', json: {} });
    expect(res.status).toBe(200);
    const timeout = sleep(5_000).then(() => 'no event within 5 s');
    return Promise.all(received.map((r) => Promise.race([r, timeout])));
  }

  async function connect(transports: Array<'websocket' | 'polling'>) {
    const socket = io(nginxUrl, { auth: { token }, transports, reconnectionDelay: 200, reconnectionDelayMax: 1000 });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  test('a Socket.IO event sent on either instance reaches sockets connected through nginx (WebSocket and long-polling)', async () => {
    const overWebSocket = await connect(['websocket']);
    const overPolling = await connect(['polling']);
    // Whichever instance holds the sockets, one of these two requests is made on the other one.
    for (const base of appUrls) {
      expect(await eventsFrom(base, [overWebSocket, overPolling])).toEqual([
        { all: true, unreadCount: 0 },
        { all: true, unreadCount: 0 },
      ]);
    }
  });

  test('a rolling restart under load loses no request, and the sockets reconnect', async () => {
    test.setTimeout(120_000);
    const results = { sent: 0, failed: [] as string[] };
    let running = true;
    const requests: Array<() => Promise<Response>> = [
      () => fetch(`${nginxUrl}/api/ping`),
      () => fetch(`${nginxUrl}/guides`),
      () => fetch(`${nginxUrl}/api/v1/guides`),
      () => api(nginxUrl, '/api/v1/notifications'),
      () => api(nginxUrl, '/api/v1/notifications/read-all', { method: 'PUT', json: {} }),
    ];
    // About 20 requests a second, from four clients.
    const client = async (offset: number) => {
      for (let i = offset; running; i++) {
        const request = requests[i % requests.length]!;
        results.sent++;
        try {
          const res = await request();
          await res.arrayBuffer();
          if (res.status !== 200) results.failed.push(`${res.status} ${res.url}`);
        } catch (error) {
          results.failed.push(String(error));
        }
        await sleep(200);
      }
    };
    const load = Promise.all([0, 1, 2, 3].map(client));
    for (const name of ['a', 'b']) {
      await sleep(1_000);
      const restarted = await runScript(['restart', name], env);
      expect(restarted.code, restarted.output).toBe(0);
      const log = await fs.promises.readFile(path.join(dir, `${name}.log`), 'utf8');
      expect(log).toContain('SIGTERM received: draining');
      expect(log).toContain('Shutdown complete');
      expect(log).not.toContain('cut off');
    }
    await sleep(1_000);
    running = false;
    await load;
    console.log(`rolling restart: ${results.sent} requests sent, ${results.failed.length} failed`);
    expect(results.failed).toEqual([]);
    expect(results.sent).toBeGreaterThan(100);

    // Both sockets are connected again (to whichever instance) and get events sent on either instance.
    for (const socket of sockets) await expect.poll(() => socket.connected, { timeout: 10_000 }).toBe(true);
    for (const base of appUrls) {
      expect(await eventsFrom(base, sockets)).toEqual(sockets.map(() => ({ all: true, unreadCount: 0 })));
    }
  });
});
