/**
 * Helpers shared by global-setup and the server lifecycle test: where the build is, a free port,
 * and waiting for /api/ping. Node only; no Playwright imports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SERVER_ENTRY = path.join(PROJECT_ROOT, 'build/server.js');
export const STATE_FILE = path.join(PROJECT_ROOT, 'test-results', '.e2e-server.json');

export function assertBuilt(): void {
  for (const file of ['build/server.js', 'build/server/index.js']) {
    if (!fs.existsSync(path.join(PROJECT_ROOT, file))) {
      throw new Error(`e2e: ${file} is missing — run npm run build first`);
    }
  }
}

/** Asks the OS for a free port (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no port'))));
    });
  });
}

/** The environment for a server child: ours minus anything that would point it at another database. */
export function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'SEED', 'PORT', 'DATA_DIR', 'PUBLIC_URL', 'SMTP_URL']) delete env[key];
  return { ...env, NODE_ENV: 'production', ...extra };
}

export function spawnServer(env: NodeJS.ProcessEnv, stdio: 'pipe' | number = 'pipe'): ChildProcess {
  return spawn(process.execPath, [SERVER_ENTRY], {
    cwd: PROJECT_ROOT,
    env,
    stdio: stdio === 'pipe' ? ['ignore', 'pipe', 'pipe'] : ['ignore', stdio, stdio],
  });
}

/** Polls GET /api/ping until it answers 200; rejects when the child exits first or time runs out. */
export async function waitForPing(baseURL: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited: string | undefined;
  const onExit = (code: number | null, signal: string | null) => (exited = `exited with code ${code} signal ${signal}`);
  child.once('exit', onExit);
  try {
    while (Date.now() < deadline) {
      if (exited) throw new Error(`server ${exited} before answering /api/ping`);
      try {
        const res = await fetch(`${baseURL}/api/ping`, { signal: AbortSignal.timeout(2000) });
        if (res.status === 200) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`server did not answer ${baseURL}/api/ping with 200 within ${timeoutMs / 1000} s`);
  } finally {
    child.off('exit', onExit);
  }
}

/**
 * Resolves with the exit code (or null after a signal) once the process has exited and its output
 * streams are drained ('close'), or rejects after timeoutMs.
 */
export function waitForExit(child: ChildProcess, timeoutMs: number): Promise<{ code: number | null; signal: string | null }> {
  const exited = child.exitCode !== null || child.signalCode !== null;
  const drained = [child.stdout, child.stderr].every((s) => !s || s.destroyed || s.readableEnded);
  if (exited && drained) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`process ${child.pid} did not exit within ${timeoutMs} ms`)), timeoutMs);
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });
}
