import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '~/env.server';

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
  ])('rejects %o naming %s', (env, variable) => {
    const run = () => parseConfig({ DATA_DIR: tmp(), ...env });
    expect(run).toThrow(ConfigError);
    expect(run).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });
});
