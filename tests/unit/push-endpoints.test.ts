import { describe, expect, it } from 'vitest';
import { checkEndpoint, guardedLookup, isSpecialAddress } from '~/services/messaging/push.server';

const lookup = (host: string, all: boolean) =>
  new Promise<unknown>((resolve, reject) =>
    guardedLookup(host, { all }, (error: Error | null, address: unknown) => (error ? reject(error) : resolve(address))),
  );

/** Where web push may post (server-side request forgery, decision 029): public https hosts only. */
describe('push endpoints', () => {
  it.each([
    '127.0.0.1', '127.8.9.10', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc12::3', 'ff02::1', '::ffff:127.0.0.1',
    '::ffff:10.0.0.1', '::ffff:7f00:1',
  ])('refuses the special address %s', (address) => {
    expect(isSpecialAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '142.250.196.110', '172.32.0.1', '2607:f8b0:4004:800::200e', '::ffff:8.8.8.8'])('allows the public address %s', (address) => {
    expect(isSpecialAddress(address)).toBe(false);
  });

  it.each([
    'http://fcm.googleapis.com/fcm/send/x',
    'https://localhost/x',
    'https://push.localhost/x',
    'https://printer.local/x',
    'https://metadata.google.internal/x',
    'https://intranet/x',
    'https://127.0.0.1/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://169.254.169.254/x',
    'https://user:pass@fcm.googleapis.com/x',
    'javascript:alert(1)',
    '/relative',
  ])('refuses the endpoint %s', (endpoint) => {
    expect(() => checkEndpoint(endpoint)).toThrow('VALIDATION_ERROR');
  });

  it.each(['https://fcm.googleapis.com/fcm/send/abc:def', 'https://updates.push.services.mozilla.com/wpush/v2/gAAA', 'https://web.push.apple.com/QOp'])(
    'takes the push service %s',
    (endpoint) => {
      expect(checkEndpoint(endpoint).href).toBe(endpoint);
    },
  );

  it('connects only to what a name resolves to when that is public (a name pointing inside is refused at connect time)', async () => {
    await expect(lookup('localhost', false)).rejects.toMatchObject({ code: 'EPUSHADDRESS' });
    await expect(lookup('127.0.0.1', true)).rejects.toMatchObject({ code: 'EPUSHADDRESS' });
    expect(await lookup('8.8.8.8', false)).toBe('8.8.8.8');
    expect(await lookup('8.8.8.8', true)).toEqual([{ address: '8.8.8.8', family: 4 }]);
  });
});
