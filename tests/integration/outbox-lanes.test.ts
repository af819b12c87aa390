import net from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getDatabaseHandle, getDb } from '~db/client';
import { outbox } from '~db/schema';
import { getConfig } from '~/env.server';
import { enqueueMail } from '~/services/platform/mail.server';
import { startOutboxWorker, type OutboxWorker, type OutboxWorkerOptions } from '~/services/jobs/outbox-worker.server';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { createGuide, createTraveler } from '~server/seed/factories';
import { loginAs } from '../support/api';
import { useTestServer } from '../support/http-server';
import { startPushService, type PushService } from '../support/push-service';
import { codeFrom, startSmtpSink, type SmtpSink } from '../support/smtp-sink';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Issue 31: one slow push service must not stop the mail. A push service (or an SMTP server) that answers and then
 * trickles one byte every few seconds is cut at the delivery's deadline; mail and push are separate lanes; each job
 * is recorded as soon as it ends; stop() gives up what is still in flight when told to, and its rows come back
 * after their lease. Real HTTP, a real push service and a real SMTP server, on both drivers.
 */
useTestDatabase();
const server = useTestServer();

let push: PushService;
let sink: SmtpSink;
beforeAll(async () => {
  push = await startPushService();
  sink = await startSmtpSink();
  return async () => {
    await push.close();
    await sink.close();
  };
});

const workers: OutboxWorker[] = [];
async function worker(options: OutboxWorkerOptions = {}) {
  const started = await startOutboxWorker(getDatabaseHandle(), { pollMs: 100, ...options });
  workers.push(started);
  return started;
}

let previousSmtp: string | undefined;
beforeEach(() => {
  resetRateLimits();
  previousSmtp = getConfig().SMTP_URL;
  getConfig().SMTP_URL = sink.url;
  getConfig().PUSH_ALLOW_PRIVATE_ENDPOINTS = true;
});
afterEach(async () => {
  // A worker still sending gives that up at once (the row is left to its lease).
  await Promise.all(workers.splice(0).map((w) => w.stop(AbortSignal.timeout(500))));
  getConfig().SMTP_URL = previousSmtp;
  getConfig().PUSH_ALLOW_PRIVATE_ENDPOINTS = false;
  await getDb().delete(outbox);
});

async function waitUntil<T>(what: string, read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function subscribe(token: string, path: string) {
  const client = push.client(path);
  const answer = await server.request('/api/v1/push/subscriptions', { token, json: { endpoint: client.endpoint, keys: client.keys } });
  expect(answer.status).toBe(201);
  return client;
}

/** A traveler writes to the guide: the guide's browsers get a push each (decision 029). */
async function chatToGuide(guideId: number) {
  const traveler = await createTraveler();
  const started = await server.request('/api/v1/chats', { token: (await loginAs(traveler)).token, json: { guideId, message: '請問下週六有空嗎？' } });
  expect(started.status).toBe(201);
}

const pushRowTo = async (path: string) => {
  const rows = await getDb()
    .select()
    .from(outbox)
    .where(sql`${outbox.kind} = 'push' and ${outbox.payload}->>'subscriptionId' in (select id::text from push_subscriptions where endpoint = ${`${push.url}${path}`})`);
  return rows[0];
};

/** An SMTP server that greets, then answers EHLO one line every `everyMs` and never finishes (a trickling provider). */
async function startTricklingSmtp(everyMs = 300) {
  const sockets = new Set<net.Socket>();
  let closed = 0;
  const smtp = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.write('220 trickle.test ESMTP\r\n');
    let drip: ReturnType<typeof setInterval> | undefined;
    socket.once('data', () => {
      drip = setInterval(() => socket.write('250-still thinking\r\n'), everyMs);
    });
    socket.on('close', () => {
      clearInterval(drip);
      sockets.delete(socket);
      closed++;
    });
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.address() as net.AddressInfo).port}`,
    get closed() {
      return closed;
    },
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => smtp.close(() => resolve()));
    },
  };
}

describe(`outbox lanes and deadlines (${testDriver})`, () => {
  it('a push service that trickles its answer holds back no mail, and the push is given up at its deadline', { timeout: 60_000 }, async () => {
    const guide = await createGuide();
    push.trickle('/trickle/guide');
    await subscribe((await loginAs(guide)).token, '/trickle/guide');
    await worker();
    await chatToGuide(guide.id);
    // The push is in flight: the push service answered 200 and sends a byte every 5 s.
    await push.waitFor('/trickle/guide');
    const closedBefore = push.trickledClosed;

    // Three people register after it: each verification code arrives within seconds.
    const emails = [1, 2, 3].map((i) => `lane${i}-${Date.now()}@example.test`);
    for (const email of emails) {
      const registered = await server.request('/api/v1/auth/register', { json: { type: 'traveler', name: '新旅客', email, password: 'secret123' } });
      expect(registered.status).toBe(201);
    }
    for (const email of emails) expect(codeFrom(await sink.waitFor(email, { timeoutMs: 5_000 }))).toMatch(/^\d{6}$/);

    // The push is cut at its deadline (10 s), not held for ever: recorded for a retry, its connection closed.
    const row = await waitUntil('the push recorded', () => pushRowTo('/trickle/guide'), (r) => !!r?.lastError, 30_000);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
    expect(row!.lastError).toMatch(/deadline/);
    expect(row!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());
    await waitUntil('the trickled connection closed', () => push.trickledClosed, (n) => n > closedBefore);
  });

  it('one hung push holds back no other: the browser that answers is recorded sent while the other still trickles', { timeout: 60_000 }, async () => {
    const guide = await createGuide();
    const token = (await loginAs(guide)).token;
    push.trickle('/trickle/laptop');
    await subscribe(token, '/trickle/laptop');
    await subscribe(token, '/send/phone');
    await worker();
    const closedBefore = push.trickledClosed;
    // One notice, one job per browser, claimed together.
    await chatToGuide(guide.id);
    await push.waitFor('/send/phone');
    await push.waitFor('/trickle/laptop');
    const sent = await waitUntil('the answered push recorded', () => pushRowTo('/send/phone'), (r) => r?.status === 'sent', 5_000);
    expect(sent!.lastError).toBeNull();
    // ... while the other is still in flight (its deadline is 10 s away).
    expect(push.trickledClosed).toBe(closedBefore);
    expect((await pushRowTo('/trickle/laptop'))!).toMatchObject({ status: 'pending', lastError: null });
  });

  it('an SMTP server that trickles its answers is cut at the mail deadline and its connection closed', { timeout: 60_000 }, async () => {
    const smtp = await startTricklingSmtp();
    try {
      getConfig().SMTP_URL = smtp.url;
      await worker({ lanes: { mail: { deadlineMs: 1_500 } } });
      await enqueueMail({ to: 'trickled@example.test', subject: 'cut me', text: 'x' });
      const [row] = await waitUntil(
        'the mail recorded',
        () => getDb().select().from(outbox).where(eq(outbox.kind, 'mail')),
        (rows) => !!rows[0]?.lastError,
      );
      expect(row).toMatchObject({ status: 'pending', attempts: 1, sentAt: null });
      expect(row!.lastError).toMatch(/deadline/);
      // The hung connection is closed by us, not left to be reused or to trickle on.
      await waitUntil('the SMTP connection closed', () => smtp.closed, (n) => n >= 1);
    } finally {
      await smtp.close();
    }
  });

  it('stop() gives up a stuck delivery when told to; its row comes back after the lease, to another worker', { timeout: 60_000 }, async () => {
    const guide = await createGuide();
    push.trickle('/trickle/stop');
    await subscribe((await loginAs(guide)).token, '/trickle/stop');
    // A short lease (longer than the deadlines) so that the test sees it end.
    const options: OutboxWorkerOptions = { leaseMs: 4_000, lanes: { mail: { deadlineMs: 3_000 }, push: { deadlineMs: 3_000 }, payment: { deadlineMs: 3_000 } } };
    const first = await startOutboxWorker(getDatabaseHandle(), { pollMs: 100, ...options });
    const closedBefore = push.trickledClosed;
    await chatToGuide(guide.id);
    await push.waitFor('/trickle/stop');

    const stopping = Date.now();
    await first.stop(AbortSignal.timeout(300));
    expect(Date.now() - stopping).toBeLessThan(2_000);
    // Given up, not recorded: the lease brings it back.
    const row = await pushRowTo('/trickle/stop');
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lastError: null });
    await waitUntil('the abandoned connection closed', () => push.trickledClosed, (n) => n > closedBefore);

    // The next instance (or the next start) sends it again once the lease has run out.
    await worker(options);
    await push.waitFor('/trickle/stop', 2);
    expect((await pushRowTo('/trickle/stop'))!.attempts).toBe(2);
  });

  // Two instances racing for rows needs PostgreSQL (PGlite runs one statement at a time).
  it.runIf(testDriver === 'pg')('another instance never sends again what a hung one claimed: each job is recorded as it ends, the lease outlasts the deadline', { timeout: 60_000 }, async () => {
    const guide = await createGuide();
    const token = (await loginAs(guide)).token;
    push.trickle('/trickle/race');
    await subscribe(token, '/trickle/race');
    await subscribe(token, '/send/race');
    // Short deadlines and lease, so that the test sees the lease end; the second instance claims every 50 ms.
    const options: OutboxWorkerOptions = { pollMs: 50, leaseMs: 3_000, retryDelayMs: () => 60_000, lanes: { mail: { deadlineMs: 2_000 }, push: { deadlineMs: 2_000 }, payment: { deadlineMs: 2_000 } } };
    await worker(options);
    await chatToGuide(guide.id);
    await push.waitFor('/send/race');
    await push.waitFor('/trickle/race');
    await worker(options);

    await waitUntil('the hung push recorded', () => pushRowTo('/trickle/race'), (r) => !!r?.lastError);
    // Past the first claim's lease: nothing was claimed and sent a second time.
    await new Promise((r) => setTimeout(r, 3_500));
    expect(push.received.filter((r) => r.path === '/send/race')).toHaveLength(1);
    expect(push.received.filter((r) => r.path === '/trickle/race')).toHaveLength(1);
    expect(await pushRowTo('/send/race')).toMatchObject({ status: 'sent', attempts: 1 });
    expect(await pushRowTo('/trickle/race')).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('refuses a lease that a delivery could outlast (another instance would send it again meanwhile)', async () => {
    await expect(startOutboxWorker(getDatabaseHandle(), { leaseMs: 5_000, lanes: { push: { deadlineMs: 10_000 } } })).rejects.toThrow(/lease/);
  });
});
