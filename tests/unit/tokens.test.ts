import { describe, expect, it } from 'vitest';
import { signToken, verifyToken } from '~/services/accounts/tokens.server';

const SECRET = 'unit-test-secret-0123456789abcdef0123456789';
const payload = { id: 1, email: 'a@example.test', type: 'traveler' as const, isEmailVerified: true, isIdVerified: false, sid: 'session-1' };

describe('bearer tokens', () => {
  it('accepts the token as written and refuses any other spelling of its signature', () => {
    const token = signToken(payload, new Date(Date.now() + 60_000), SECRET);
    expect(verifyToken(token, SECRET)?.sid).toBe('session-1');
    const [header, body, signature] = token.split('.') as [string, string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    // Every other last character, including those that decode to the same bytes (unused low bits).
    for (const c of alphabet) {
      if (c === signature.at(-1)) continue;
      expect(verifyToken(`${header}.${body}.${signature.slice(0, -1)}${c}`, SECRET), c).toBeUndefined();
    }
    // Characters a lenient decoder would skip.
    expect(verifyToken(`${header}.${body}.${signature}=`, SECRET)).toBeUndefined();
    expect(verifyToken(`${header}.${body}.${signature.slice(0, 10)}!${signature.slice(10)}`, SECRET)).toBeUndefined();
    expect(verifyToken(token, 'another-secret-0123456789abcdef0123456789')).toBeUndefined();
  });
});
