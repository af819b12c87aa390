import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { dataDirHolder, dataDirLockFile } from './data-dir-lock';

/**
 * Backups for both drivers (issue 25; issue 31, docs/decisions/037-backups-and-admin-accounts.md). PostgreSQL:
 * `pg_dump --format=custom`, consistent by itself (one snapshot), while the site runs; restored with
 * `pg_restore` in one transaction. PGlite: its own data-directory dump (a gzipped tar), taken with the server
 * stopped (PGlite allows one owner of a data directory: both refuse while DATA_DIR/pglite.lock names a live
 * process), restored by starting a new embedded database from it. Uploaded images are rows of the `blobs`
 * table, so they are in both. A restore refuses a target that already has tables (PostgreSQL) or a database
 * (PGlite) unless forced.
 *
 * A dump holds every account, session, code and push key: the file is written 0600 (a folder made for it 0700),
 * appears under its name only once complete, and the database password never reaches a command line (`ps` shows
 * every user the arguments of every process): pg_dump and pg_restore get the URL without it and the password in
 * their own environment (PGPASSWORD), which only the same user can read.
 */
export type BackupTarget = { driver: 'pg'; url: string } | { driver: 'pglite'; dataDir: string };

export class RestoreRefused extends Error {}
export class BackupRefused extends Error {}

/** Owner read/write only: the dump is as secret as the database. */
export const BACKUP_FILE_MODE = 0o600;
export const BACKUP_DIR_MODE = 0o700;

/**
 * How pg_dump/pg_restore are pointed at a database URL: the URL with its password taken out (user info and a
 * `password=` parameter alike) as the argument, the password in the child's environment as PGPASSWORD.
 */
export function pgConnection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  let password = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  parsed.password = '';
  const fromQuery = parsed.searchParams.get('password');
  if (fromQuery !== null) {
    password ??= fromQuery;
    parsed.searchParams.delete('password');
  }
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (password !== undefined) env.PGPASSWORD = password;
  return { dbname: parsed.toString(), env };
}

/** The command line and environment of one PostgreSQL client tool run against `url` (tested: no password in args). */
export function pgToolInvocation(url: string, options: string[], files: string[] = []): { args: string[]; env: NodeJS.ProcessEnv } {
  const { dbname, env } = pgConnection(url);
  return { args: [...options, `--dbname=${dbname}`, ...files], env };
}

function run(command: string, invocation: { args: string[]; env: NodeJS.ProcessEnv }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, invocation.args, { stdio: ['ignore', 'inherit', 'pipe'], env: invocation.env });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', (error) => reject(new Error(`${command} could not start (${error.message}); install the PostgreSQL client tools`)));
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

const pgliteDir = (dataDir: string) => path.join(path.resolve(dataDir), 'pglite');

/** Refuses while a live process (the server, a seed) holds the embedded database. */
function assertDataDirFree(dataDir: string, what: 'backup' | 'restore'): void {
  const holder = dataDirHolder(dataDir);
  if (!holder) return;
  const Refusal = what === 'backup' ? BackupRefused : RestoreRefused;
  throw new Refusal(
    `the embedded database in ${path.resolve(dataDir)} is in use by process ${holder.pid} on ${holder.host} since ${holder.since}: ` +
      `stop the server first (a PGlite data directory has one owner). If that process is gone, delete ${dataDirLockFile(dataDir)}`,
  );
}

/**
 * Writes the backup through `write(partial)` into a 0600 file beside `file` and moves it into place once
 * complete: a failed backup leaves nothing under the backup's name, and no moment exists where the dump is
 * readable by others.
 */
async function writePrivately(file: string, write: (partial: string) => Promise<void>): Promise<void> {
  const target = path.resolve(file);
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: BACKUP_DIR_MODE });
  const partial = `${target}.partial-${process.pid}`;
  fs.closeSync(fs.openSync(partial, 'wx', BACKUP_FILE_MODE));
  try {
    fs.chmodSync(partial, BACKUP_FILE_MODE); // whatever the umask
    await write(partial);
    fs.chmodSync(partial, BACKUP_FILE_MODE);
    fs.renameSync(partial, target);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

export async function backup(target: BackupTarget, file: string): Promise<void> {
  if (target.driver === 'pg') {
    // pg_dump opens the existing (0600) file and keeps its mode.
    await writePrivately(file, (partial) =>
      run('pg_dump', pgToolInvocation(target.url, ['--format=custom', '--no-owner', '--no-privileges', `--file=${partial}`])),
    );
    return;
  }
  const dir = pgliteDir(target.dataDir);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`no embedded database in ${dir}`);
  assertDataDirFree(target.dataDir, 'backup');
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  try {
    const dump = await client.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    await writePrivately(file, async (partial) => fs.writeFileSync(partial, bytes));
  } finally {
    await client.close();
  }
}

/**
 * PostgreSQL: `pg_restore --single-transaction` (with --clean --if-exists when replacing): the drops, the schema
 * and every row commit together or not at all, so a dump that fails half-way (truncated, corrupt, a full disk)
 * leaves the database as it was. The restore holds its locks until the end: stop the site first.
 * PGlite: the new database is built beside the current one and switched in once it opens; the old one is kept.
 */
export async function restore(target: BackupTarget, file: string, options: { force?: boolean } = {}): Promise<void> {
  if (!fs.existsSync(file)) throw new Error(`no backup file ${file}`);
  const head = Buffer.alloc(5);
  const fd = fs.openSync(file, 'r');
  fs.readSync(fd, head, 0, 5, 0);
  fs.closeSync(fd);
  const isPgDump = head.toString('latin1') === 'PGDMP';
  if (target.driver === 'pg') {
    if (!isPgDump) throw new Error(`${file} is not a pg_dump custom-format archive (an embedded database's dump restores into DATA_DIR, without DATABASE_URL)`);
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    await client.end();
    if (rows[0]!.n > 0 && !options.force) {
      throw new RestoreRefused(`the database is not empty (${rows[0]!.n} tables); restore into an empty database, or pass --force to replace what it holds`);
    }
    await run(
      'pg_restore',
      pgToolInvocation(target.url, [
        '--no-owner',
        '--no-privileges',
        '--single-transaction',
        '--exit-on-error',
        ...(rows[0]!.n > 0 ? ['--clean', '--if-exists'] : []),
      ], [file]),
    );
    return;
  }
  if (isPgDump) throw new Error(`${file} is a PostgreSQL dump: set DATABASE_URL to restore it`);
  assertDataDirFree(target.dataDir, 'restore');
  const dir = pgliteDir(target.dataDir);
  const replacing = fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  if (replacing && !options.force) throw new RestoreRefused(`${dir} already holds a database; stop the server and pass --force to replace it (it is kept as ${dir}.replaced-<time>)`);
  // Built beside the current database and switched only once it opens: a bad archive changes nothing.
  const building = `${dir}.restoring-${stamp}`;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  try {
    const { PGlite } = await import('@electric-sql/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const client = await PGlite.create(building, { extensions: { pg_trgm }, loadDataDir: new Blob([fs.readFileSync(file)]) });
    await client.query('select 1');
    await client.close();
  } catch (error) {
    fs.rmSync(building, { recursive: true, force: true });
    throw error;
  }
  if (fs.existsSync(dir)) {
    if (replacing) fs.renameSync(dir, `${dir}.replaced-${stamp}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
  fs.renameSync(building, dir);
}
