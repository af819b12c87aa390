import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { preparedStatement } from '~db/prepared';
import { users } from '~db/schema';
import { createGuide, createTraveler } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * db/prepared.ts keeps what drizzle compiled and runs it through drizzle's session API, which is internal: these
 * runs on both drivers fail when a drizzle upgrade changes it. The statement is the booking's shape: a left join
 * whose side may be missing (drizzle maps it to null), placeholders used twice, timestamps mapped to Dates.
 */
useTestDatabase();

const other = alias(users, 'other');
const pairStatement = preparedStatement('test_prepared_pair', (db) =>
  db
    .select({ user: { id: users.id, name: users.name, registerDate: users.registerDate }, other: { id: other.id, name: other.name } })
    .from(users)
    .leftJoin(other, eq(other.id, sql.placeholder('otherId')))
    .where(sql`${users.id} = ${sql.placeholder('id')} and ${sql.placeholder('id')}::int > 0`),
);

describe('prepared statements', () => {
  it('give what the builder gives, on the database and in transactions, with a missing join side as null', async () => {
    const traveler = await createTraveler({ name: 'Prepared Traveler' });
    const guide = await createGuide({ name: 'Prepared Guide' });
    const db = getDb();
    const built = await db
      .select({ user: { id: users.id, name: users.name, registerDate: users.registerDate }, other: { id: other.id, name: other.name } })
      .from(users)
      .leftJoin(other, eq(other.id, guide.id))
      .where(eq(users.id, traveler.id));

    const first = await pairStatement(db, { id: traveler.id, otherId: guide.id });
    expect(first).toEqual(built);
    expect(first[0]!.user.registerDate).toBeInstanceOf(Date);
    expect(first[0]!.other).toEqual({ id: guide.id, name: 'Prepared Guide' });

    // Again, inside a transaction, with other values: the compiled statement is reused on another session.
    const inTransaction = await db.transaction(async (tx) => {
      const rows = await pairStatement(tx, { id: guide.id, otherId: 999_999 });
      const named =
        testDriver === 'pg'
          ? ((await tx.execute(sql`select name from pg_prepared_statements where name like 'test\\_prepared\\_pair\\_%'`)) as unknown as { rows: unknown[] }).rows.length
          : undefined;
      return { rows, named };
    });
    expect(inTransaction.rows).toEqual([{ user: { id: guide.id, name: 'Prepared Guide', registerDate: expect.any(Date) }, other: null }]);
    // On PostgreSQL the connection keeps it parsed under its name.
    if (testDriver === 'pg') expect(inTransaction.named).toBe(1);

    expect(await pairStatement(db, { id: 999_999, otherId: traveler.id })).toEqual([]);
  });

  it('run side by side in several transactions', async () => {
    const travelers = await Promise.all(Array.from({ length: 4 }, (_, i) => createTraveler({ name: `Parallel ${i}` })));
    const db = getDb();
    const names = await Promise.all(
      travelers.map((t) => db.transaction(async (tx) => (await pairStatement(tx, { id: t.id, otherId: t.id }))[0]!.other!.name)),
    );
    expect(names).toEqual(['Parallel 0', 'Parallel 1', 'Parallel 2', 'Parallel 3']);
  });
});
