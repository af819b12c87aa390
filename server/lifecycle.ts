import type http from 'node:http';

/**
 * Draining an instance for a restart nobody notices (issue 25, docs/decisions/023). On the first SIGTERM or
 * SIGINT the instance
 *   1. says it is draining: /api/ready answers 503 (/api/ping still answers), every answer carries
 *      `Connection: close` (server/app.ts), so keep-alive connections end after their current request;
 *   2. after `drainDelayMs` (time for a load balancer that polls /api/ready to notice; 0 behind our nginx,
 *      which retries a refused connection on the other instance) stops accepting connections and asks its
 *      sockets to reconnect (they land on another instance);
 *   3. waits for the requests in flight, at most `timeoutMs`, then cuts what is left;
 *   4. runs the stop steps in order (jobs, sockets, caches, database pool) and exits 0 (1 when it had to cut
 *      requests or a step failed).
 * A second signal exits at once.
 */
export interface DrainState {
  readonly draining: boolean;
}

export interface ShutdownStep {
  name: string;
  run: () => Promise<void>;
}

export interface ShutdownOptions {
  server: http.Server;
  /** The longest wait for requests in flight (SHUTDOWN_TIMEOUT_MS, 10 s by default). */
  timeoutMs: number;
  /** How long /api/ready answers 503 before the listener closes (DRAIN_DELAY_MS, 0 by default). */
  drainDelayMs: number;
  /** Called when the listener closes: long-lived connections (sockets) that would keep the drain waiting. */
  onStopAccepting?: () => void;
  /** Run in order once no request is in flight (or the time is up). */
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
  const logError = options.logError ?? ((message, error) => console.error(message, error ?? ''));
  const exit = options.exit ?? ((code) => process.exit(code));
  const state = { draining: false };
  const { server } = options;

  const waitForRequests = () =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        // Whatever is still open after the bound is cut, so the process can end.
        server.closeAllConnections();
        resolve(false);
      }, options.timeoutMs);
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

  async function drain(reason: string) {
    log(`${reason} received: draining (/api/ready answers 503; in-flight requests get ${options.timeoutMs / 1000} s)`);
    if (options.drainDelayMs > 0) await new Promise((r) => setTimeout(r, options.drainDelayMs));
    const finished = await waitForRequests();
    if (!finished) logError(`Requests still in flight after ${options.timeoutMs / 1000} s were cut off`);
    let failed = !finished;
    for (const step of options.steps) {
      try {
        await step.run();
      } catch (error) {
        failed = true;
        logError(`Shutdown: ${step.name} failed`, error);
      }
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
