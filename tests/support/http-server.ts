import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import { afterAll, beforeAll } from 'vitest';
import { getDb } from '~db/client';
import { createApp, createHttpServer, type AppOptions } from '../../server/app';

/**
 * The real HTTP door for tests: the Express app of server.ts (server/app.ts) with the Remix request handler,
 * listening on a free loopback port. The Remix build comes from Vite's SSR loader, as under `npm run dev`,
 * so no production build is needed; when TEST_SERVER_BUILD names a built server bundle (`npm test` builds first
 * and sets it to build/server/index.js), that bundle is served instead, as in production: loading it takes a
 * fraction of a second, where Vite's SSR loader compiles the ~500 app modules again in every test file (5-7 s). Tests send real requests with fetch and read the status line, headers
 * and body a client receives. Use together with useTestDatabase() (the database lives on globalThis, which
 * both module graphs share).
 */
export interface TestServer {
  readonly baseUrl: string;
  /** The Remix server build being served (its route manifest and modules). */
  readonly build: ServerBuild;
  /** fetch relative to the server; `json` sets the body and content type; `token` and `cookie` authenticate. */
  request(path: string, init?: TestRequestInit): Promise<TestResponse>;
  /** A page's form posted as a browser without JS posts it (urlencoded, with the session cookie and our Origin). */
  postForm(path: string, cookie: string, values: Record<string, string>): Promise<TestResponse>;
}

export interface TestRequestInit extends Omit<RequestInit, 'body'> {
  json?: unknown;
  body?: BodyInit;
  token?: string;
  cookie?: string;
  /** Sent as Origin (defaults to the server's own origin for cookie-authenticated non-GET requests). */
  origin?: string | null;
}

export interface TestResponse {
  status: number;
  statusText: string;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is not JSON. */
  json: any;
}

let vitePromise: Promise<import('vite').ViteDevServer> | undefined;

async function loadBuild(): Promise<ServerBuild> {
  const prebuilt = process.env.TEST_SERVER_BUILD;
  // Imported by Node itself (vitest.config.ts externalizes build/server/), like build/server.js does in production.
  if (prebuilt) return (await import(/* @vite-ignore */ pathToFileURL(path.resolve(prebuilt)).href)) as ServerBuild;
  vitePromise ??= import('vite').then((v) =>
    v.createServer({ server: { middlewareMode: true, hmr: false, ws: false, watch: null }, appType: 'custom', logLevel: 'error' }),
  );
  const vite = await vitePromise;
  return (await vite.ssrLoadModule('virtual:remix/server-build')) as ServerBuild;
}

export function useTestServer(options: { hsts?: boolean; logger?: AppOptions['logger']; metrics?: AppOptions['metrics'] } = {}): TestServer {
  let server: http.Server | undefined;
  let baseUrl = '';
  let build: ServerBuild | undefined;

  beforeAll(async () => {
    build = await loadBuild();
    const app = createApp({ build, mode: 'production', db: getDb, hsts: options.hsts, logger: options.logger, metrics: options.metrics });
    server = createHttpServer(app);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    const vite = await vitePromise;
    vitePromise = undefined;
    await vite?.close();
  });

  return {
    get baseUrl() {
      return baseUrl;
    },
    get build() {
      if (!build) throw new Error('test server not started (use inside tests)');
      return build;
    },
    postForm(path, cookie, values) {
      return this.request(path, {
        method: 'POST',
        cookie,
        origin: baseUrl,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(values).toString(),
      });
    },
    async request(path, init = {}) {
      const { json, token, cookie, origin, ...rest } = init;
      const headers = new Headers(rest.headers);
      let body = rest.body;
      if (json !== undefined) {
        body = JSON.stringify(json);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
      if (token) headers.set('authorization', `Bearer ${token}`);
      if (cookie) headers.set('cookie', cookie);
      const method = (rest.method ?? (body !== undefined ? 'POST' : 'GET')).toUpperCase();
      if (origin !== null && (origin || (cookie && method !== 'GET' && method !== 'HEAD'))) {
        headers.set('origin', origin ?? baseUrl);
      }
      const response = await fetch(baseUrl + path, { ...rest, method, headers, body, redirect: 'manual' });
      const text = await response.text();
      let parsed: any;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, statusText: response.statusText, headers: response.headers, text, json: parsed };
    },
  };
}
