import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { ServerBuild } from '@remix-run/node';
import { afterEach, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { createApp, createHttpServer, type HttpServerOptions } from '../../../server/app';
import { useTestDatabase } from '../../support/test-database';

/**
 * Issue 31 §4: Node exposed without nginx, 20,000 slow connections from one address made /api/ping fail for everyone.
 * The server caps the connections one client address holds open (MAX_CONNECTIONS_PER_ADDRESS; a trusted proxy is
 * not counted) and gives up on headers that never finish. Every connection here is on loopback, so the clients take
 * distinct loopback addresses (127.0.0.2, 127.0.0.3: Linux answers the whole 127.0.0.0/8) and the cap is small.
 */
useTestDatabase();

const CAP = 5;
const servers: http.Server[] = [];
const sockets: net.Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function start(trustProxy: string, options: HttpServerOptions): Promise<number> {
  // /api/ping answers before Remix; no request in this file reaches the build.
  const build = () => Promise.reject(new Error('no Remix build in this test')) as Promise<ServerBuild>;
  const server = createHttpServer(createApp({ build, mode: 'production', db: getDb, trustProxy, pingFreshForMs: 0 }), options);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** A connection from `from` that says nothing (a slow client), open once the server could have closed it. */
async function idle(port: number, from: string): Promise<net.Socket & { gone: Promise<void> }> {
  const socket = net.connect({ port, host: '127.0.0.1', localAddress: from }) as net.Socket & { gone: Promise<void> };
  socket.on('error', () => {});
  socket.gone = new Promise((resolve) => socket.once('close', () => resolve()));
  sockets.push(socket);
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

/** GET /api/ping from the address `from`: the status, or the network error's code. */
function ping(port: number, from: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/ping', localAddress: from, agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const within = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms))]);

async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 10 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('connections per client address', () => {
  it('past the cap a further connection from that address is closed at once; other addresses are served; closing frees the slots', async () => {
    const port = await start('false', { maxConnectionsPerAddress: CAP });
    const held = [];
    for (let i = 0; i < CAP; i++) held.push(await idle(port, '127.0.0.2'));

    const extra = await idle(port, '127.0.0.2');
    await within(extra.gone, 10_000, 'closing the connection over the cap');
    expect(held.every((s) => !s.destroyed)).toBe(true);
    expect(await ping(port, '127.0.0.2')).not.toBe(200);

    // Someone else is not held back by that address's connections.
    expect(await ping(port, '127.0.0.3')).toBe(200);

    for (const socket of held) socket.destroy();
    await eventually(async () => (await ping(port, '127.0.0.2')) === 200, 'a request after the slow connections closed');
  });

  it('a trusted proxy is not counted: behind nginx every client arrives from loopback', async () => {
    const port = await start('loopback', { maxConnectionsPerAddress: CAP });
    for (let i = 0; i < CAP * 2; i++) await idle(port, '127.0.0.2');
    expect(await ping(port, '127.0.0.2')).toBe(200);
    expect(sockets.every((s) => !s.destroyed)).toBe(true);
  });

  it('headers that never finish are given up on (408, closed)', async () => {
    const port = await start('false', { maxConnectionsPerAddress: CAP, headersTimeoutMs: 1_000, checkEveryMs: 250 });
    const slow = await idle(port, '127.0.0.2');
    let answer = '';
    slow.on('data', (chunk) => (answer += chunk.toString()));
    slow.write('GET /api/ping HTTP/1.1\r\nHost: localhost\r\n');
    await within(slow.gone, 10_000, 'closing a connection whose headers never finish');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('the defaults: a cap, and timeouts far below Node’s five minutes for a request', () => {
    const build = () => Promise.reject(new Error('unused')) as Promise<ServerBuild>;
    const server = createHttpServer(createApp({ build, mode: 'production', db: getDb }));
    expect(server.headersTimeout).toBeLessThanOrEqual(20_000);
    expect(server.requestTimeout).toBeLessThanOrEqual(120_000);
    expect(server.requestTimeout).toBeGreaterThan(0);
  });
});
