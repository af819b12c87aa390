import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { expect, test } from './test';
import { assertBuilt, freePort, serverEnv, spawnServer, waitForExit, waitForPing } from './server-process';

/**
 * Restarts nobody notices (issue 25, server/lifecycle.ts): the built server, spawned, over real HTTP. Plain
 * Node: no browser, js-on project only.
 */

function collect(child: ChildProcess) {
  const out = { stdout: '', stderr: '' };
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
  return out;
}

interface SlowRequest {
  /** Sends the rest of the body. */
  finish(): void;
  response: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>;
}

/** A login whose body arrives in two parts: the request is in flight until finish() sends the second. */
function slowLogin(port: number): SlowRequest {
  const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password-1' });
  const half = Math.floor(body.length / 2);
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/v1/auth/login',
    headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)) },
  });
  const response = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, half));
  return { finish: () => req.end(body.slice(half)), response };
}

/** Resolves 'refused' when a new TCP connection is refused, 'accepted' when it is accepted. */
function tryConnect(port: number): Promise<'refused' | 'accepted'> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('accepted');
    });
    socket.once('error', () => resolve('refused'));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test.describe('server drain on SIGTERM', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;

  test.beforeEach(async ({}, testInfo) => {
    test.skip(testInfo.project.name !== 'js-on', 'server drain runs in the js-on project only');
    assertBuilt();
    dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'lvyou-drain-'));
  });

  test.afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await waitForExit(child, 5_000).catch(() => undefined);
    }
    child = undefined;
    if (dataDir) await fs.promises.rm(dataDir, { recursive: true, force: true });
  });

  async function start(extra: Record<string, string>) {
    const port = await freePort();
    child = spawnServer(serverEnv({ DATA_DIR: dataDir, PORT: String(port), SEED: 'none', ...extra }));
    const out = collect(child);
    await waitForPing(`http://127.0.0.1:${port}`, child, 120_000).catch((error: Error) => {
      throw new Error(`${error.message}\nstdout:\n${out.stdout}\nstderr:\n${out.stderr}`);
    });
    return { port, out, child };
  }

  test('says it is draining, refuses new connections, finishes the request in flight and exits 0', async () => {
    test.setTimeout(180_000);
    const { port, out, child: server } = await start({ DRAIN_DELAY_MS: '3000' });
    expect((await fetch(`http://127.0.0.1:${port}/api/ready`)).status).toBe(200);

    const slow = slowLogin(port);
    await sleep(200);
    server.kill('SIGTERM');
    // Draining: not ready, still alive, and every answer ends its connection.
    await expect.poll(async () => (await fetch(`http://127.0.0.1:${port}/api/ready`)).status, { timeout: 2_500, intervals: [50] }).toBe(503);
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`);
    expect(ready.headers.get('connection')).toBe('close');
    expect((await fetch(`http://127.0.0.1:${port}/api/ping`)).status).toBe(200);

    // After the drain delay the listener is closed, while the slow request is still in flight.
    await expect.poll(() => tryConnect(port), { timeout: 15_000, intervals: [100] }).toBe('refused');
    expect(server.exitCode).toBeNull();

    slow.finish();
    const answer = await slow.response;
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, code: 'INVALID_CREDENTIALS' });
    expect(await waitForExit(server, 15_000)).toEqual({ code: 0, signal: null });
    expect(out.stdout).toContain('SIGTERM received: draining');
    expect(out.stdout).toContain('Shutdown complete');
    expect(out.stderr).toBe('');
  });

  test('a request that never finishes is cut after SHUTDOWN_TIMEOUT_MS', async () => {
    test.setTimeout(180_000);
    const { out, child: server, port } = await start({ SHUTDOWN_TIMEOUT_MS: '1000' });
    const slow = slowLogin(port);
    slow.response.catch(() => undefined);
    await sleep(200);
    const started = Date.now();
    server.kill('SIGTERM');
    const { code } = await waitForExit(server, 15_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(code).toBe(1);
    expect(out.stderr).toContain('cut off');
    await expect(slow.response).rejects.toThrow();
  });

  test('a second signal exits at once', async () => {
    test.setTimeout(180_000);
    const { out, child: server, port } = await start({ SHUTDOWN_TIMEOUT_MS: '30000' });
    const slow = slowLogin(port);
    slow.response.catch(() => undefined);
    await sleep(200);
    server.kill('SIGTERM');
    await sleep(500);
    expect(server.exitCode).toBeNull();
    const started = Date.now();
    server.kill('SIGTERM');
    const { code } = await waitForExit(server, 5_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(code).toBe(1);
    expect(out.stderr).toContain('received again: exiting at once');
  });
});
