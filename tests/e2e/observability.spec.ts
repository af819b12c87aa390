import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { expect, test } from './test';
import { assertBuilt, freePort, serverEnv, spawnServer, waitForExit, waitForPing } from './server-process';

/**
 * Request ids, JSON request logs and metrics of the built server (issue 25, server/observability.ts), read from
 * its real stdout and its metrics port. Plain Node: js-on project only.
 */
test.describe('logs and metrics', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;

  test.beforeEach(async ({}, testInfo) => {
    test.skip(testInfo.project.name !== 'js-on', 'runs in the js-on project only');
    assertBuilt();
    dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'lvyou-observe-'));
  });

  test.afterEach(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGKILL');
      await waitForExit(child, 5_000).catch(() => undefined);
    }
    if (dataDir) await fs.promises.rm(dataDir, { recursive: true, force: true });
  });

  test('a request id in X-Request-Id and in its log line by route pattern; no password in the log; metrics on their own port', async () => {
    test.setTimeout(180_000);
    const [port, metricsPort] = [await freePort(), await freePort()];
    child = spawnServer(serverEnv({ DATA_DIR: dataDir, PORT: String(port), SEED: 'none', METRICS_PORT: String(metricsPort), INSTANCE_NAME: 'x1' }));
    let stdout = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const base = `http://127.0.0.1:${port}`;
    await waitForPing(base, child, 120_000);
    const logLines = () =>
      stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);

    const traced = await fetch(`${base}/api/v1/guides/987654?lang=en`, { headers: { 'X-Request-Id': 'e2e-trace-0001' } });
    expect(traced.status).toBe(404);
    expect(traced.headers.get('x-request-id')).toBe('e2e-trace-0001');
    expect(await traced.json()).toMatchObject({ success: false, code: 'GUIDE_NOT_FOUND', requestId: 'e2e-trace-0001' });
    const fresh = await fetch(`${base}/guides`);
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // A header that could forge log content is replaced.
    const forged = await fetch(`${base}/api/ping`, { headers: { 'X-Request-Id': 'x"} {"level":"error"' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    const secret = 'Very-Secret-Password-42';
    const login = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: 'theme=dark' },
      body: JSON.stringify({ email: 'nobody@example.com', password: secret }),
    });
    expect(login.status).toBe(401);
    const loginId = login.headers.get('x-request-id');

    await expect.poll(() => logLines().some((l) => l.request_id === loginId)).toBe(true);
    expect(logLines().find((l) => l.request_id === 'e2e-trace-0001')).toMatchObject({
      level: 'info',
      msg: 'request',
      instance: 'x1',
      method: 'GET',
      route: '/api/v1/guides/:id',
      status: 404,
    });
    expect(logLines().find((l) => l.request_id === fresh.headers.get('x-request-id'))).toMatchObject({ route: '/guides', status: 200 });
    expect(logLines().find((l) => l.request_id === loginId)).toMatchObject({ route: '/api/v1/auth/login', method: 'POST', status: 401 });
    expect(stdout).not.toContain(secret);
    expect(stdout).not.toContain('$argon2');
    expect(stdout).not.toContain('theme=dark');
    expect(stdout).not.toContain('987654');

    const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toContain('text/plain; version=0.0.4');
    const text = await metrics.text();
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/api/v1/guides/:id",status="404"} 1');
    expect(text).toContain('http_request_duration_seconds_count{method="POST",route="/api/v1/auth/login",status="401"} 1');
    expect(text).toMatch(/^socketio_connected_sockets 0$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
    // Never on the public port.
    const publicMetrics = await fetch(`${base}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(await publicMetrics.text()).not.toContain('http_request_duration_seconds');

    child.kill('SIGTERM');
    expect((await waitForExit(child, 15_000)).code).toBe(0);
  });
});
