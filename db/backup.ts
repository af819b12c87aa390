import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Backups for both drivers (issue 25). PostgreSQL: `pg_dump --format=custom`, consistent by itself (one
 * snapshot), while the site runs; restored with `pg_restore`. PGlite: its own data-directory dump (a gzipped
 * tar), taken with the server stopped (PGlite allows one owner of a data directory), restored by starting a new
 * embedded database from it. Uploaded images are rows of the `blobs` table, so they are in both.
 * A restore refuses a target that already has tables (PostgreSQL) or a database (PGlite) unless forced.
 */
export type BackupTarget = { driver: 'pg'; url: string } | { driver: 'pglite'; dataDir: string };

export class RestoreRefused extends Error {}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', (error) => reject(new Error(`${command} could not start (${error.message}); install the PostgreSQL client tools`)));
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

const pgliteDir = (dataDir: string) => path.join(path.resolve(dataDir), 'pglite');

export async function backup(target: BackupTarget, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  if (target.driver === 'pg') {
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, target.url]);
    return;
  }
  const dir = pgliteDir(target.dataDir);
  if (!fs.existsSync(path.join(dir, 'PG_VERSION'))) throw new Error(`no embedded database in ${dir}`);
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const client = await PGlite.create(dir, { extensions: { pg_trgm } });
  try {
    const dump = await client.dumpDataDir('gzip');
    fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await client.close();
  }
}

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
    await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', ...(rows[0]!.n > 0 ? ['--clean', '--if-exists'] : []), `--dbname=${target.url}`, file]);
    return;
  }
  if (isPgDump) throw new Error(`${file} is a PostgreSQL dump: set DATABASE_URL to restore it`);
  const dir = pgliteDir(target.dataDir);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    if (!options.force) throw new RestoreRefused(`${dir} already holds a database; stop the server and pass --force to replace it (it is kept as ${dir}.replaced-<time>)`);
    fs.renameSync(dir, `${dir}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const client = await PGlite.create(dir, { extensions: { pg_trgm }, loadDataDir: new Blob([fs.readFileSync(file)]) });
  await client.query('select 1');
  await client.close();
}
