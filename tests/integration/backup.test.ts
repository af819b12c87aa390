import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { pgToolInvocation } from '~db/backup';
import { openDatabase, type DatabaseHandle } from '~db/client';
import { seedDemo } from '~server/seed/demo';
import { testDriver } from '../support/test-database';

/**
 * `npm run db:backup` and `npm run db:restore` (issue 25, db/backup.ts), run as scripts: the seeded database is
 * backed up and restored into an empty one, and every table holds the same rows (count and a checksum of its
 * contents). A restore into a database that is not empty is refused and changes nothing.
 *
 * Issue 31 (docs/decisions/037-backups-and-admin-accounts.md): the dump is written 0600 in a folder made 0700; on
 * PostgreSQL the databases belong to a role with a password, and pg_dump/pg_restore are reached through PATH
 * shims that record the arguments they were started with (what `ps` shows everyone) before running the real
 * tool: the password is never among them. A restore that fails half-way (a truncated dump) leaves the database as
 * it was; an embedded database held by a live process is neither backed up nor restored over.
 */
const TSX = path.resolve('node_modules/.bin/tsx');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lvyou-backup-'));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

/** The owner role of the PostgreSQL databases: logs in with a password, which must never reach a command line. */
const ROLE = `lvyou_backup_role_${process.pid}`;
const ROLE_PASSWORD = `Pw-${process.pid}-s3cr3t-${Math.random().toString(36).slice(2)}`;
let roleReady: Promise<void> | undefined;
function ensureRole(adminUrl: string): Promise<void> {
  roleReady ??= (async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop role if exists ${ROLE}`);
    await admin.query(`create role ${ROLE} login password '${ROLE_PASSWORD}'`);
    await admin.end();
    cleanups.unshift(async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop role if exists ${ROLE}`);
      await c.end();
    });
  })();
  return roleReady;
}

/** PATH shims for pg_dump and pg_restore: each appends its argv (one line) to ARGV_LOG, then runs the real tool. */
const shimDir = path.join(work, 'shims');
const ARGV_LOG = path.join(work, 'argv.log');
if (testDriver === 'pg') {
  fs.mkdirSync(shimDir);
  for (const tool of ['pg_dump', 'pg_restore']) {
    const real = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    fs.writeFileSync(path.join(shimDir, tool), `#!/bin/sh\nprintf '%s' "${tool}" >> '${ARGV_LOG}'\nfor a in "$@"; do printf ' %s' "$a" >> '${ARGV_LOG}'; done\necho >> '${ARGV_LOG}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  }
}
const recordedArgv = () => (fs.existsSync(ARGV_LOG) ? fs.readFileSync(ARGV_LOG, 'utf8') : '');

type Target = { env: Record<string, string>; open: () => Promise<DatabaseHandle>; dataDir?: string };

/** A new, empty database of the driver under test. */
async function emptyTarget(label: string): Promise<Target> {
  if (testDriver === 'pg') {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `lvyou_backup_${label}_${process.pid}`;
    await ensureRole(adminUrl);
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name} owner ${ROLE}`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    });
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    url.username = ROLE;
    url.password = ROLE_PASSWORD;
    return { env: { DATABASE_URL: url.toString() }, open: () => openDatabase({ url: url.toString() }) };
  }
  const dataDir = path.join(work, label);
  return { env: { DATA_DIR: dataDir }, open: () => openDatabase({ dataDir }), dataDir };
}

function script(name: string, args: string[], target: Target) {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', ...target.env };
  if (testDriver === 'pg') env.PATH = `${shimDir}${path.delimiter}${process.env.PATH}`;
  if (!target.env.DATABASE_URL) delete env.DATABASE_URL;
  const result = spawnSync(TSX, [`scripts/${name}.ts`, ...args], { env, encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Each table's row count and an md5 of its rows in a fixed order. */
async function fingerprint(handle: DatabaseHandle): Promise<Record<string, string>> {
  const tables = (await handle.db.execute(
    sql`select table_schema || '.' || table_name as name from information_schema.tables where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
  )) as unknown as { rows: Array<{ name: string }> };
  const out: Record<string, string> = {};
  for (const { name } of tables.rows) {
    const [schema, table] = name.split('.');
    const ident = sql.raw(`"${schema}"."${table}"`);
    const [row] = (
      (await handle.db.execute(
        sql`select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${ident} t`,
      )) as unknown as { rows: Array<{ n: number; sum: string }> }
    ).rows;
    out[name] = `${row!.n}:${row!.sum}`;
  }
  return out;
}

const mode = (p: string) => fs.statSync(p).mode & 0o777;

describe(`backup and restore (${testDriver})`, () => {
  it('hands pg_dump and pg_restore the URL without its password (in their environment instead)', () => {
    const url = `postgres://owner:${encodeURIComponent('p@ss:w/rd?')}@db.internal:5432/lvyou?sslmode=require`;
    const { args, env } = pgToolInvocation(url, ['--format=custom'], ['file.dump']);
    expect(args.join(' ')).not.toContain('p@ss');
    expect(args.join(' ')).not.toContain(encodeURIComponent('p@ss'));
    expect(args).toEqual(['--format=custom', '--dbname=postgres://owner@db.internal:5432/lvyou?sslmode=require', 'file.dump']);
    expect(env.PGPASSWORD).toBe('p@ss:w/rd?');
    // libpq also reads a password parameter.
    const query = pgToolInvocation('postgresql://owner@db/lvyou?password=hunter2&application_name=backup', []);
    expect(query.args.join(' ')).not.toContain('hunter2');
    expect(query.env.PGPASSWORD).toBe('hunter2');
    expect(pgToolInvocation('postgres://postgres@127.0.0.1/lvyou', []).env.PGPASSWORD).toBe(process.env.PGPASSWORD);
  });

  it('restores the seeded database into an empty one with every row, writes the dump 0600, keeps the password off command lines, refuses a database that is not empty, and a failed restore changes nothing', async () => {
    const source = await emptyTarget('source');
    const sourceDb = await source.open();
    await sourceDb.migrate();
    await seedDemo(sourceDb.db);
    const before = await fingerprint(sourceDb);
    await sourceDb.close();
    expect(before['public.users']).toMatch(/^[1-9]\d*:/);
    expect(before['public.blobs']).toMatch(/^[1-9]\d*:/);

    // Into a folder that does not exist yet: made 0700, the dump 0600, nothing else left beside it.
    const folder = path.join(work, 'private', 'nightly');
    const file = path.join(folder, testDriver === 'pg' ? 'backup.dump' : 'backup.tar.gz');
    const backedUp = script('db-backup', [file], source);
    expect(backedUp.code, backedUp.output).toBe(0);
    expect(mode(file).toString(8)).toBe('600');
    expect(mode(folder).toString(8)).toBe('700');
    expect(mode(path.dirname(folder)).toString(8)).toBe('700');
    expect(fs.readdirSync(folder)).toEqual([path.basename(file)]);

    const target = await emptyTarget('target');
    const restored = script('db-restore', [file], target);
    expect(restored.code, restored.output).toBe(0);
    const targetDb = await target.open();
    expect(await fingerprint(targetDb)).toEqual(before);
    await targetDb.close();

    if (testDriver === 'pg') {
      // What `ps` showed while the tools ran: both ran, as the role, and the password was nowhere.
      const argv = recordedArgv();
      expect(argv).toMatch(new RegExp(`^pg_dump .*--dbname=postgres(ql)?://${ROLE}@`, 'm'));
      expect(argv).toMatch(new RegExp(`^pg_restore .*--single-transaction.*--dbname=postgres(ql)?://${ROLE}@`, 'm'));
      expect(argv).not.toContain(ROLE_PASSWORD);
    }

    // Again into the now full database: refused, nothing changed.
    const refused = script('db-restore', [file], target);
    expect(refused.code).toBe(3);
    expect(refused.output).toMatch(/Restore refused/);
    const again = await target.open();
    expect(await fingerprint(again)).toEqual(before);
    // A change after the backup, which a failed restore must not lose.
    await again.db.execute(sql`update users set name = name || ' (after the backup)' where id = (select min(id) from users)`);
    const changed = await fingerprint(again);
    await again.close();

    // A dump cut off at 60 % (a full disk, a copy interrupted), forced over the full database: it fails and
    // the database is exactly as it was, not half dropped.
    const truncated = path.join(work, `truncated-${path.basename(file)}`);
    const bytes = fs.readFileSync(file);
    fs.writeFileSync(truncated, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const failed = script('db-restore', [truncated, '--force'], target);
    expect(failed.code, failed.output).toBe(1);
    expect(failed.output).toMatch(/Restore failed/);
    const after = await target.open();
    expect(await fingerprint(after)).toEqual(changed);
    await after.close();
  }, 300_000);

  it.runIf(testDriver === 'pglite')('refuses to back up or restore over an embedded database a live process holds', async () => {
    const target = await emptyTarget('held');
    const held = await target.open();
    await held.migrate();
    const rows = await fingerprint(held);
    const file = path.join(work, 'held.tar.gz');

    // This test process holds it, as a running server does.
    const backedUp = script('db-backup', [file], target);
    expect(backedUp.code, backedUp.output).toBe(3);
    expect(backedUp.output).toMatch(new RegExp(`Backup refused: .*in use by process ${process.pid}.*stop the server first`));
    expect(fs.existsSync(file)).toBe(false);
    const anyArchive = path.join(work, 'any.tar.gz');
    fs.writeFileSync(anyArchive, 'not checked before the lock');
    const restored = script('db-restore', [anyArchive, '--force'], target);
    expect(restored.code, restored.output).toBe(3);
    expect(restored.output).toMatch(/Restore refused: .*in use by process/);
    await held.close();

    // Released on close: the backup runs.
    const afterClose = script('db-backup', [file], target);
    expect(afterClose.code, afterClose.output).toBe(0);

    // A lock left by a process that has died (a crash) does not block the backup.
    const dead = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
    fs.writeFileSync(path.join(target.dataDir!, 'pglite.lock'), JSON.stringify({ pid: Number(dead.stdout.trim()), host: os.hostname(), since: new Date().toISOString() }));
    const stale = script('db-backup', [file], target);
    expect(stale.code, stale.output).toBe(0);
    const reopened = await target.open();
    expect(await fingerprint(reopened)).toEqual(rows);
    await reopened.close();
  }, 240_000);
});
