import type http from 'node:http';
import { whenAborted } from '~/lib/abort';
import { describeError } from '~/services/platform/log.server';

/**
 * Draining an instance for a restart nobody notices (issue 25, docs/decisions/023). On the first SIGTERM or
 * SIGINT the instance
 *   1. says it is draining: /api/ready answers 503 (/api/ping still answers), every answer carries
 *      `Connection: close` (server/app.ts), so keep-alive connections end after their current request;
 *   2. after `drainDelayMs` (time for a load balancer that polls /api/ready to notice; 0 behind our nginx,
 *      which retries a refused connection on the other instance) stops accepting connections and asks its
 *      sockets to reconnect (they land on another instance);
 *   3. waits for the requests in flight, then runs the stop steps in order (jobs, outbox, sockets, caches, database
 *      pool) and exits 0 (1 when it had to cut requests, give a step up, or a step failed).
 * All of 3 holds within `timeoutMs` (decision 033): requests still in flight at that bound are cut, and a step still
 * running is told to give up (its signal aborts: the outbox cuts the deliveries in flight, whose rows come back after
 * their lease) and is left behind. A step that starts after the bound still gets STEP_GRACE_MS (the database closes).
 * A second signal exits at once.
 */
export interface DrainState {
  readonly draining: boolean;
}

export interface ShutdownStep {
  name: string;
  /** `signal` aborts when the step's time is up: a step with work in flight gives it up then. */
  run: (signal: AbortSignal) => Promise<void>;
}

/** What a step that starts once the shutdown's time is up still gets: closing a pool or a server takes milliseconds. */
const STEP_GRACE_MS = 500;

export interface ShutdownOptions {
  server: http.Server;
  /** The longest the requests in flight and the stop steps take together (SHUTDOWN_TIMEOUT_MS, 10 s by default). */
  timeoutMs: number;
  /** How long /api/ready answers 503 before the listener closes (DRAIN_DELAY_MS, 0 by default). */
  drainDelayMs: number;
  /** Called when the listener closes: long-lived connections (sockets) that would keep the drain waiting. */
  onStopAccepting?: () => void;
  /** Run in order once no request is in flight (or the time is up), each within what is left of `timeoutMs`. */
  steps: ShutdownStep[];
  log?: (message: string) => void;
  logError?: (message: string, error?: unknown) => void;
  exit?: (code: number) => void;
}

export interface Shutdown {
  state: DrainState;
  /** Starts the drain (the first call); a second call exits at once. */
  begin(reason: string): void;
}

export function createShutdown(options: ShutdownOptions): Shutdown {
  const log = options.log ?? ((message) => console.log(message));
  // On stderr, as the operator watching a shutdown reads it; an error is described without its query's parameters.
  const logError = options.logError ?? ((message, error) => console.error(message, error === undefined ? '' : describeError(error)));
  const exit = options.exit ?? ((code) => process.exit(code));
  const state = { draining: false };
  const { server } = options;

  const waitForRequests = (deadline: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        // Whatever is still open after the bound is cut, so the process can end.
        server.closeAllConnections();
        resolve(false);
      }, deadline - Date.now());
      server.close(() => {
        clearTimeout(timer);
        resolve(true);
      });
      options.onStopAccepting?.();
      // A keep-alive connection that finishes its request becomes idle; close it rather than wait for its timeout.
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      sweep.unref();
      server.once('close', () => clearInterval(sweep));
      server.closeIdleConnections();
    });

  /** Runs one step within `ms`; answers whether it finished (a failure or a step given up is logged). */
  async function runStep(step: ShutdownStep, ms: number): Promise<boolean> {
    const time = new AbortController();
    const timer = setTimeout(() => time.abort(new Error(`${step.name} still running after ${ms} ms`)), ms);
    try {
      await Promise.race([step.run(time.signal), whenAborted(time.signal)]);
      return true;
    } catch (error) {
      if (time.signal.aborted) logError(`Shutdown: ${step.name} did not finish within ${ms} ms; given up`);
      else logError(`Shutdown: ${step.name} failed`, error);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  async function drain(reason: string) {
    log(`${reason} received: draining (/api/ready answers 503; requests in flight and the stop steps get ${options.timeoutMs / 1000} s)`);
    if (options.drainDelayMs > 0) await new Promise((r) => setTimeout(r, options.drainDelayMs));
    const deadline = Date.now() + options.timeoutMs;
    const finished = await waitForRequests(deadline);
    if (!finished) logError(`Requests still in flight after ${options.timeoutMs / 1000} s were cut off`);
    let failed = !finished;
    for (const step of options.steps) {
      if (!(await runStep(step, Math.max(deadline - Date.now(), STEP_GRACE_MS)))) failed = true;
    }
    log('Shutdown complete');
    exit(failed ? 1 : 0);
  }

  return {
    state,
    begin(reason) {
      if (state.draining) {
        logError(`${reason} received again: exiting at once`);
        exit(1);
        return;
      }
      state.draining = true;
      void drain(reason);
    },
  };
}
