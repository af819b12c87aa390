import crypto from 'node:crypto';
import http from 'node:http';
import type net from 'node:net';
import * as ece from 'http_ece';

/**
 * A real (local) push service for tests: an HTTP server that takes web-push POSTs the way a browser vendor's
 * does, and a browser's side of a subscription (a P-256 key pair and a 16-byte auth secret, made with
 * node:crypto) that decrypts what it receives (aes128gcm, RFC 8291) with http_ece.
 *
 * `answer` decides the status of each request in turn (201 when nothing is queued). `trickle(path)` makes it a
 * push service that never finishes its answer to that path: 200 at once, then one byte every few seconds, as any
 * server on the internet can (issue 31).
 */
export interface ReceivedPush {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  status: number;
}

export interface PushClient {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** The JSON the server encrypted to this client. */
  decrypt(push: ReceivedPush): unknown;
}

export interface PushService {
  url: string;
  received: ReceivedPush[];
  /** Statuses for the next requests, in order. */
  answer(...statuses: number[]): void;
  /** Requests to `path` are answered 200 at once, then one byte every `everyMs` (5 s) until the client gives up. */
  trickle(path: string, everyMs?: number): void;
  /** Trickled answers whose connection the client has closed so far. */
  readonly trickledClosed: number;
  /** Resolves with the `n`th request (1-based) to `path` once it has arrived. */
  waitFor(path: string, n?: number): Promise<ReceivedPush>;
  client(path: string): PushClient;
  close(): Promise<void>;
}

export async function startPushService(): Promise<PushService> {
  const received: ReceivedPush[] = [];
  const statuses: number[] = [];
  const waiters: Array<() => void> = [];
  const trickled = new Map<string, number>();
  const drips = new Set<ReturnType<typeof setInterval>>();
  let trickledClosed = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const everyMs = trickled.get(req.url ?? '');
      if (everyMs !== undefined) {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), status: 200 });
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('.');
        const drip = setInterval(() => res.write('.'), everyMs);
        drips.add(drip);
        res.on('close', () => {
          clearInterval(drip);
          drips.delete(drip);
          trickledClosed++;
        });
        for (const wake of waiters.splice(0)) wake();
        return;
      }
      const status = statuses.shift() ?? 201;
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks), status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 201 ? '' : `status ${status}`);
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;

  return {
    url,
    received,
    answer: (...next) => void statuses.push(...next),
    trickle: (path, everyMs = 5_000) => void trickled.set(path, everyMs),
    get trickledClosed() {
      return trickledClosed;
    },
    async waitFor(path, n = 1) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const matching = received.filter((r) => r.path === path);
        if (matching.length >= n) return matching[n - 1]!;
        if (Date.now() > deadline) throw new Error(`push service: ${matching.length} request(s) to ${path}, waited for ${n}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    client(path) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = crypto.randomBytes(16).toString('base64url');
      return {
        endpoint: `${url}${path}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth },
        decrypt(push) {
          if (push.headers['content-encoding'] !== 'aes128gcm') throw new Error(`content-encoding ${push.headers['content-encoding']}`);
          return JSON.parse(ece.decrypt(push.body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString('utf8'));
        },
      };
    },
    close: () => {
      for (const drip of drips) clearInterval(drip);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
