import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ServerBuild } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { createApp, createHttpServer } from '../../../server/app';

/**
 * GET /sw.js over real HTTP (issue 24): the worker the build wrote, never kept by the HTTP cache (a new build
 * is seen at the next navigation), allowed to control the whole site, under the CSP (worker-src 'self').
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sw-test-'));
const file = path.join(dir, 'sw.js');
let server: http.Server;
let baseUrl = '';

beforeAll(async () => {
  const build = () => Promise.reject(new Error('no Remix build in this test')) as Promise<ServerBuild>;
  server = createHttpServer(createApp({ build, mode: 'production', db: getDb, serviceWorkerFile: file }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('GET /sw.js', () => {
  it('404 before a build wrote a worker', async () => {
    const response = await fetch(`${baseUrl}/sw.js`);
    expect(response.status).toBe(404);
  });

  it('serves the current file as JavaScript, uncached, for the whole site; a new file at once', async () => {
    fs.writeFileSync(file, 'const BUILD="one";');
    const first = await fetch(`${baseUrl}/sw.js`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    expect(first.headers.get('service-worker-allowed')).toBe('/');
    expect(first.headers.get('content-security-policy')).toContain("worker-src 'self'");
    expect(await first.text()).toBe('const BUILD="one";');
    fs.writeFileSync(file, 'const BUILD="two";');
    expect(await (await fetch(`${baseUrl}/sw.js`)).text()).toBe('const BUILD="two";');
  });
});
