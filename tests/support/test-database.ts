import crypto from 'node:crypto';
import fs from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { openDatabase, setDatabase, type DatabaseHandle } from '~db/client';

/**
 * A fresh, migrated database for one test file, installed as the process database so services use it.
 * TEST_DRIVER=pg (with TEST_DATABASE_URL) creates a throwaway PostgreSQL database (a copy of the migrated template
 * database of vitest-global-setup.ts) and drops it afterwards; otherwise an in-memory PGlite (a copy of the migrated
 * data directory of vitest-global-setup.ts) is used. Nothing is mocked: the services run real SQL.
 */
export const testDriver: 'pg' | 'pglite' = process.env.TEST_DRIVER === 'pg' ? 'pg' : 'pglite';

export function useTestDatabase(): { readonly handle: DatabaseHandle } {
  const state: { handle?: DatabaseHandle; dropDatabase?: () => Promise<void> } = {};

  beforeAll(async () => {
    if (testDriver === 'pg') {
      const adminUrl = process.env.TEST_DATABASE_URL;
      if (!adminUrl) throw new Error('TEST_DRIVER=pg needs TEST_DATABASE_URL');
      const name = `lvyou_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
      // A copy of the migrated template vitest-global-setup.ts made once (about 0.1 s instead of about 1 s for
      // creating an empty database and migrating it); migrate() below then finds nothing to do.
      const template = inject('pgTemplate');
      const admin = new pg.Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
      await admin.end();
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      state.handle = await openDatabase({ url: url.toString() });
      state.dropDatabase = async () => {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      };
    } else {
      // A copy of the database vitest-global-setup.ts migrated once; migrate() below then finds nothing to do.
      state.handle = await openDatabase({ startFrom: new Blob([await fs.promises.readFile(inject('pgliteTemplate'))]) });
    }
    await state.handle.migrate();
    setDatabase(state.handle);
  });

  afterAll(async () => {
    setDatabase(undefined);
    await state.handle?.close();
    await state.dropDatabase?.();
  });

  return {
    get handle() {
      if (!state.handle) throw new Error('database not ready (use inside tests)');
      return state.handle;
    },
  };
}
