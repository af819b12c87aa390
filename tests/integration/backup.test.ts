import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '~db/client';
import { seedDemo } from '~server/seed/demo';
import { testDriver } from '../support/test-database';

/**
 * `npm run db:backup` and `npm run db:restore` (issue 25, db/backup.ts), run as scripts: the seeded database is
 * backed up and restored into an empty one, and every table holds the same rows (count and a checksum of its
 * contents). A restore into a database that is not empty is refused and changes nothing.
 */
const TSX = path.resolve('node_modules/.bin/tsx');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lvyou-backup-'));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  fs.rmSync(work, { recursive: true, force: true });
});

type Target = { env: Record<string, string>; open: () => Promise<DatabaseHandle> };

/** A new, empty database of the driver under test. */
async function emptyTarget(label: string): Promise<Target> {
  if (testDriver === 'pg') {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `lvyou_backup_${label}_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    await admin.end();
    cleanups.push(async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    });
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return { env: { DATABASE_URL: url.toString() }, open: () => openDatabase({ url: url.toString() }) };
  }
  const dataDir = path.join(work, label);
  return { env: { DATA_DIR: dataDir }, open: () => openDatabase({ dataDir }) };
}

function script(name: string, args: string[], target: Target) {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test', ...target.env };
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

describe(`backup and restore (${testDriver})`, () => {
  it('restores the seeded database into an empty one with every row, and refuses a database that is not empty', async () => {
    const source = await emptyTarget('source');
    const sourceDb = await source.open();
    await sourceDb.migrate();
    await seedDemo(sourceDb.db);
    const before = await fingerprint(sourceDb);
    await sourceDb.close();
    expect(before['public.users']).toMatch(/^[1-9]\d*:/);
    expect(before['public.blobs']).toMatch(/^[1-9]\d*:/);

    const file = path.join(work, testDriver === 'pg' ? 'backup.dump' : 'backup.tar.gz');
    const backedUp = script('db-backup', [file], source);
    expect(backedUp.code, backedUp.output).toBe(0);

    const target = await emptyTarget('target');
    const restored = script('db-restore', [file], target);
    expect(restored.code, restored.output).toBe(0);
    const targetDb = await target.open();
    expect(await fingerprint(targetDb)).toEqual(before);
    await targetDb.close();

    // Again into the now full database: refused, nothing changed.
    const refused = script('db-restore', [file], target);
    expect(refused.code).toBe(3);
    expect(refused.output).toMatch(/Restore refused/);
    const again = await target.open();
    expect(await fingerprint(again)).toEqual(before);
    await again.close();
  }, 240_000);
});
