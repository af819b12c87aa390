import crypto from 'node:crypto';
import { getConfig } from '~/env.server';
import type { AccountType } from '~/lib/account-types';

/**
 * Bearer tokens for /api/v1 (ARCHITECTURE §5): an HS256 JWT signed with SESSION_SECRET. The payload tells
 * the client who it is; the server trusts only `sid`, looked up in the sessions table on every call, so
 * revoking the session (logout, block) kills the token even before it expires.
 */
export interface TokenPayload {
  id: number;
  email: string;
  type: AccountType;
  isEmailVerified: boolean;
  isIdVerified: boolean;
  sid: string;
  jti: string;
  iat: number;
  exp: number;
}

const b64url = (input: Buffer | string) => Buffer.from(input).toString('base64url');
const HEADER = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

function signature(data: string, secret: string) {
  return crypto.createHmac('sha256', secret).update(data).digest();
}

export function signToken(
  claims: Omit<TokenPayload, 'iat' | 'exp' | 'jti'>,
  expiresAt: Date,
  secret = getConfig().SESSION_SECRET,
): string {
  const payload: TokenPayload = {
    ...claims,
    jti: claims.sid,
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(expiresAt.getTime() / 1000),
  };
  const body = `${HEADER}.${b64url(JSON.stringify(payload))}`;
  return `${body}.${b64url(signature(body, secret))}`;
}

/** The payload of a well-formed, correctly signed, unexpired token; otherwise undefined. */
export function verifyToken(token: string, secret = getConfig().SESSION_SECRET): TokenPayload | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== HEADER) return undefined;
  // The encoded signatures are compared, not the decoded bytes: base64url's last character carries unused
  // bits and Node's decoder skips stray characters, so several spellings decode alike. Only the one the
  // server wrote is accepted.
  const expected = Buffer.from(b64url(signature(`${parts[0]}.${parts[1]}`, secret)));
  const given = Buffer.from(parts[2]!);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as TokenPayload;
    if (typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return undefined;
    if (payload.exp * 1000 <= Date.now()) return undefined;
    return payload;
  } catch {
    return undefined;
  }
}
