/**
 * What an `Authorization` header offers (ARCHITECTURE §5): nothing, a bearer token, or something that is not
 * one. Only exactly `Bearer <token>` (one space, RFC 6750's token characters) is a bearer token; `Bearer a b`,
 * a bare `Bearer`, `Basic …` and any other scheme are invalid. A request whose header is invalid is not
 * authenticated at all: the session cookie is not asked instead, and the same-origin check is not skipped
 * (server/guards.ts answers such an /api call 401).
 */
export type AuthorizationHeader = { kind: 'absent' } | { kind: 'bearer'; token: string } | { kind: 'invalid' };

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

export function readAuthorization(header: string | null | undefined): AuthorizationHeader {
  if (header === null || header === undefined) return { kind: 'absent' };
  const match = BEARER.exec(header);
  return match ? { kind: 'bearer', token: match[1]! } : { kind: 'invalid' };
}
