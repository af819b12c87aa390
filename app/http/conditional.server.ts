import { createHash } from 'node:crypto';
import { LOCALE_COOKIE } from '~/i18n/config';
import { NO_STORE, PRIVATE_REVALIDATE, SHARED_CACHE } from './contract';
import { SESSION_COOKIE } from './session.server';

/**
 * Conditional GETs and who may keep an answer (issue 33; docs/decisions/043-conditional-requests.md).
 *
 * The ETag is a hash of the very bytes of the answer (plus the variant it was made for: the language asked for and
 * the user), taken once the body is rendered: it cannot go stale, whatever changed underneath (a guide's profile, a
 * review, a translation). It is weak (`W/`): compression (ours, or nginx's) changes the bytes on the wire, and a
 * weak tag is all If-None-Match needs (RFC 9110 §13.1.2: weak comparison). A match answers 304 with no body; the
 * server still did the work, the client is spared the bytes and the parse.
 */

export { NO_STORE, PRIVATE_REVALIDATE, SHARED_CACHE } from './contract';

/** Bodies over this are not hashed (the cost grows with the body; such answers are files with their own handling). */
export const MAX_TAGGED_BYTES = 1 << 20;

/** The request carries a login (a bearer token or the session cookie): its answer is never public. */
export function hasCredentials(request: Request): boolean {
  if (request.headers.has('authorization')) return true;
  return (request.headers.get('cookie') ?? '').includes(`${SESSION_COOKIE}=`);
}

/** A body, or the pieces of one (a page split around its nonce). */
export type TaggedBody = Uint8Array | string | readonly string[];

/** `W/"…"`: sha1 of the variant and the body, base64url (27 characters). */
export function entityTag(body: TaggedBody, variant: string): string {
  const hash = createHash('sha1').update(variant).update('\u0000');
  if (Array.isArray(body)) for (const piece of body as readonly string[]) hash.update(piece);
  else hash.update(body as Uint8Array | string);
  return `W/"${hash.digest('base64url')}"`;
}

/**
 * If-None-Match against our tag, by weak comparison (RFC 9110 §13.1.2, §13.1.2's `*`: any current representation).
 * A list is compared item by item; a malformed item matches nothing.
 */
export function noneMatch(request: Request, tag: string): boolean {
  const header = request.headers.get('if-none-match');
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = tag.replace(/^W\//, '');
  return header.split(',').some((item) => item.trim().replace(/^W\//, '') === opaque);
}

/** What a 304 repeats of the 200 it stands for (RFC 9110 §15.4.5), plus Set-Cookie (a session that rolled). */
const KEPT_ON_304 = ['etag', 'cache-control', 'vary', 'content-location', 'expires', 'set-cookie'];

/** 304 Not Modified for an answer whose headers are `headers`: no body, no Content-Length or Content-Type. */
export function notModified(headers: Headers): Response {
  const kept = new Headers();
  for (const [name, value] of headers) if (KEPT_ON_304.includes(name)) kept.append(name, value);
  return new Response(null, { status: 304, headers: kept });
}

/** Adds names to a Vary header, once each. */
export function addVary(headers: Headers, ...names: string[]): void {
  const present = (headers.get('vary') ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const lower = new Set(present.map((v) => v.toLowerCase()));
  for (const name of names) if (!lower.has(name.toLowerCase())) present.push(name);
  headers.set('Vary', present.join(', '));
}

/**
 * Tags a rendered GET answer and answers 304 when the client already holds it. `variant`: what the answer was made
 * for besides its URL (the language, the user). Not tagged: another status, a body over MAX_TAGGED_BYTES.
 */
export function conditionalAnswer(request: Request, body: TaggedBody, headers: Headers, variant: string): Response | undefined {
  const size = typeof body === 'string' ? body.length : Array.isArray(body) ? (body as readonly string[]).reduce((n, p) => n + p.length, 0) : (body as Uint8Array).byteLength;
  if (size > MAX_TAGGED_BYTES) return undefined;
  const tag = entityTag(body, variant);
  headers.set('ETag', tag);
  return noneMatch(request, tag) ? notModified(headers) : undefined;
}

const LOCALE_IN_COOKIE = new RegExp(`(?:^|;\\s*)${LOCALE_COOKIE}=([^;]*)`);

/** The variant of an answer: the languages asked for (header and cookie) and the user, when there is one. */
export function variantOf(request: Request, userId?: number): string {
  const lng = LOCALE_IN_COOKIE.exec(request.headers.get('cookie') ?? '')?.[1] ?? '';
  return `${request.headers.get('accept-language') ?? ''}|${lng}|${userId ?? ''}`;
}

/**
 * Cache-Control of a GET answer: shared only for an anonymous request to something public, never when the answer
 * sets a cookie; `no-store` for what is sensitive; else private and revalidated.
 */
export function cacheControlFor(request: Request, headers: Headers, policy: 'shared' | 'private' | 'no-store'): string {
  if (policy === 'no-store') return NO_STORE;
  if (policy === 'shared' && !hasCredentials(request) && !headers.has('set-cookie')) return SHARED_CACHE;
  return PRIVATE_REVALIDATE;
}
