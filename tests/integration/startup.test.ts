import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '~/env.server';
import { startDatabase, startupWarnings } from '~server/startup';

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

// What the server says at start about a risky configuration (issue 31 §4, docs/decisions/036).
describe('startupWarnings', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvyou-startup-'));
  made.push(dir);
  const config = (env: Record<string, string>) => parseConfig({ DATA_DIR: dir, SESSION_SECRET: 'test-only-secret-0123456789abcdef0123456789', ...env });

  it('warns in production when TRUST_PROXY says no proxy is in front, naming the proxy as required', () => {
    const warnings = startupWarnings(config({ TRUST_PROXY: 'false' }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/TRUST_PROXY=false/);
    expect(warnings[0]).toMatch(/deploy\/nginx/);
    expect(warnings[0]).toMatch(/100 connections/);
  });

  it('warns that development mode opens the debug pages', () => {
    expect(startupWarnings(config({ NODE_ENV: 'development' })).join('\n')).toMatch(/NODE_ENV=development/);
  });

  it('says nothing for a production start behind a proxy on this machine (the default)', () => {
    expect(startupWarnings(config({}))).toEqual([]);
    expect(startupWarnings(config({ TRUST_PROXY: '10.0.0.0/8' }))).toEqual([]);
  });
});
