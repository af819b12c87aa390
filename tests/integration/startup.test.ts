import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '~/env.server';
import { startDatabase } from '~server/startup';

// startDatabase hands the admin login a seed generated (in the server: build/seed.js, a child process) back to
// the server, which prints it after the listening address (server.ts, startupSummary).
const made: string[] = [];
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

// It opens embedded databases of its own, so the PostgreSQL run (TEST_DRIVER=pg) would only repeat it.
describe.skipIf(process.env.TEST_DRIVER === 'pg')('startDatabase', () => {
  it('returns the admin login that the seed in another process generated', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvyou-startup-'));
    made.push(dir);
    const config = parseConfig({ DATA_DIR: dir, SESSION_SECRET: 'test-only-secret-0123456789abcdef0123456789' });
    const generated = { email: 'admin@demo.travel-assistant.tw', password: 'generated-pw' };
    let seeds = 0;
    const lines: string[] = [];
    const { handle, generatedAdmin } = await startDatabase(config, (line) => lines.push(line), {
      seedElsewhere: async () => {
        seeds++;
        return generated;
      },
    });
    try {
      expect(seeds).toBe(1);
      expect(generatedAdmin).toEqual(generated);
    } finally {
      await handle.close();
    }
    // A new embedded database (initdb and every migration): minutes on a loaded CI machine, not 30 s.
  }, 180_000);

  it('returns none when ADMIN_EMAIL/ADMIN_PASSWORD name the admin', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvyou-startup-'));
    made.push(dir);
    const config = parseConfig({
      DATA_DIR: dir,
      SEED: 'none',
      ADMIN_EMAIL: 'boss@example.tw',
      ADMIN_PASSWORD: 'secret-pass-1234',
      SESSION_SECRET: 'test-only-secret-0123456789abcdef0123456789',
    });
    const lines: string[] = [];
    const { handle, generatedAdmin } = await startDatabase(config, (line) => lines.push(line));
    try {
      expect(generatedAdmin).toBeUndefined();
      expect(lines).toEqual(['Admin boss@example.tw created.']);
    } finally {
      await handle.close();
    }
    // A new embedded database (initdb and every migration): minutes on a loaded CI machine, not 30 s.
  }, 180_000);
});
