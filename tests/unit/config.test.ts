import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, databaseLocation, parseConfig, paymentSimulatorConfig } from '~/env.server';

const made: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lvyou-config-'));
  made.push(dir);
  return dir;
};
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

describe('configuration', () => {
  it('has working defaults for a zero-setup start', () => {
    const dir = tmp();
    const config = parseConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: dir, PUBLIC_URL: 'http://localhost:3000', MAIL_FROM: '旅遊助手 <no-reply@localhost>' });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SEED).toBeUndefined();
  });

  it('is production unless told otherwise (docs/decisions/036): `node build/server.js` without NODE_ENV is a deployment', () => {
    expect(parseConfig({ DATA_DIR: tmp() }).NODE_ENV).toBe('production');
    expect(parseConfig({ DATA_DIR: tmp(), NODE_ENV: '' }).NODE_ENV).toBe('production');
    expect(parseConfig({ DATA_DIR: tmp(), NODE_ENV: 'development' }).NODE_ENV).toBe('development');
    expect(parseConfig({ DATA_DIR: tmp(), NODE_ENV: 'test' }).NODE_ENV).toBe('test');
  });

  it('requires SMTP_URL for a production deployment on PostgreSQL; the embedded demo may print its mail', () => {
    const pg = { NODE_ENV: 'production', DATABASE_URL: 'postgres://localhost/x', SESSION_SECRET: 'x'.repeat(40) };
    expect(() => parseConfig({ DATA_DIR: tmp(), ...pg })).toThrow(/^Invalid configuration: SMTP_URL is required/);
    // Without NODE_ENV too: the default is production.
    expect(() => parseConfig({ DATA_DIR: tmp(), DATABASE_URL: pg.DATABASE_URL, SESSION_SECRET: pg.SESSION_SECRET })).toThrow(ConfigError);
    expect(parseConfig({ DATA_DIR: tmp(), ...pg, SMTP_URL: 'smtp://mail.example.tw:587', PAYMENT_PROVIDER: 'simulator' }).SMTP_URL).toBe('smtp://mail.example.tw:587');
    expect(parseConfig({ DATA_DIR: tmp(), NODE_ENV: 'production' }).SMTP_URL).toBeUndefined();
    expect(parseConfig({ DATA_DIR: tmp(), ...pg, NODE_ENV: 'development' }).SMTP_URL).toBeUndefined();
    // A demo marketplace on PostgreSQL (what ../shared/perf starts) prints its mail like the embedded demo.
    expect(parseConfig({ DATA_DIR: tmp(), ...pg, SEED: 'demo' }).SMTP_URL).toBeUndefined();
    expect(() => parseConfig({ DATA_DIR: tmp(), ...pg, SEED: 'none' })).toThrow(/SMTP_URL/);
  });

  it('requires PAYMENT_PROVIDER for a production deployment on PostgreSQL, so the simulator never takes payments there by accident', () => {
    const pg = { NODE_ENV: 'production', DATABASE_URL: 'postgres://localhost/x', SESSION_SECRET: 'x'.repeat(40), SMTP_URL: 'smtp://mail.example.tw:587' };
    expect(() => parseConfig({ DATA_DIR: tmp(), ...pg })).toThrow(/^Invalid configuration: PAYMENT_PROVIDER must be set/);
    expect(parseConfig({ DATA_DIR: tmp(), ...pg, PAYMENT_PROVIDER: 'simulator' }).PAYMENT_PROVIDER).toBe('simulator');
    // A demo marketplace on PostgreSQL and the embedded database use the simulator by default.
    expect(parseConfig({ DATA_DIR: tmp(), ...pg, SEED: 'demo' }).PAYMENT_PROVIDER).toBeUndefined();
    expect(parseConfig({ DATA_DIR: tmp(), NODE_ENV: 'production' }).PAYMENT_PROVIDER).toBeUndefined();
    expect(() => parseConfig({ DATA_DIR: tmp(), ...pg, PAYMENT_PROVIDER: 'ecpay' })).toThrow(/ECPAY_MERCHANT_ID/);
  });

  it('the database tools (migrate, backup, restore) need only where the database is, not the serving settings', () => {
    // A production database without NODE_ENV, SESSION_SECRET or SMTP_URL: the server refuses, a backup may run.
    expect(() => parseConfig({ DATABASE_URL: 'postgres://localhost/x' })).toThrow(ConfigError);
    expect(databaseLocation({ DATABASE_URL: 'postgres://localhost/x' })).toEqual({ DATABASE_URL: 'postgres://localhost/x', DATA_DIR: path.resolve('./data') });
    expect(databaseLocation({ DATA_DIR: '/srv/lvyou' })).toEqual({ DATABASE_URL: undefined, DATA_DIR: '/srv/lvyou' });
    expect(() => databaseLocation({ DATABASE_URL: 'mysql://localhost/x' })).toThrow(/^Invalid configuration: DATABASE_URL/);
  });

  it('the payment simulator on its own port: 127.0.0.1:3099, an embedded database of its own, never the app\'s DATA_DIR', () => {
    expect(paymentSimulatorConfig({ DATA_DIR: '/srv/lvyou' })).toEqual({
      HOST: '127.0.0.1',
      PORT: 3099,
      DATABASE_URL: undefined,
      DATA_DIR: '/srv/lvyou/payments-simulator',
      SHUTDOWN_TIMEOUT_MS: 10_000,
    });
    expect(paymentSimulatorConfig({ HOST: '0.0.0.0', PAYMENT_SIMULATOR_PORT: '4000', PAYMENT_SIMULATOR_DATA_DIR: '/srv/sim' })).toMatchObject({ HOST: '0.0.0.0', PORT: 4000, DATA_DIR: '/srv/sim' });
    expect(() => paymentSimulatorConfig({ DATA_DIR: '/srv/lvyou', PAYMENT_SIMULATOR_DATA_DIR: '/srv/lvyou/' })).toThrow(/^Invalid configuration: PAYMENT_SIMULATOR_DATA_DIR .*DATABASE_URL/);
    // On PostgreSQL both processes may open the same database.
    expect(paymentSimulatorConfig({ DATABASE_URL: 'postgres://localhost/x', PAYMENT_SIMULATOR_DATA_DIR: './data', DATA_DIR: './data' }).DATABASE_URL).toBe('postgres://localhost/x');
    expect(() => paymentSimulatorConfig({ PAYMENT_SIMULATOR_PORT: '70000' })).toThrow(/PAYMENT_SIMULATOR_PORT/);
  });

  it('caps open connections per client address (0 turns the cap off)', () => {
    expect(parseConfig({ DATA_DIR: tmp() }).MAX_CONNECTIONS_PER_ADDRESS).toBe(100);
    expect(parseConfig({ DATA_DIR: tmp(), MAX_CONNECTIONS_PER_ADDRESS: '0' }).MAX_CONNECTIONS_PER_ADDRESS).toBe(0);
  });

  it('generates the session secret once into DATA_DIR and reuses it', () => {
    const dir = tmp();
    const first = parseConfig({ DATA_DIR: dir }).SESSION_SECRET;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(parseConfig({ DATA_DIR: dir }).SESSION_SECRET).toBe(first);
    expect(parseConfig({ DATA_DIR: dir, SESSION_SECRET: 'x'.repeat(40) }).SESSION_SECRET).toBe('x'.repeat(40));
  });

  it('takes a VAPID key pair as web-push prints it, or none (generated into the database: decision 029)', async () => {
    const { default: webpush } = await import('web-push');
    const keys = webpush.generateVAPIDKeys();
    const config = parseConfig({ DATA_DIR: tmp(), VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:ops@example.tw' });
    expect(config).toMatchObject({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey, VAPID_SUBJECT: 'mailto:ops@example.tw', PUSH_ALLOW_PRIVATE_ENDPOINTS: false });
    expect(parseConfig({ DATA_DIR: tmp() }).VAPID_PUBLIC_KEY).toBeUndefined();
    expect(parseConfig({ DATA_DIR: tmp(), PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' }).PUSH_ALLOW_PRIVATE_ENDPOINTS).toBe(true);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ SMTP_URL: 'not a url' }, 'SMTP_URL'],
    [{ SEED: 'lots' }, 'SEED'],
    [{ REDIS_URL: 'http://localhost' }, 'REDIS_URL'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET'],
    [{ ADMIN_EMAIL: 'admin@example.tw' }, 'ADMIN_PASSWORD'],
    [{ ADMIN_EMAIL: 'nope', ADMIN_PASSWORD: 'secret1' }, 'ADMIN_EMAIL'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://localhost/x' }, 'SESSION_SECRET'],
    [{ TEST_CLOCK_START: 'tomorrow' }, 'TEST_CLOCK_START'],
    [{ VAPID_PUBLIC_KEY: 'B'.repeat(87) }, 'VAPID_PRIVATE_KEY'],
    [{ VAPID_PRIVATE_KEY: 'a'.repeat(43) }, 'VAPID_PUBLIC_KEY'],
    [{ VAPID_PUBLIC_KEY: 'not a key', VAPID_PRIVATE_KEY: 'a'.repeat(43) }, 'VAPID_PUBLIC_KEY'],
    [{ VAPID_SUBJECT: 'http://example.com' }, 'VAPID_SUBJECT'],
    [{ PUSH_ALLOW_PRIVATE_ENDPOINTS: 'yes' }, 'PUSH_ALLOW_PRIVATE_ENDPOINTS'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://localhost/x', SESSION_SECRET: 'x'.repeat(40), PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' }, 'PUSH_ALLOW_PRIVATE_ENDPOINTS'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://localhost/x', SESSION_SECRET: 'x'.repeat(40), TEST_CLOCK_START: '2026-11-26T05:00:00+08:00' }, 'TEST_CLOCK_START'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://localhost/x', SESSION_SECRET: 'x'.repeat(40) }, 'SMTP_URL'],
    [{ NODE_ENV: 'production', DATABASE_URL: 'postgres://localhost/x', SESSION_SECRET: 'x'.repeat(40), SMTP_URL: 'smtp://mail.example.tw:587' }, 'PAYMENT_PROVIDER'],
    [{ PAYMENT_SIMULATOR_URL: 'ftp://x' }, 'PAYMENT_SIMULATOR_URL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ MAX_CONNECTIONS_PER_ADDRESS: '-1' }, 'MAX_CONNECTIONS_PER_ADDRESS'],
  ])('rejects %o naming %s', (env, variable) => {
    const run = () => parseConfig({ DATA_DIR: tmp(), ...env });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });
});
