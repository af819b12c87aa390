import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '~db/client';
import { registerSchema } from '~/schemas/account-forms';
import { register } from '~/services/accounts/accounts.server';
import { findUserById } from '~/services/accounts/users.server';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * Inputs as API clients send them (issue 7, point 4), end to end: a guide registered with a city name,
 * BCP 47 tags and a price string is stored with our codes; the migration that renamed Taiwanese Hokkien
 * from `tw` (Twi) to `nan` rewrites the codes already stored.
 */
useTestDatabase();

const MIGRATIONS = path.resolve('db/migrations');
const MIGRATION_TAG = '0002_language_nan';

describe(`registration input normalisation (${testDriver})`, () => {
  it('stores a guide registered with 台北市, zh-TW and "2500" as taipei, zh and 2500', async () => {
    const input = registerSchema.parse({
      type: 'guide',
      name: ' \u202E王小明 ',
      email: `norm-${Date.now().toString(36)}@example.test`,
      password: 'secret123',
      city: '台北市',
      language: ['zh-TW', 'nan', 'tw', 'ja-JP'],
      price: '2500',
      description: '帶你走訪大稻埕。\n第二行',
    });
    const user = await register(input, { ip: '198.51.100.40' });
    const stored = await findUserById(user.id);
    expect(stored).toMatchObject({
      type: 'guide',
      name: '王小明',
      city: 'taipei',
      language: ['zh', 'nan', 'ja'],
      price: 2500,
      description: '帶你走訪大稻埕。\n第二行',
    });
  });
});

/** A throwaway database of the test driver, not yet migrated. */
async function freshDatabase(): Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> {
  if (testDriver !== 'pg') {
    const handle = await openDatabase({});
    return { handle, drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `lvyou_mig_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString() });
  return {
    handle,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A copy of the committed migrations folder that stops just before `tag`. */
function migrationsBefore(tag: string): string {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta/_journal.json'), 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  const target = journal.entries.find((e) => e.tag === tag);
  if (!target) throw new Error(`migration ${tag} is not in the journal`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvyou-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const entries = journal.entries.filter((e) => e.idx < target.idx);
  for (const e of entries) fs.copyFileSync(path.join(MIGRATIONS, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  fs.writeFileSync(path.join(dir, 'meta/_journal.json'), JSON.stringify({ ...journal, entries }));
  return dir;
}

describe(`migration ${MIGRATION_TAG} (${testDriver})`, () => {
  it('rewrites stored tw into nan, keeping the order and dropping duplicates, on a database made before it', async () => {
    const { handle, drop } = await freshDatabase();
    const before = migrationsBefore(MIGRATION_TAG);
    try {
      const migrate = handle.driver === 'pg' ? migratePg : migratePglite;
      await migrate(handle.db as never, { migrationsFolder: before });

      // Raw SQL: the rows as the schema of that time had them (later columns do not exist yet).
      const insert = async (language: string[]) => {
        const email = `mig-${crypto.randomBytes(6).toString('hex')}@example.test`;
        const result = await handle.db.execute(
          sql`insert into users (name, email, type, language) values ('導遊', ${email}, 'guide', ${`{${language.join(',')}}`}::text[]) returning id`,
        );
        return (result as unknown as { rows: { id: number }[] }).rows[0]!.id;
      };
      const rows = {
        zhTw: await insert(['zh', 'tw']),
        twFirst: await insert(['tw', 'en', 'ja']),
        both: await insert(['zh', 'nan', 'tw', 'tw']),
        none: await insert(['ja', 'en']),
        empty: await insert([]),
      };

      await handle.migrate();
      const language = async (id: number) => {
        const result = await handle.db.execute(sql`select language from users where id = ${id}`);
        return (result as unknown as { rows: { language: string[] }[] }).rows[0]!.language;
      };
      expect(await language(rows.zhTw)).toEqual(['zh', 'nan']);
      expect(await language(rows.twFirst)).toEqual(['nan', 'en', 'ja']);
      expect(await language(rows.both)).toEqual(['zh', 'nan']);
      expect(await language(rows.none)).toEqual(['ja', 'en']);
      expect(await language(rows.empty)).toEqual([]);

      const left = await handle.db.execute(sql`select count(*)::int as n from users where 'tw' = any(language)`);
      expect((left as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(0);

      // Applying the migrations again changes nothing.
      await handle.migrate();
      expect(await language(rows.twFirst)).toEqual(['nan', 'en', 'ja']);
    } finally {
      fs.rmSync(before, { recursive: true, force: true });
      await handle.close();
      await drop();
    }
  });
});
