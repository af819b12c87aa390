import crypto from 'node:crypto';
import type { Query } from 'drizzle-orm';
import type { Database } from './client';

/**
 * A statement on a hot path, written once with drizzle's builder and `sql.placeholder(name)` for every value, that
 * drizzle writes out as SQL only the first time it runs. Each later run, on any database or transaction of either
 * driver, skips the building (walking the tables' columns and the conditions: 0.1–0.3 ms of CPU a statement on a
 * booking) and, on PostgreSQL, runs as a named prepared statement: the connection parses and plans it once.
 *
 * drizzle's own `.prepare(name)` builds the statement again for every transaction (it is tied to the one client
 * it was built on), so this keeps what it compiled (the text, its parameters, how rows map to fields) and hands
 * it to the session of the database given. That session API is drizzle's internal one: `tests/integration/
 * prepared.test.ts` runs it on both drivers, inside and outside transactions, so an upgrade that changes it fails.
 */
export function preparedStatement<TBuilder extends PreparableBuilder>(name: string, build: (db: Database) => TBuilder) {
  let compiled: CompiledStatement | undefined;
  // The prepared query of each session: a database's own session lives as long as it (the session lookup runs
  // there on every signed-in request); a transaction's ends with it.
  const bySession = new WeakMap<DrizzleSession, DrizzlePreparedQuery>();
  return (db: Database, values: Record<string, unknown>): Promise<PreparedResult<TBuilder>> => {
    if (!compiled) {
      const prepared = build(db).prepare(name) as unknown as DrizzlePreparedQuery;
      const query = prepared.getQuery();
      // A connection refuses a known name for another text: the name carries the text's hash, so a statement
      // edited under `npm run dev` (whose pool outlives a reload) is prepared anew instead of failing.
      const statementName = `${name}_${crypto.createHash('sha1').update(query.sql).digest('hex').slice(0, 8)}`;
      compiled = { name: statementName, query, fields: prepared.fields, joinsNotNullableMap: prepared.joinsNotNullableMap };
    }
    const session = (db as unknown as { session: DrizzleSession }).session;
    let statement = bySession.get(session);
    if (!statement) {
      statement = session.prepareQuery(compiled.query, compiled.fields, compiled.name, true);
      statement.joinsNotNullableMap = compiled.joinsNotNullableMap;
      bySession.set(session, statement);
    }
    return statement.execute(values) as Promise<PreparedResult<TBuilder>>;
  };
}

/** A drizzle select (or `with … select`) builder: what `.prepare(name)` is called on. */
interface PreparableBuilder {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<unknown> };
}
type PreparedResult<TBuilder extends PreparableBuilder> = Awaited<ReturnType<ReturnType<TBuilder['prepare']>['execute']>>;

/** The parts of drizzle's PgPreparedQuery and PgSession this uses (identical for node-postgres and PGlite). */
interface DrizzlePreparedQuery {
  getQuery(): Query;
  fields: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
  execute(values?: Record<string, unknown>): Promise<unknown>;
}
interface DrizzleSession {
  prepareQuery(query: Query, fields: unknown, name: string, isResponseInArrayMode: boolean): DrizzlePreparedQuery;
}
interface CompiledStatement {
  name: string;
  query: Query;
  fields: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
}
