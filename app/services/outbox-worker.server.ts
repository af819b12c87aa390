import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '~db/client';
import { countEvent } from './counters.server';
import { deliverMail, type Mail } from './mail.server';
import { OUTBOX_CHANNEL, type OutboxKind } from './outbox.server';
import { deliverPush } from './push.server';

/**
 * The outbox worker (decision 017): sends what requests queued (outbox.server.ts), after their commit.
 *
 * - Woken by the NOTIFY of each enqueuing commit (from any instance), and every `pollMs` for retries and for
 *   notices missed while the listening connection was down.
 * - Claims up to `batchSize` due rows in one short statement, `FOR UPDATE SKIP LOCKED`: several instances
 *   claim disjoint rows and never wait for each other. The claim pushes `next_attempt_at` ahead by `leaseMs`
 *   (a lease), so a row being sent is not due for anyone else; if this process dies mid-send, the row is due
 *   again when the lease ends (a mail may then arrive twice; it is never lost).
 * - A failed send is tried again after `retryDelayMs(attempts)` (exponential backoff); after `maxAttempts` the
 *   row is marked failed and logged.
 * - `stop()` stops claiming and waits for the batch in flight (the graceful shutdown's drain).
 */
export type OutboxSender = (payload: unknown) => Promise<void>;

export interface OutboxWorkerOptions {
  batchSize?: number;
  pollMs?: number;
  maxAttempts?: number;
  /** Delay before attempt `attempts + 1`, after `attempts` failed ones. */
  retryDelayMs?: (attempts: number) => number;
  leaseMs?: number;
  /**
   * How long a wake-up waits before it claims, so that the jobs of commits arriving together are claimed and
   * recorded as one batch: under load, without it, every booking's mail cost the worker two statements of its own.
   */
  gatherMs?: number;
  /** A sender per kind; rows of a kind without one wait for an instance that has it. Default: mail and push. */
  senders?: Partial<Record<OutboxKind, OutboxSender>>;
}

export interface OutboxWorker {
  /** Looks for due rows now (also what each NOTIFY does). */
  wake(): void;
  /** Stops claiming rows and resolves once the batch in flight is sent or rescheduled. */
  stop(): Promise<void>;
}

/** 30 s, 1 min, 2 min … capped at an hour: eight attempts span about an hour and a half. */
export const defaultRetryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

const DEFAULTS = { batchSize: 20, pollMs: 5_000, maxAttempts: 8, leaseMs: 120_000, gatherMs: 50, retryDelayMs: defaultRetryDelayMs };
const RELISTEN_MS = 5_000;

interface Claimed {
  id: number;
  kind: OutboxKind;
  payload: unknown;
  attempts: number;
}

export async function startOutboxWorker(handle: DatabaseHandle, options: OutboxWorkerOptions = {}): Promise<OutboxWorker> {
  const settings = { ...DEFAULTS, ...options };
  const { db } = handle;
  const senders: Partial<Record<OutboxKind, OutboxSender>> = options.senders ?? {
    mail: (payload) => deliverMail(payload as Mail),
    push: (payload) => deliverPush(payload, db),
  };
  const kinds = Object.keys(senders);
  let stopped = false;
  let inFlight: Promise<void> | undefined;
  let again = false;
  let unlisten: (() => Promise<void>) | undefined;
  let relisten: ReturnType<typeof setTimeout> | undefined;

  async function claim(): Promise<Claimed[]> {
    const result = await db.execute(sql`
      update outbox set attempts = attempts + 1, next_attempt_at = now() + ${settings.leaseMs} * interval '1 millisecond'
      where id in (
        select id from outbox
        where status = 'pending' and next_attempt_at <= now() and kind in ${sql.raw(`(${kinds.map((k) => `'${k}'`).join(', ')})`)}
        order by next_attempt_at, id
        limit ${settings.batchSize}
        for update skip locked
      )
      returning id, kind, payload, attempts`);
    return (result as unknown as { rows: Claimed[] }).rows;
  }

  /** Sends one job; answers whether it went (a failure is recorded here, a success by the batch). */
  async function send(job: Claimed): Promise<boolean> {
    try {
      await senders[job.kind]!(job.payload);
      countEvent('outbox_deliveries_total', { kind: job.kind, outcome: 'sent' });
      return true;
    } catch (error) {
      countEvent('outbox_deliveries_total', { kind: job.kind, outcome: job.attempts >= settings.maxAttempts ? 'failed' : 'retry' });
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempts >= settings.maxAttempts) {
        console.error(`outbox: ${job.kind} #${job.id} failed after ${job.attempts} attempts, given up: ${message}`);
        await db.execute(sql`update outbox set status = 'failed', last_error = ${message} where id = ${job.id}`);
      } else {
        const delay = settings.retryDelayMs(job.attempts);
        console.warn(`outbox: ${job.kind} #${job.id} attempt ${job.attempts} failed, next in ${Math.ceil(delay / 1000)} s: ${message}`);
        await db.execute(sql`
          update outbox set last_error = ${message}, next_attempt_at = now() + ${delay} * interval '1 millisecond'
          where id = ${job.id}`);
      }
      return false;
    }
  }

  /** The sent jobs of a batch are recorded in one statement (under load a batch is many bookings' mail). */
  async function recordSent(jobs: Claimed[], sent: boolean[]): Promise<void> {
    const ids = jobs.filter((_, i) => sent[i]).map((job) => job.id);
    if (ids.length === 0) return;
    await db.execute(sql`
      update outbox set status = 'sent', sent_at = now(), last_error = null
      where id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  }

  const gather = () => new Promise((resolve) => setTimeout(resolve, settings.gatherMs));

  async function drain(): Promise<void> {
    do {
      again = false;
      if (settings.gatherMs > 0) await gather();
      if (stopped) return;
      const jobs = await claim();
      await recordSent(jobs, await Promise.all(jobs.map(send)));
      // A full batch: there may be more due now.
      if (jobs.length === settings.batchSize) again = true;
    } while (again && !stopped);
  }

  function wake(): void {
    if (stopped) return;
    if (inFlight) {
      again = true;
      return;
    }
    inFlight = drain()
      .catch((error: unknown) => console.error('outbox: could not claim or record jobs (tried again at the next poll):', error))
      .finally(() => {
        inFlight = undefined;
      });
  }

  async function listen(): Promise<void> {
    try {
      unlisten = await handle.listen(OUTBOX_CHANNEL, wake, () => {
        unlisten = undefined;
        if (!stopped) relisten = setTimeout(() => void listen(), RELISTEN_MS);
      });
    } catch (error) {
      console.error('outbox: cannot listen for new jobs (polling only until it can):', error);
      if (!stopped) relisten = setTimeout(() => void listen(), RELISTEN_MS);
    }
    relisten?.unref?.();
  }

  await listen();
  const poll = setInterval(wake, settings.pollMs);
  poll.unref();
  wake();

  return {
    wake,
    async stop() {
      stopped = true;
      clearInterval(poll);
      clearTimeout(relisten);
      await unlisten?.();
      await inFlight;
    },
  };
}
