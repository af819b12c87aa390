import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '~db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated, empty embedded database (a PGlite data-directory archive) every PGlite test file starts from. */
    pgliteTemplate: string;
  }
}

/**
 * Runs once before the test files: migrates one in-memory PGlite and saves its data directory, so each test file
 * copies it (about 2 s) instead of running initdb and the migrations again (about 5 s on a busy machine).
 */
export async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (process.env.TEST_DRIVER === 'pg') {
    project.provide('pgliteTemplate', '');
    return undefined;
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'lvyou-vitest-'));
  const file = path.join(dir, 'migrated.tar');
  const handle = await openDatabase({});
  try {
    await handle.migrate();
    const archive = await handle.dumpDataDir!();
    await fs.promises.writeFile(file, Buffer.from(await archive.arrayBuffer()));
  } finally {
    await handle.close();
  }
  project.provide('pgliteTemplate', file);
  return () => fs.promises.rm(dir, { recursive: true, force: true });
}
