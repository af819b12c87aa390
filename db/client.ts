import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { holdDataDir } from './data-dir-lock';
import * as schema from './schema';

/** Both drivers expose the same drizzle query API; services only see this type. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  driver: 'pglite' | 'pg';
  /** Applies the committed drizzle-kit migrations (idempotent). */
  migrate(): Promise<void>;
  /**
   * LISTEN on a channel: `onNotify` runs after each committed transaction that notified it. `onLost` runs if
   * the listening connection ends (PostgreSQL restart): notifications may have been missed from then on.
   * Resolves to a function that stops listening.
   */
  listen(channel: string, onNotify: () => void, onLost?: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PostgreSQL pool use, for the metrics (pg only). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** The embedded database's data directory as one archive (PGlite only; see DatabaseOptions.startFrom). */
  dumpDataDir?(): Promise<Blob | File>;
}

export interface DatabaseOptions {
  /** PostgreSQL URL; when absent the embedded PGlite is used. */
  url?: string;
  /** Folder for the embedded database; absent means in memory (tests). */
  dataDir?: string;
  /**
   * An in-memory embedded database starts as a copy of this data directory (a PGlite dump, `dumpDataDir`)
   * instead of running initdb: the tests migrate one database and start every test file from its copy.
   */
  startFrom?: Blob;
}

const MIGRATIONS_DIR = path.resolve('db/migrations');

/**
 * Each driver is loaded only when it is used (the other one's module costs resident memory for nothing;
 * the Remix server bundle, which carries a copy of this module, never opens a database at all).
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }] = await Promise.all([
      import('pg'),
      import('drizzle-orm/node-postgres'),
      import('drizzle-orm/node-postgres/migrator'),
    ]);
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle connection that the server drops (restart, admin termination) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (error) => console.error('postgres pool: idle connection lost:', error.message));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    return {
      db,
      driver: 'pg',
      migrate: () => migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR }),
      // A connection of its own: a pooled one would be handed to queries and lose the LISTEN.
      listen: async (channel, onNotify, onLost) => {
        const client = new pg.Client({ connectionString: options.url });
        let stopped = false;
        client.on('notification', (message) => {
          if (message.channel === channel) onNotify();
        });
        client.on('error', (error) => console.error(`postgres listen ${channel}: connection lost:`, error.message));
        client.on('end', () => {
          if (!stopped) onLost?.();
        });
        await client.connect();
        await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
        return async () => {
          stopped = true;
          await client.end().catch(() => undefined);
        };
      },
      close: () => pool.end(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  const [{ PGlite }, { pg_trgm }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  let client: PGlite;
  // The data directory's lock file says this process holds it (db/data-dir-lock.ts: backups refuse meanwhile).
  let releaseDataDir = () => {};
  // Extensions the migrations create (CREATE EXTENSION): PGlite ships them separately and must be told at
  // open. Every embedded database opens here (server, seed, tests), so this is the one place to list them.
  const pgliteOptions = { extensions: { pg_trgm }, startParams: [...PGlite.defaultStartParams, ...PGLITE_START_PARAMS] };
  if (options.dataDir) {
    const dir = embeddedDatabaseDir(options.dataDir);
    // PGlite only creates the last path segment itself.
    fs.mkdirSync(path.dirname(dir), { recursive: true });
    client = await PGlite.create(dir, pgliteOptions);
    releaseDataDir = holdDataDir(options.dataDir);
  } else {
    client = await PGlite.create({ ...pgliteOptions, loadDataDir: options.startFrom });
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    driver: 'pglite',
    migrate: () => migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR }),
    listen: async (channel, onNotify) => {
      const stop = await client.listen(channel, () => onNotify());
      return async () => {
        if (!client.closed) await stop();
      };
    },
    close: () => client.close().finally(releaseDataDir),
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}

/**
 * The embedded database has one user, this process, and its memory is WASM heap that never shrinks: a 32 MB
 * buffer pool (PostgreSQL's default is 128 MB; the demo data is a few MB) and room for 10 backends keep the
 * server's resident memory about 100 MB lower (issue 8).
 */
/** Where the embedded database of a DATA_DIR lives. */
function embeddedDatabaseDir(dataDir: string): string {
  return path.join(path.resolve(dataDir), 'pglite');
}

/** Whether DATA_DIR already holds an embedded database (PostgreSQL writes PG_VERSION when it creates one). */
export function embeddedDatabaseExists(dataDir: string): boolean {
  return fs.existsSync(path.join(embeddedDatabaseDir(dataDir), 'PG_VERSION'));
}

const PGLITE_START_PARAMS = ['-c', 'shared_buffers=32MB', '-c', 'max_connections=10'];

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
