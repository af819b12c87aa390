import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { expect, test } from './test';
import { assertBuilt, freePort, serverEnv, spawnServer, waitForExit, waitForPing } from './server-process';

/**
 * Issue 31 §4: the built server is production unless told otherwise. Started as systemd or PM2 start it,
 * `node build/server.js` with no NODE_ENV at all, a traveler must not reach the debug calls (listing every account,
 * making himself an ID-verified guide), and with an https PUBLIC_URL the session cookie is Secure.
 * Plain Node and HTTP against the real build: js-on project only.
 */
const ADMIN = { email: 'defaults-admin@example.test', password: 'defaults-admin-pw-1' };
const TRAVELER = { email: 'defaults-traveler@example.test', password: 'traveler-pw-123', name: 'Traveler' };

test.describe('a built server started without NODE_ENV', () => {
  let dataDir: string;
  let child: ChildProcess | undefined;
  let base = '';
  let output = '';
  let adminToken = '';
  let travelerId = 0;

  test.beforeAll(async ({}, testInfo) => {
    test.skip(testInfo.project.name !== 'js-on', 'plain HTTP: the js-on project only');
    test.setTimeout(120_000);
    assertBuilt();
    dataDir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'lvyou-defaults-'));
    const port = await freePort();
    base = `http://localhost:${port}`;
    // serverEnv says production, as every other e2e server does: here NODE_ENV is left out altogether.
    const { NODE_ENV: _left_out, ...env } = serverEnv({ DATA_DIR: dataDir, PORT: String(port), SEED: 'none', PUBLIC_URL: 'https://travel.example.test', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    child = spawnServer(env as NodeJS.ProcessEnv);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (output += d));
    await waitForPing(base, child, 90_000);
    // The admin makes the traveler (an admin may use the debug calls in production).
    adminToken = await login(ADMIN);
    const created = await api('/api/dev/users', { token: adminToken, json: { type: 'traveler', ...TRAVELER } });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    travelerId = created.json.data.user.id as number;
  });

  test.afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await waitForExit(child, 20_000).catch(() => child!.kill('SIGKILL'));
    }
    if (dataDir) await fs.promises.rm(dataDir, { recursive: true, force: true });
  });

  const api = async (pathname: string, init: { method?: string; token?: string; json?: unknown } = {}) => {
    const res = await fetch(`${base}${pathname}`, {
      method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
      headers: { ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}), ...(init.json === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const login = async (who: { email: string; password: string }) => {
    const res = await api('/api/v1/auth/login', { json: { email: who.email, password: who.password } });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return res.json.data.token as string;
  };

  test('the debug calls are a 404 for a traveler and change nothing; an admin still has them', async () => {
    const traveler = await login(TRAVELER);
    const list = await api('/api/dev/users', { token: traveler });
    expect(list.status).toBe(404);
    expect(list.json.code).toBe('NOT_FOUND');
    expect(JSON.stringify(list.json)).not.toContain(ADMIN.email);

    const promote = await api(`/api/dev/users/${travelerId}`, { method: 'PUT', token: traveler, json: { isIdVerified: true, type: 'guide' } });
    expect(promote.status).toBe(404);
    const make = await api('/api/dev/users', { token: traveler, json: { type: 'guide', name: 'Fake', email: 'fake-guide@example.test', password: 'fake-guide-pw-1' } });
    expect(make.status).toBe(404);

    // As the admin sees the accounts: the traveler is still an unverified traveler, no account was made.
    const accounts = await api('/api/dev/users', { token: adminToken });
    expect(accounts.status).toBe(200);
    const users = accounts.json.data.users as Array<{ id: number; email: string; type: string; isIdVerified: boolean }>;
    expect(users.find((u) => u.id === travelerId)).toMatchObject({ type: 'traveler', isIdVerified: false });
    expect(users.some((u) => u.email === 'fake-guide@example.test')).toBe(false);

    // The debug page too.
    const cookie = await webLogin(TRAVELER);
    const page = await fetch(`${base}/dev/users`, { headers: { cookie: cookie.split(';')[0]! }, redirect: 'manual' });
    expect(page.status).toBe(404);
    // And no warning that the debug pages are open (a development start prints one).
    expect(output).not.toMatch(/NODE_ENV=development/);
  });

  /** The login form as a browser posts it: the Set-Cookie of the new session. */
  const webLogin = async (who: { email: string; password: string }) => {
    const res = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base },
      body: new URLSearchParams({ email: who.email, password: who.password }).toString(),
      redirect: 'manual',
    });
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('__session='));
    expect(cookie, `login answered ${res.status} without a session cookie`).toBeDefined();
    return cookie!;
  };

  test('the session cookie is Secure when PUBLIC_URL is https', async () => {
    const cookie = await webLogin(TRAVELER);
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);
  });
});
