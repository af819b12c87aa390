import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { pushSubscriptions, sessions } from '~db/schema';
import { createTraveler } from '~server/seed/factories';
import { loginAs } from '../support/api';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Migration 0023 (issue 31, docs/decisions/035): a push subscription belongs to a session. Rows from before name
 * no session and are deleted; afterwards a row needs a session, and deleting the session deletes the row. The
 * test puts the old table back, writes such a row, and runs the migration's own statements.
 */
useTestDatabase();
const MIGRATION = new URL('../../db/migrations/0023_push_subscriptions_of_sessions.sql', import.meta.url);

const run = (statement: string) => getDb().execute(sql.raw(statement));

describe(`migration 0023: push subscriptions of sessions (${testDriver})`, () => {
  it('deletes the rows that name no session; then a row needs its session row and goes with it', async () => {
    await run(`DROP INDEX "push_subscriptions_session_idx"`);
    await run(`ALTER TABLE "push_subscriptions" DROP COLUMN "session_id"`);
    const traveler = await createTraveler();
    await getDb().execute(
      sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth) values (${traveler.id}, 'https://push.example.com/old', 'BKey', 'Auth')`,
    );

    const statements = fs.readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint');
    await getDb().transaction(async (tx) => {
      for (const statement of statements) await tx.execute(sql.raw(statement));
    });
    expect(await getDb().select().from(pushSubscriptions)).toEqual([]);

    const insert = (sessionId: string) =>
      getDb().insert(pushSubscriptions).values({ userId: traveler.id, sessionId, endpoint: `https://push.example.com/${sessionId}`, p256dh: 'BKey', auth: 'Auth' });
    await expect(insert('no-such-session')).rejects.toThrow();
    const { apiSessionId } = await loginAs(traveler);
    await insert(apiSessionId);
    expect(await getDb().select().from(pushSubscriptions)).toHaveLength(1);
    await getDb().delete(sessions).where(sql`${sessions.id} = ${apiSessionId}`);
    expect(await getDb().select().from(pushSubscriptions)).toEqual([]);
  });
});
