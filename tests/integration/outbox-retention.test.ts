import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { outbox } from '~db/schema';
import { PERIODIC_JOBS, purgeOutbox, runJobIfDue } from '~/services/jobs/jobs.server';
import { OUTBOX_FAILED_KEPT_DAYS, OUTBOX_SENT_KEPT_DAYS, purgeDeliveredOutbox } from '~/services/platform/outbox-retention.server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Issue 31 §4: delivered outbox rows (a mail with its code, a push with a chat excerpt) do not live forever in the
 * database and in every backup. The periodic job (docs/decisions/024, 036) deletes sent rows after
 * OUTBOX_SENT_KEPT_DAYS and failed ones after OUTBOX_FAILED_KEPT_DAYS; pending rows stay whatever their age.
 */
useTestDatabase();

const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(Date.now() - days * DAY);

async function row(status: 'pending' | 'sent' | 'failed', ageDays: number, label: string) {
  const at = ago(ageDays);
  const [inserted] = await getDb()
    .insert(outbox)
    .values({
      kind: 'mail',
      payload: { to: `${label}@example.test`, subject: label, text: `code 123456 (${label})` },
      status,
      createdAt: at,
      nextAttemptAt: at,
      sentAt: status === 'sent' ? at : null,
      attempts: status === 'pending' ? 0 : 1,
    })
    .returning({ id: outbox.id });
  return inserted!.id;
}

const remaining = async () => (await getDb().select({ subject: sql<string>`${outbox.payload}->>'subject'` }).from(outbox)).map((r) => r.subject).sort();

describe(`outbox retention (${testDriver})`, () => {
  it('the periodic job deletes sent rows after the retention period and failed ones after theirs; pending rows stay', async () => {
    expect(PERIODIC_JOBS).toContain(purgeOutbox);
    expect(OUTBOX_SENT_KEPT_DAYS).toBeLessThan(OUTBOX_FAILED_KEPT_DAYS);
    await getDb().delete(outbox);
    await row('sent', OUTBOX_SENT_KEPT_DAYS + 1, 'old-sent');
    await row('sent', OUTBOX_SENT_KEPT_DAYS - 1, 'recent-sent');
    await row('failed', OUTBOX_FAILED_KEPT_DAYS + 1, 'old-failed');
    await row('failed', OUTBOX_SENT_KEPT_DAYS + 1, 'recent-failed');
    await row('pending', OUTBOX_FAILED_KEPT_DAYS + 5, 'old-pending');

    const outcome = await runJobIfDue(purgeOutbox);
    expect(outcome).toEqual({ ran: true, result: { sent: 1, failed: 1 } });
    expect(await remaining()).toEqual(['old-pending', 'recent-failed', 'recent-sent']);
  });

  it('a long backlog goes in bounded batches (the job runs inside its claim: short), all of it over a few runs', async () => {
    await getDb().delete(outbox);
    for (let i = 0; i < 7; i++) await row('sent', OUTBOX_SENT_KEPT_DAYS + 2, `backlog-${i}`);
    expect(await purgeDeliveredOutbox(getDb(), { batch: 3 })).toEqual({ sent: 3, failed: 0 });
    expect(await purgeDeliveredOutbox(getDb(), { batch: 3 })).toEqual({ sent: 3, failed: 0 });
    expect(await purgeDeliveredOutbox(getDb(), { batch: 3 })).toEqual({ sent: 1, failed: 0 });
    expect(await remaining()).toEqual([]);
  });
});
