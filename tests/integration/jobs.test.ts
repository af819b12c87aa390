import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { emailCodes, jobRuns, sessions } from '~db/schema';
import { createTraveler } from '~server/seed/factories';
import { setClock } from '~/services/platform/clock.server';
import { expireSessionsAndCodes, runJobIfDue, type Job } from '~/services/jobs/jobs.server';
import { startJobRunner } from '../../server/jobs';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Periodic jobs run once across instances (issue 25, docs/decisions/024). On PostgreSQL the concurrent calls
 * below run on different pool connections at the same time, as two instances would; on PGlite they queue.
 */
useTestDatabase();
afterEach(() => setClock(undefined));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MINUTE = 60_000;

function countingJob(name: string, workMs = 0): Job & { runs: number } {
  const job = {
    name,
    everyMs: 10 * MINUTE,
    runs: 0,
    async run() {
      job.runs++;
      await sleep(workMs);
      return { done: 1 };
    },
  };
  return job;
}

describe(`periodic jobs (${testDriver})`, () => {
  it('runs a due job once when eight instances tick at the same moment, and again only when it is due again', async () => {
    const start = new Date('2026-11-26T03:00:00Z');
    setClock(start);
    const job = countingJob('test-once', 300);
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => runJobIfDue(job)));
    expect(job.runs).toBe(1);
    expect(outcomes.filter((o) => o.ran)).toHaveLength(1);

    setClock(new Date(start.getTime() + 9 * MINUTE));
    await Promise.all(Array.from({ length: 4 }, () => runJobIfDue(job)));
    expect(job.runs).toBe(1);

    setClock(new Date(start.getTime() + 10 * MINUTE));
    await Promise.all(Array.from({ length: 4 }, () => runJobIfDue(job)));
    expect(job.runs).toBe(2);
    const [row] = await getDb().select().from(jobRuns).where(eq(jobRuns.name, 'test-once'));
    expect(row).toMatchObject({ runs: 2, nextRunAt: new Date(start.getTime() + 20 * MINUTE) });
  });

  it('a job that fails keeps no claim: the next tick runs it', async () => {
    setClock(new Date('2026-11-26T03:00:00Z'));
    let attempts = 0;
    const flaky: Job = {
      name: 'test-flaky',
      everyMs: 10 * MINUTE,
      async run() {
        if (++attempts === 1) throw new Error('first attempt fails');
        return {};
      },
    };
    await expect(runJobIfDue(flaky)).rejects.toThrow('first attempt fails');
    expect(await runJobIfDue(flaky)).toEqual({ ran: true, result: {} });
    expect(attempts).toBe(2);
  });

  it('removes expired and long-revoked sessions and expired codes by the real time, and keeps the rest', async () => {
    const at = new Date();
    // The order rules' clock runs two days ahead (as the end-to-end server's may): a code mailed a minute ago
    // is still live, because codes and sessions are stamped with the real time.
    setClock(new Date(at.getTime() + 2 * 24 * 60 * MINUTE));
    const user = await createTraveler();
    const ago = (ms: number) => new Date(at.getTime() - ms);
    const later = (ms: number) => new Date(at.getTime() + ms);
    const DAY = 24 * 60 * MINUTE;
    await getDb()
      .insert(sessions)
      .values([
        { id: 'job-live', userId: user.id, expiresAt: later(DAY) },
        { id: 'job-expired', userId: user.id, expiresAt: ago(MINUTE) },
        { id: 'job-revoked-lately', userId: user.id, expiresAt: later(DAY), revokedAt: ago(DAY) },
        { id: 'job-revoked-long-ago', userId: user.id, expiresAt: later(DAY), revokedAt: ago(8 * DAY) },
      ]);
    await getDb()
      .insert(emailCodes)
      .values([
        { userId: user.id, codeHash: 'live', expiresAt: later(MINUTE) },
        { userId: user.id, codeHash: 'expired', expiresAt: ago(MINUTE) },
      ]);
    expect(await runJobIfDue(expireSessionsAndCodes)).toEqual({ ran: true, result: { sessions: 2, emailCodes: 1 } });
    const left = await getDb().select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id));
    expect(left.map((s) => s.id).sort()).toEqual(['job-live', 'job-revoked-lately']);
    const codes = await getDb().select({ codeHash: emailCodes.codeHash }).from(emailCodes).where(eq(emailCodes.userId, user.id));
    expect(codes).toEqual([{ codeHash: 'live' }]);
  });

  it("the runner's stop waits for the job in progress and starts no other", async () => {
    setClock(new Date('2026-11-26T03:00:00Z'));
    const job = countingJob('test-runner', 400);
    let finished = 0;
    const slow: Job = { ...job, run: async (tx) => (await job.run(tx), finished++, { done: 1 }) };
    const runner = startJobRunner({ db: getDb, jobs: [slow], firstTickMs: 0, tickMs: 10, log: () => undefined });
    await expect.poll(() => job.runs).toBe(1);
    await runner.stop();
    expect(finished).toBe(1);
    setClock(new Date('2026-11-27T03:00:00Z'));
    await sleep(100);
    expect(job.runs).toBe(1);
  });
});
