import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerBuild } from '@remix-run/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '~db/client';
import { createApp, createHttpServer } from '../../../server/app';

/**
 * /api/ping over real HTTP against a database of its own that the test really closes: a success stands for
 * `pingFreshForMs`, a failure answers 503 and is not kept, and recovery shows at once.
 */
const FRESH_MS = 300;
let handle: DatabaseHandle | undefined;
let database: DatabaseHandle;
let server: http.Server;
let baseUrl = '';

beforeAll(async () => {
  database = await openDatabase({});
  handle = database;
  // /api/ping answers before Remix; no request in this file reaches the build.
  const build = () => Promise.reject(new Error('no Remix build in this test')) as Promise<ServerBuild>;
  const app = createApp({ build, mode: 'production', db: () => handle!.db, pingFreshForMs: FRESH_MS });
  server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await handle?.close().catch(() => {});
});

const ping = async () => {
  const res = await fetch(`${baseUrl}/api/ping`);
  return { status: res.status, cache: res.headers.get('cache-control'), body: (await res.json()) as { success: boolean; code?: string } };
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('GET /api/ping', () => {
  it('answers 200 while the database answers, 503 once it stopped (after the fresh window), 200 again at once', async () => {
    const first = await ping();
    expect(first).toMatchObject({ status: 200, cache: 'no-store', body: { success: true } });

    await database.close();
    // Within the window the last successful check stands.
    expect((await ping()).status).toBe(200);
    await sleep(FRESH_MS + 50);
    const down = await ping();
    expect(down).toMatchObject({ status: 503, cache: 'no-store', body: { success: false, code: 'SERVER_ERROR' } });
    // A failure is not remembered: still down is still 503...
    expect((await ping()).status).toBe(503);

    // ...and a database that answers again is seen at the next request.
    handle = await openDatabase({});
    expect((await ping()).status).toBe(200);
  });

  it('20 pings at once run far fewer than 20 queries', async () => {
    await sleep(FRESH_MS + 50);
    let queries = 0;
    const counted = handle!;
    const realExecute = counted.db.execute.bind(counted.db);
    // Count the queries the real database runs (the real execute still answers).
    (counted.db as { execute: typeof realExecute }).execute = ((...args: Parameters<typeof realExecute>) => {
      queries += 1;
      return realExecute(...args);
    }) as typeof realExecute;
    const answers = await Promise.all(Array.from({ length: 20 }, () => ping()));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(queries).toBeLessThan(20);
    expect(queries).toBeGreaterThanOrEqual(1);
  });
});
