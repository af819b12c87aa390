import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { getDb, openDatabase } from '~db/client';
import { simulatorTrades } from '~db/schema';
import { getConfig, type AppConfig } from '~/env.server';
import { addDays, todayInTaipei } from '~/lib/dates';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { paymentProvider } from '~/services/payments/configured-provider.server';
import { createAvailability, createGuide, createTraveler } from '~server/seed/factories';
import { loginAs } from '../support/api';
import { useTestServer } from '../support/http-server';
import { usePaymentWorker, waitForPayment } from '../support/payments';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * `npm run payments:simulator` (issue 32): the simulator on its own port, as a child process with its own books (a
 * PostgreSQL database of its own with TEST_DRIVER=pg, else an embedded database in a folder of its own), and the app
 * (the in-process test server) pointed at it through PAYMENT_SIMULATOR_URL. All over real HTTP, as a browser without
 * JavaScript: the checkout form posted to the other port, its card page, the approved card, the simulator's callback
 * reaching the app (authorised), the guide's confirmation captured there by the outbox's payment lane; the declined
 * card failing the payment; SIGTERM ending it with exit code 0.
 */
useTestDatabase();
const server = useTestServer();
usePaymentWorker();

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSX = path.join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs');

const CONFIG_KEY = Symbol.for('lvyou.config');
type WithConfig = typeof globalThis & { [CONFIG_KEY]?: AppConfig };

/** The simulator's own database: where it is, and how to look at it once the simulator has stopped. */
interface SimulatorBooks {
  env: Record<string, string | undefined>;
  open(): ReturnType<typeof openDatabase>;
  remove(): Promise<void>;
}

async function simulatorBooks(): Promise<SimulatorBooks> {
  if (testDriver === 'pg') {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `lvyou_sim_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const template = inject('pgTemplate');
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString() },
      open: () => openDatabase({ url: url.toString() }),
      remove: async () => {
        const c = new pg.Client({ connectionString: adminUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      },
    };
  }
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'lvyou-simulator-'));
  return {
    env: { DATABASE_URL: undefined, PAYMENT_SIMULATOR_DATA_DIR: dir },
    open: () => openDatabase({ dataDir: dir }),
    remove: () => fs.promises.rm(dir, { recursive: true, force: true }),
  };
}

let books: SimulatorBooks;
let child: ChildProcess;
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
let output = '';
let simulatorUrl = '';
let configBefore: AppConfig | undefined;

beforeAll(async () => {
  books = await simulatorBooks();
  const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'test', HOST: '127.0.0.1', PAYMENT_SIMULATOR_PORT: '0', ...books.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  child = spawn(process.execPath, [TSX, 'scripts/payments-simulator.ts'], { cwd: PROJECT_ROOT, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Its one start line says where it listens (port 0: a free one).
  const deadline = Date.now() + 50_000;
  for (;;) {
    const match = /Payment simulator \(test mode, no real money\) on (http:\/\/\S+\/payments\/simulator)/.exec(output);
    if (match) {
      simulatorUrl = match[1]!;
      break;
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the simulator did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  configBefore = getConfig();
  (globalThis as WithConfig)[CONFIG_KEY] = { ...configBefore, PUBLIC_URL: server.baseUrl, PAYMENT_SIMULATOR_URL: simulatorUrl };
}, 60_000);

afterAll(async () => {
  (globalThis as WithConfig)[CONFIG_KEY] = configBefore;
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await exited;
  }
  await books?.remove();
});

beforeEach(() => resetRateLimits());

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const decode = (text: string) => text.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
/** The action and hidden fields of the first form whose opening tag matches `opening`. */
function formOf(page: string, opening: RegExp): { action: string; fields: Record<string, string> } {
  const match = opening.exec(page);
  if (!match) throw new Error(`no form ${opening} on the page`);
  const html = page.slice(match.index, page.indexOf('</form>', match.index));
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\/?>/g)) fields[decode(m[1]!)] = decode(m[2]!);
  return { action: decode(/action="([^"]*)"/.exec(match[0])?.[1] ?? ''), fields };
}
/** A form post to any address (the simulator's port or the app's), as a browser sends it; redirects are not followed. */
async function postForm(url: string, values: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { ...FORM, ...headers }, body: new URLSearchParams(values).toString(), redirect: 'manual' });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

let seq = 0;
async function bookATour() {
  const guide = await createGuide({ price: 3000, locale: 'en', name: `Standalone guide ${++seq}` });
  const day = addDays(todayInTaipei(), 6);
  await createAvailability(guide.id, { from: day, days: 1, price: 3000 });
  const traveler = await createTraveler({ name: `Standalone traveler ${seq}` });
  const [t, g] = [await loginAs(traveler), await loginAs(guide)];
  const booked = await server.request(`/booking/${guide.id}`, {
    method: 'POST',
    cookie: t.cookie,
    origin: server.baseUrl,
    headers: FORM,
    body: new URLSearchParams({ slot: `${day}|morning`, numberOfPeople: '2', termsAccepted: 'on' }).toString(),
  });
  expect(booked.status).toBe(302);
  const orderId = Number(booked.headers.get('location')!.split('/')[2]);
  return { t, g, orderId };
}

/** The app's checkout page → its form posted to the simulator's port → the card page there. */
async function openCardPage(cookie: string, orderId: number) {
  const checkout = await server.request(`/orders/${orderId}/pay`, { cookie });
  expect(checkout.status).toBe(200);
  // The app's CSP lets its checkout form go to the simulator's origin.
  expect(checkout.headers.get('content-security-policy')).toContain(`form-action 'self' ${new URL(simulatorUrl).origin}`);
  const form = formOf(checkout.text, /<form[^>]*action="[^"]*AioCheckOut[^"]*"[^>]*>/);
  expect(form.action).toBe(`${simulatorUrl}/Cashier/AioCheckOut/V5`);
  expect(form.fields.ReturnURL).toBe(`${server.baseUrl}/payments/callback`);
  const accepted = await postForm(form.action, form.fields);
  expect(accepted.status).toBe(303);
  const cardUrl = new URL(accepted.headers.get('location')!, simulatorUrl).toString();
  expect(cardUrl).toMatch(new RegExp(`^${simulatorUrl}/pay/[0-9]{16,20}$`));
  return { cardUrl, merchantTradeNo: form.fields.MerchantTradeNo! };
}

describe(`npm run payments:simulator (${testDriver})`, () => {
  it('a paid tour through the app: the card page on its own port, the approved card, authorised by its callback, captured there on confirmation', async () => {
    const { t, g, orderId } = await bookATour();
    const { cardUrl, merchantTradeNo } = await openCardPage(t.cookie, orderId);

    // The card page: test mode, in the traveler's language, a plain form (no script at all).
    const page = await fetch(cardUrl, { headers: { 'accept-language': 'en' } });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('Test mode: no real money moves.');
    expect(html).toContain('NT$3,000');
    expect(html).toMatch(/<form method="post"><div class="field"><label for="cardNumber">/);
    expect(html).not.toContain('<script');
    expect((await (await fetch(cardUrl, { headers: { 'accept-language': 'ja' } })).text())).toContain('テストモード');
    // The app's own simulator is off while another one is configured.
    expect((await server.request('/payments/simulator/Cashier/AioCheckOut/V5', { method: 'POST', origin: server.baseUrl, headers: FORM, body: 'a=b' })).status).toBe(404);

    const paid = await postForm(cardUrl, { cardNumber: '4311-9522-2222-2222' }, { 'accept-language': 'en' });
    expect(paid.status).toBe(200);
    expect(paid.text).toContain('Payment approved: NT$3,000 authorised.');
    expect(paid.headers.get('content-security-policy')).toContain(`form-action 'self' ${server.baseUrl}`);
    const back = formOf(paid.text, /<form method="post" action="[^"]*\/payments\/return\/\d+"[^>]*>/);
    expect(back.action).toBe(`${server.baseUrl}/payments/return/${orderId}`);
    expect(back.fields.RtnCode).toBe('1');

    // The simulator's server callback reaches the app by itself; then the browser comes back.
    const authorised = await waitForPayment(orderId, 'authorised');
    expect(authorised).toMatchObject({ amount: 3000, merchantTradeNo });
    const returned = await server.request(`/payments/return/${orderId}`, { method: 'POST', cookie: t.cookie, origin: server.baseUrl, headers: FORM, body: new URLSearchParams(back.fields).toString() });
    expect(returned.status).toBe(303);
    expect(returned.headers.get('location')).toBe(`/booking-success?order=${orderId}`);
    // The trade is on the simulator's books, not the app's.
    expect(await getDb().select().from(simulatorTrades).where(eq(simulatorTrades.merchantTradeNo, merchantTradeNo))).toEqual([]);

    // The guide confirms: the outbox's payment lane captures through the simulator's DoAction on its port.
    const confirmed = await server.request(`/api/v1/orders/${orderId}`, { method: 'PUT', token: g.token, json: { status: 'confirmed' } });
    expect(confirmed.status).toBe(200);
    expect(await waitForPayment(orderId, 'captured')).toMatchObject({ capturedAmount: 3000 });
    // QueryTradeInfo on its port knows the trade too.
    expect(await paymentProvider().queryTrade(merchantTradeNo)).toMatchObject({ status: 'paid', amount: 3000 });
  });

  it('the declined card: the payment fails', async () => {
    const { t, orderId } = await bookATour();
    const { cardUrl } = await openCardPage(t.cookie, orderId);
    const declined = await postForm(cardUrl, { cardNumber: '4000-0000-0000-0002' }, { 'accept-language': 'en' });
    expect(declined.status).toBe(200);
    expect(declined.text).toContain('The card was declined. No money was taken.');
    expect(formOf(declined.text, /<form method="post" action="[^"]*\/payments\/return\/\d+"[^>]*>/).fields.RtnCode).not.toBe('1');
    await waitForPayment(orderId, 'failed');
  });

  it('SIGTERM stops it with exit code 0; its books hold the captured and the declined trade', async () => {
    child.kill('SIGTERM');
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(output).toContain('Shutdown complete');
    const handle = await books.open();
    try {
      const trades = await handle.db.select({ status: simulatorTrades.status, amount: simulatorTrades.amount }).from(simulatorTrades).orderBy(simulatorTrades.id);
      expect(trades).toEqual([
        { status: 'closed', amount: 3000 },
        { status: 'declined', amount: 3000 },
      ]);
    } finally {
      await handle.close();
    }
  }, 30_000);
});
