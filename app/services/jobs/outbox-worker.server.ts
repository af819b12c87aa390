import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '~db/client';
import { whenAborted } from '~/lib/abort';
import { countEvent } from '../platform/counters.server';
import { logError } from '../platform/log.server';
import { deliverMail, type Mail } from '../platform/mail.server';
import { OUTBOX_CHANNEL, type OutboxKind } from '../platform/outbox.server';
import { deliverPush } from '../messaging/push.server';
import { runPaymentJob } from '../payments/payment-jobs.server';

/**
 * The outbox worker (decisions 017 and 033): sends what requests queued (outbox.server.ts), after their commit.
 *
 * - One lane per kind (mail, push), each with its own slots (`concurrency`) and its own deadline: nothing a push
 *   service does (anyone's server: the browser chose the endpoint) can hold a verification code, a password reset
 *   or a booking notice back.
 * - Woken by the NOTIFY of each enqueuing commit (from any instance), every `pollMs` for retries and for notices
 *   missed while the listening connection was down, and when a slot frees while its lane may have more due.
 * - A wake-up waits `gatherMs`, then claims for every lane with free slots in one short statement, at most as many
 *   rows per lane as it has free slots, `FOR UPDATE SKIP LOCKED`: several instances claim disjoint rows and never
 *   wait for each other. The claim pushes `next_attempt_at` ahead by `leaseMs` (a lease, longer than any deadline),
 *   so a row being sent is due for no one else; if this process dies mid-send, the row is due again when the lease
 *   ends (a mail may then arrive twice; it is never lost).
 * - Each job runs on its own under its lane's deadline (an AbortSignal its sender must obey; the worker stops
 *   waiting then in any case) and is recorded as soon as it ends: sent, or tried again after
 *   `retryDelayMs(attempts)` (exponential backoff), or after `maxAttempts` marked failed and logged.
 * - `stop(signal)` stops claiming and waits for the jobs in flight; when `signal` aborts first it cuts them and
 *   leaves their rows to their lease (the graceful shutdown's bounded drain).
 */
export type OutboxSender = (payload: unknown, signal: AbortSignal) => Promise<void>;

export interface LaneSettings {
  /** Jobs of the lane in flight at once (so also the most one claim takes for it). */
  concurrency: number;
  /** The longest one delivery may take, all of it (connecting, sending, reading the answer); then it is cut. */
  deadlineMs: number;
  /** Attempts before the job is given up (marked failed); unset: the worker's `maxAttempts`. */
  maxAttempts?: number;
}

/** SMTP is our own provider; a push service is whatever the browser named, and a push is worth less waiting. */
export const LANES: Record<OutboxKind, LaneSettings> = {
  mail: { concurrency: 10, deadlineMs: 30_000 },
  push: { concurrency: 20, deadlineMs: 10_000 },
  // A provider call (capture, void, refund): few at once, and the form post's own 10 s deadline fits inside.
  // Money is never given up after an hour and a half of a provider outage (or of a refund waiting for the guide's
  // next earnings): with the backoff's one-hour cap, 200 attempts keep trying for about eight days.
  payment: { concurrency: 4, deadlineMs: 30_000, maxAttempts: 200 },
};

export interface OutboxWorkerOptions {
  pollMs?: number;
  maxAttempts?: number;
  /** Delay before attempt `attempts + 1`, after `attempts` failed ones. */
  retryDelayMs?: (attempts: number) => number;
  /** How far a claim moves a row's next attempt: must exceed every lane's deadline (checked at start). */
  leaseMs?: number;
  /**
   * How long a wake-up waits before it claims, so that the jobs of commits arriving together are claimed as one
   * batch: under load, without it, every booking's mail cost the worker a claim statement of its own.
   */
  gatherMs?: number;
  /** Changes to a lane's settings (LANES). */
  lanes?: { [K in OutboxKind]?: Partial<LaneSettings> };
  /** A sender per kind; rows of a kind without one wait for an instance that has it. Default: mail and push. */
  senders?: Partial<Record<OutboxKind, OutboxSender>>;
}

export interface OutboxWorker {
  /** Looks for due rows now (also what each NOTIFY does). */
  wake(): void;
  /**
   * Stops claiming and resolves once every job in flight is recorded. When `signal` aborts first, the jobs still
   * being sent are cut and not recorded: their rows are due again when their lease ends (at the next start, or on
   * another instance).
   */
  stop(signal?: AbortSignal): Promise<void>;
}

/** 30 s, 1 min, 2 min … capped at an hour: eight attempts span about an hour and a half. */
export const defaultRetryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);

const DEFAULTS = { pollMs: 5_000, maxAttempts: 8, leaseMs: 120_000, gatherMs: 50, retryDelayMs: defaultRetryDelayMs };
const RELISTEN_MS = 5_000;

interface Claimed {
  id: number;
  kind: OutboxKind;
  payload: unknown;
  attempts: number;
}

interface Running {
  controller: AbortController;
  /** Set when stop() gave up on it: its outcome is not recorded (the lease brings the row back). */
  abandoned: boolean;
  done: Promise<void>;
}

interface Lane extends LaneSettings {
  kind: OutboxKind;
  send: OutboxSender;
  running: Map<number, Running>;
  /** The last claim filled every free slot (or a wake-up came since): more may be due when a slot frees. */
  maybeDue: boolean;
}

export async function startOutboxWorker(handle: DatabaseHandle, options: OutboxWorkerOptions = {}): Promise<OutboxWorker> {
  const settings = { ...DEFAULTS, ...options };
  const { db } = handle;
  const senders: Partial<Record<OutboxKind, OutboxSender>> = options.senders ?? {
    mail: (payload, signal) => deliverMail(payload as Mail, signal),
    push: (payload, signal) => deliverPush(payload, signal, db),
    // A provider call has its own deadline (form-post.server.ts); the signal only stops the worker waiting for it.
    payment: (payload) => runPaymentJob(payload, db),
  };
  const lanes: Lane[] = (Object.keys(senders) as OutboxKind[]).map((kind) => ({
    kind,
    send: senders[kind]!,
    ...LANES[kind],
    ...options.lanes?.[kind],
    running: new Map(),
    maybeDue: true,
  }));
  for (const lane of lanes) {
    // A lease the delivery can outlast lets another instance claim and send the row while it is still being sent.
    if (settings.leaseMs <= lane.deadlineMs) {
      throw new Error(`outbox: the lease (${settings.leaseMs} ms) must be longer than the ${lane.kind} deadline (${lane.deadlineMs} ms)`);
    }
    if (!(lane.concurrency >= 1)) throw new Error(`outbox: the ${lane.kind} lane needs at least one slot`);
  }

  let stopped = false;
  let givenUp = false;
  let claiming: Promise<void> | undefined;
  let again = false;
  let woken = true;
  let unlisten: (() => Promise<void>) | undefined;
  let relisten: ReturnType<typeof setTimeout> | undefined;

  async function claim(asks: Array<{ lane: Lane; limit: number }>): Promise<Claimed[]> {
    // One statement for every lane with free slots, each lane's rows chosen by its own limit.
    const picks = asks.map(
      ({ lane, limit }, i) => sql`${sql.raw(`due_${i}`)} as (
        select id from outbox
        where status = 'pending' and next_attempt_at <= now() and kind = ${lane.kind}
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked)`,
    );
    const union = sql.raw(asks.map((_, i) => `select id from due_${i}`).join(' union all '));
    const result = await db.execute(sql`
      with ${sql.join(picks, sql`, `)}
      update outbox set attempts = attempts + 1, next_attempt_at = now() + ${settings.leaseMs} * interval '1 millisecond'
      where id in (${union})
      returning id, kind, payload, attempts`);
    return (result as unknown as { rows: Claimed[] }).rows;
  }

  // Jobs that end together (under load: many bookings' mail) are recorded as sent by one statement.
  let sentQueue: Array<{ id: number; settle: (error?: unknown) => void }> = [];
  async function flushSent(): Promise<void> {
    const batch = sentQueue;
    sentQueue = [];
    try {
      await db.execute(sql`
        update outbox set status = 'sent', sent_at = now(), last_error = null
        where id in (${sql.join(batch.map((job) => sql`${job.id}`), sql`, `)})`);
      for (const job of batch) job.settle();
    } catch (error) {
      for (const job of batch) job.settle(error);
    }
  }
  function recordSent(id: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (sentQueue.length === 0) setImmediate(() => void flushSent());
      sentQueue.push({ id, settle: (error) => (error === undefined ? resolve() : reject(error)) });
    });
  }

  async function recordFailure(lane: Lane, job: Claimed, error: unknown): Promise<void> {
    const message = error instanceof Error ? error.message : String(error);
    if (job.attempts >= (lane.maxAttempts ?? settings.maxAttempts)) {
      countEvent('outbox_deliveries_total', { kind: job.kind, outcome: 'failed' });
      console.error(`outbox: ${job.kind} #${job.id} failed after ${job.attempts} attempts, given up: ${message}`);
      await db.execute(sql`update outbox set status = 'failed', last_error = ${message} where id = ${job.id}`);
    } else {
      countEvent('outbox_deliveries_total', { kind: job.kind, outcome: 'retry' });
      const delay = settings.retryDelayMs(job.attempts);
      console.warn(`outbox: ${job.kind} #${job.id} attempt ${job.attempts} failed, next in ${Math.ceil(delay / 1000)} s: ${message}`);
      await db.execute(sql`
        update outbox set last_error = ${message}, next_attempt_at = now() + ${delay} * interval '1 millisecond'
        where id = ${job.id}`);
    }
  }

  /** Sends one job under its lane's deadline, then records its outcome. */
  async function run(lane: Lane, job: Claimed, running: Running): Promise<void> {
    const { signal } = running.controller;
    const deadline = setTimeout(
      () => running.controller.abort(new Error(`${lane.kind} delivery cut at its deadline (${lane.deadlineMs / 1000} s)`)),
      lane.deadlineMs,
    );
    let failure: { error: unknown } | undefined;
    try {
      // The sender must stop when the signal aborts; the worker stops waiting then in any case.
      await Promise.race([lane.send(job.payload, signal), whenAborted(signal)]);
    } catch (error) {
      failure = { error };
    } finally {
      clearTimeout(deadline);
    }
    if (running.abandoned) return;
    if (failure) return recordFailure(lane, job, failure.error);
    countEvent('outbox_deliveries_total', { kind: job.kind, outcome: 'sent' });
    return recordSent(job.id);
  }

  function start(lane: Lane, job: Claimed): void {
    const running: Running = { controller: new AbortController(), abandoned: false, done: Promise.resolve() };
    lane.running.set(job.id, running);
    running.done = run(lane, job, running)
      .catch((error: unknown) =>
        logError(`outbox: could not record ${job.kind} #${job.id} (it is due again when its lease ends)`, error),
      )
      .finally(() => {
        lane.running.delete(job.id);
        if (lane.maybeDue) schedule();
      });
  }

  const gather = () => new Promise((resolve) => setTimeout(resolve, settings.gatherMs));

  async function claimDue(): Promise<void> {
    do {
      again = false;
      if (settings.gatherMs > 0) await gather();
      if (stopped) return;
      if (woken) {
        woken = false;
        for (const lane of lanes) lane.maybeDue = true;
      }
      const asks = lanes.filter((l) => l.maybeDue && l.running.size < l.concurrency).map((lane) => ({ lane, limit: lane.concurrency - lane.running.size }));
      if (asks.length === 0) continue;
      const jobs = await claim(asks);
      // Claimed rows are leased: they run even if stop() came meanwhile, unless it has given up already.
      if (givenUp) return;
      for (const { lane, limit } of asks) {
        const mine = jobs.filter((job) => job.kind === lane.kind);
        // Every free slot filled: more may be due, claimed as slots free up.
        lane.maybeDue = mine.length === limit;
        for (const job of mine) start(lane, job);
      }
    } while (!stopped && (again || woken));
  }

  function schedule(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = claimDue()
      .catch((error: unknown) => logError('outbox: could not claim jobs (tried again at the next poll)', error))
      .finally(() => {
        claiming = undefined;
        if (again) schedule();
      });
  }

  function wake(): void {
    woken = true;
    schedule();
  }

  async function listen(): Promise<void> {
    try {
      unlisten = await handle.listen(OUTBOX_CHANNEL, wake, () => {
        unlisten = undefined;
        if (!stopped) relisten = setTimeout(() => void listen(), RELISTEN_MS);
      });
    } catch (error) {
      logError('outbox: cannot listen for new jobs (polling only until it can)', error);
      if (!stopped) relisten = setTimeout(() => void listen(), RELISTEN_MS);
    }
    relisten?.unref?.();
  }

  /** Resolves once no job is in flight (jobs a claim in progress starts are waited for too). */
  async function settled(): Promise<void> {
    await unlisten?.();
    await claiming;
    for (;;) {
      const running = lanes.flatMap((lane) => [...lane.running.values()]);
      if (running.length === 0) return;
      await Promise.all(running.map((r) => r.done));
    }
  }

  await listen();
  const poll = setInterval(wake, settings.pollMs);
  poll.unref();
  wake();

  return {
    wake,
    async stop(signal) {
      stopped = true;
      clearInterval(poll);
      clearTimeout(relisten);
      const drained = settled();
      if (!signal) return drained;
      try {
        await Promise.race([drained, whenAborted(signal)]);
      } catch (error) {
        if (!signal.aborted) throw error;
        // Out of time: cut what is still being sent and leave it to its lease.
        givenUp = true;
        for (const lane of lanes) {
          for (const running of lane.running.values()) {
            running.abandoned = true;
            running.controller.abort(new Error('the outbox worker stopped'));
          }
        }
        drained.catch(() => undefined);
      }
    },
  };
}
