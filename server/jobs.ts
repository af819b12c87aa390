import { PERIODIC_JOBS, runJobIfDue, type Job } from '~/services/jobs/jobs.server';
import { logError as logSafely } from '~/services/platform/log.server';
import type { Database } from '~db/client';

/**
 * The periodic job runner of one instance (docs/decisions/024). Every `tickMs` it offers each job to
 * runJobIfDue, which runs it only when it is due and no other instance has claimed it. Ticks never overlap.
 * stop() is what the shutdown awaits: no new tick starts, and the tick in progress finishes first.
 */
export interface JobRunner {
  stop(): Promise<void>;
}

export interface JobRunnerOptions {
  db: () => Database;
  jobs?: readonly Job[];
  /** How often to look for due jobs (30 s by default; the first look comes after `firstTickMs`). */
  tickMs?: number;
  firstTickMs?: number;
  log?: (message: string) => void;
  logError?: (message: string, error: unknown) => void;
}

export function startJobRunner(options: JobRunnerOptions): JobRunner {
  const jobs = options.jobs ?? PERIODIC_JOBS;
  const tickMs = options.tickMs ?? 30_000;
  const log = options.log ?? ((message) => console.log(message));
  const logError = options.logError ?? ((message, error) => logSafely(message, error));
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> | undefined;

  const tick = async () => {
    for (const job of jobs) {
      if (stopped) return;
      try {
        const outcome = await runJobIfDue(job, options.db());
        if (outcome.ran) log(`job ${job.name}: ${JSON.stringify(outcome.result)}`);
      } catch (error) {
        logError(`job ${job.name} failed (it runs again at the next tick)`, error);
      }
    }
  };
  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      current = tick().finally(() => {
        current = undefined;
        schedule(tickMs);
      });
    }, ms);
    timer.unref();
  };
  schedule(options.firstTickMs ?? 5_000);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
