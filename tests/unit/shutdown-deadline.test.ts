import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createShutdown, type ShutdownStep } from '../../server/lifecycle';

/**
 * The shutdown is bounded (decision 033): a stop step that does not finish is told to give up when the time is
 * up and is left behind; the steps after it still run, and the process exits within SHUTDOWN_TIMEOUT_MS. A real
 * HTTP server; the steps are the test's own.
 */
async function listening(): Promise<http.Server> {
  const server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('shutdown deadline', () => {
  it('gives up a stuck step at the bound, runs the later steps and exits 1', async () => {
    const server = await listening();
    const ran: string[] = [];
    const errors: string[] = [];
    let stuckSignal: AbortSignal | undefined;
    const steps: ShutdownStep[] = [
      { name: 'quick', run: async () => void ran.push('quick') },
      {
        name: 'stuck',
        // Never finishes by itself, as a delivery a push service trickles its answer to.
        run: (signal) => {
          stuckSignal = signal;
          return new Promise(() => undefined);
        },
      },
      { name: 'database', run: async () => void ran.push('database') },
    ];
    const started = Date.now();
    const code = await new Promise<number>((exit) => {
      createShutdown({ server, timeoutMs: 400, drainDelayMs: 0, steps, exit, log: () => undefined, logError: (m) => void errors.push(m) }).begin('TEST');
    });
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(400 + 1_500);
    expect(ran).toEqual(['quick', 'database']);
    expect(stuckSignal?.aborted).toBe(true);
    expect(errors).toEqual([expect.stringMatching(/^Shutdown: stuck did not finish within \d+ ms; given up$/)]);
  });

  it('exits 0 when every step finishes in time, and a step that finishes is not aborted', async () => {
    const server = await listening();
    let signal: AbortSignal | undefined;
    const code = await new Promise<number>((exit) => {
      createShutdown({
        server,
        timeoutMs: 2_000,
        drainDelayMs: 0,
        steps: [{ name: 'outbox', run: async (s) => void (signal = s) }],
        exit,
        log: () => undefined,
      }).begin('TEST');
    });
    expect(code).toBe(0);
    expect(signal?.aborted).toBe(false);
  });
});
