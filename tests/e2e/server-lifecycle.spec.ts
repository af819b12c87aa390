import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from './test';
import { isBuildStale } from '../../scripts/lib/build-freshness.mjs';
import { assertBuilt, freePort, PROJECT_ROOT, serverEnv, spawnServer, waitForExit, waitForPing } from './server-process';

/** The production server's own start and stop behaviour. Plain Node: no browser, js-on project only. */

/** The processes whose parent is `pid` (Linux /proc), with their arguments and environment. */
function childProcessesOf(pid: number): Array<{ pid: number; argv: string[]; environ: string[] }> {
  const out = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== pid) continue;
      const read = (file: string) => fs.readFileSync(`/proc/${entry}/${file}`, 'utf8').split('\0').filter(Boolean);
      out.push({ pid: Number(entry), argv: read('cmdline'), environ: read('environ') });
    } catch {
      // The process ended meanwhile.
    }
  }
  return out;
}

function collect(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
  return out;
}

test.describe('server lifecycle', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;

  test.beforeEach(async ({}, testInfo) => {
    test.skip(testInfo.project.name !== 'js-on', 'server lifecycle runs in the js-on project only');
    assertBuilt();
    dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'lvyou-lifecycle-'));
  });

  test.afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await waitForExit(child, 5_000).catch(() => undefined);
    }
    child = undefined;
    if (dataDir) await fs.promises.rm(dataDir, { recursive: true, force: true });
  });

  test('npm start serves the existing build and passes SIGTERM on', async () => {
    test.setTimeout(90_000);
    // A stale build would make `npm start` rebuild under the feet of the running suite.
    expect(isBuildStale(PROJECT_ROOT), 'build/ is older than the sources: run npm run build').toBe(false);
    const port = await freePort();
    child = spawn('npm', ['start'], {
      cwd: PROJECT_ROOT,
      env: serverEnv({ DATA_DIR: dataDir, PORT: String(port), SEED: 'none' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = collect(child);
    await waitForPing(`http://localhost:${port}`, child, 60_000);
    expect(out.stdout).not.toContain('Building');
    expect(out.stdout).toContain(`listening on http://localhost:${port}`);
    // npm's shell became the server itself (exec: no extra process), with the heap sizes of decision 013.
    const server = childProcessesOf(child.pid!);
    expect(server).toHaveLength(1);
    expect(server[0]!.argv).toEqual(expect.arrayContaining(['--max-semi-space-size=32', '--max-old-space-size=256', 'build/server.js']));
    expect(server[0]!.environ).toContain('NODE_ENV=production');
    child.kill('SIGTERM');
    expect(await waitForExit(child, 15_000)).toEqual({ code: 0, signal: null });
    expect(out.stdout).toContain('Shutdown complete');
  });

  test('starts, answers /api/ping and shuts down cleanly on SIGTERM', async () => {
    test.setTimeout(90_000);
    const port = await freePort();
    child = spawnServer(serverEnv({ DATA_DIR: dataDir, PORT: String(port), SEED: 'none' }));
    const out = collect(child);
    await waitForPing(`http://localhost:${port}`, child, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\nstdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
    });
    expect(out.stdout).toContain(`listening on http://localhost:${port}`);
    expect(out.stdout).toContain('pglite');
    // SEED=none: an empty marketplace.
    expect(out.stdout).not.toContain('Demo data');
    const page = await fetch(`http://localhost:${port}/guides`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('找到 0 位導遊');

    const started = Date.now();
    child.kill('SIGTERM');
    const { code, signal } = await waitForExit(child, 15_000);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(out.stdout).toContain('SIGTERM received');
    expect(out.stdout).toContain('Shutdown complete');
    expect(out.stderr).toBe('');
    // The port is free again.
    await expect(fetch(`http://localhost:${port}/api/ping`)).rejects.toThrow();
  });

  test('a first start creates, migrates and seeds a new embedded database in a child process; a restart keeps it', async () => {
    test.setTimeout(240_000);
    const admin = { ADMIN_EMAIL: 'lifecycle-admin@example.com', ADMIN_PASSWORD: 'lifecycle-admin-pw-1' };
    const env = serverEnv({ DATA_DIR: dataDir, SEED: 'demo', ...admin });
    const login = async (port: number) =>
      (
        await fetch(`http://localhost:${port}/api/v1/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: admin.ADMIN_EMAIL, password: admin.ADMIN_PASSWORD }),
        })
      ).status;

    let port = await freePort();
    child = spawnServer({ ...env, PORT: String(port) });
    let out = collect(child);
    await waitForPing(`http://localhost:${port}`, child, 200_000).catch((error: Error) => {
      throw new Error(`${error.message}\nstdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
    });
    expect(out.stdout).toMatch(/Demo data: 36 guides/);
    expect(await (await fetch(`http://localhost:${port}/guides`)).text()).toContain('找到 36 位導遊');
    expect(await login(port)).toBe(200);
    child.kill('SIGTERM');
    expect(await waitForExit(child, 15_000)).toEqual({ code: 0, signal: null });

    port = await freePort();
    child = spawnServer({ ...env, PORT: String(port) });
    out = collect(child);
    await waitForPing(`http://localhost:${port}`, child, 60_000);
    expect(out.stdout).not.toContain('Demo data');
    expect(out.stdout).toContain(`Admin ${admin.ADMIN_EMAIL} updated`);
    expect(await (await fetch(`http://localhost:${port}/guides`)).text()).toContain('找到 36 位導遊');
    expect(await login(port)).toBe(200);
    child.kill('SIGTERM');
    expect(await waitForExit(child, 15_000)).toEqual({ code: 0, signal: null });
  });

  test('refuses to start with an invalid PORT', async () => {
    child = spawnServer(serverEnv({ DATA_DIR: dataDir, PORT: 'notaport', SEED: 'none' }));
    const out = collect(child);
    const { code } = await waitForExit(child, 10_000);
    expect(code).toBe(1);
    expect(out.stderr).toContain('PORT');
    expect(out.stderr).toMatch(/Invalid configuration: PORT/);
    expect(out.stdout).not.toContain('listening');
  });

  test('refuses to start with a non-PostgreSQL DATABASE_URL', async () => {
    child = spawnServer({ ...serverEnv({ DATA_DIR: dataDir, PORT: '0', SEED: 'none' }), DATABASE_URL: 'mysql://x' });
    const out = collect(child);
    const { code } = await waitForExit(child, 10_000);
    expect(code).toBe(1);
    expect(out.stderr).toMatch(/Invalid configuration: DATABASE_URL/);
    expect(out.stdout).not.toContain('listening');
  });
});
