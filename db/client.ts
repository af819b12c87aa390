import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

/** Both drivers expose the same drizzle query API; services only see this type. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'pg';
  /** Applies the committed drizzle-kit migrations (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL URL; when absent the embedded PGlite is used. */
  url?: string;
  /** Folder for the embedded database; absent means in memory (tests). */
  dataDir?: string;
}

const MIGRATIONS_DIR = path.resolve('db/migrations');

/**
 * Extensions the migrations create (CREATE EXTENSION): PGlite ships them separately and must be told at open.
 * Every embedded database opens here (server, seed script, tests), so this is the one place to list them.
 */
const PGLITE_OPTIONS = { extensions: { pg_trgm } };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection that the server drops (restart, admin termination) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (error) => console.error('postgres pool: idle connection lost:', error.message));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return {
      db,
      driver: 'pg',
      migrate: () => migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR }),
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if (options.dataDir) {
    const dir = path.join(path.resolve(options.dataDir), 'pglite');
    // PGlite only creates the last path segment itself.
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    client = await PGlite.create(dir, PGLITE_OPTIONS);
  } else {
    client = await PGlite.create(PGLITE_OPTIONS);
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    driver: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
  };
}

// One instance per process. The Remix server bundle and server.ts each carry a copy of this
// module, so the instance lives on globalThis rather than in a module variable.
const DB_KEY = Symbol.for('lvyou.database');
type WithDb = typeof globalThis & { [DB_KEY]?: DatabaseHandle };

export function setDatabase(handle: DatabaseHandle | undefined): void {
  (globalThis as WithDb)[DB_KEY] = handle;
}

export function getDatabaseHandle(): DatabaseHandle {
  const handle = (globalThis as WithDb)[DB_KEY];
  if (!handle) throw new Error('Database not initialised: call setDatabase(await openDatabase(...)) at start');
  return handle;
}

export function getDb(): Database {
  return getDatabaseHandle().db;
}
