/**
 * What the HTTP boundary learns about a request while answering it, for the request's log line (issue 25): its id
 * (`X-Request-Id`) and the user the auth layer resolved, without a second database query.
 *
 * server/observability.ts opens a context first thing for every request and writes two headers into the incoming
 * request (overwriting whatever the client sent): `x-request-id` (the id, sane or fresh) and `x-lvyou-request` (a
 * per-process sequence number, the key of this registry). Remix copies the headers into the `Request` its loaders
 * and actions get (and into every copy of it), so the API's error envelope reads the id from the request, and
 * `getSession` (app/http/session.server.ts) records the user it resolved on the context. No AsyncLocalStorage:
 * its promise hooks would tax every await of every request.
 *
 * The registry lives on `globalThis`: build/server.js and the Remix build (build/server/index.js) each bundle
 * this module, and both must see the same contexts.
 */
import { LimitLog } from '~/services/platform/rate-limit.server';

export const REQUEST_ID_HEADER = 'x-request-id';
const CONTEXT_HEADER = 'x-lvyou-request';

export interface RequestContext {
  readonly requestId: string;
  /** The logged-in user, once the auth layer resolved the session (undefined for visitors). */
  userId?: number;
  /** The rate limits the request consulted, once a service noted one: the answer's RateLimit-* headers. */
  limits?: LimitLog;
}

interface Registry {
  next: number;
  open: Map<string, RequestContext>;
}

const KEY = Symbol.for('lvyou.request-contexts');

function registry(): Registry {
  const g = globalThis as typeof globalThis & { [KEY]?: Registry };
  return (g[KEY] ??= { next: 0, open: new Map() });
}

/**
 * Opens the context of an incoming request (its Node headers are rewritten; see the module comment). Call the
 * returned `close` when the response ends.
 */
export function openRequestContext(headers: Record<string, string | string[] | undefined>, requestId: string) {
  const r = registry();
  const key = String(++r.next);
  const context: RequestContext = { requestId };
  r.open.set(key, context);
  headers[REQUEST_ID_HEADER] = requestId;
  headers[CONTEXT_HEADER] = key;
  return { context, close: () => r.open.delete(key) };
}

/** The context of a request (or of a copy Remix made of it), while it is answered. */
export function requestContext(request: Request): RequestContext | undefined {
  const key = request.headers.get(CONTEXT_HEADER);
  return key ? registry().open.get(key) : undefined;
}

/** The request's id, for error envelopes and error pages. */
export function requestIdOf(request: Request): string | undefined {
  return request.headers.get(REQUEST_ID_HEADER) ?? undefined;
}

/** The auth layer found who is asking: the request's log line names them. */
export function noteRequestUser(request: Request, userId: number): void {
  const context = requestContext(request);
  if (context) context.userId = userId;
}

/**
 * Where the services a request calls note the limits they consult (pass it to them); the answer then carries the
 * tightest as RateLimit-Limit, -Remaining and -Reset (`rateLimitHeaders`, written by server/observability.ts
 * whatever produced the answer: the API envelope, a page, a redirect). Outside a served request, a log of its own.
 */
export function limitLog(request: Request): LimitLog {
  const context = requestContext(request);
  if (!context) return new LimitLog();
  return (context.limits ??= new LimitLog());
}

/** The RateLimit-* headers of a request that consulted a limit (docs/decisions/041-rate-limit-headers.md). */
export function rateLimitHeaders(context: RequestContext): Array<[string, string]> {
  const standing = context.limits?.tightest();
  if (!standing) return [];
  return [
    ['RateLimit-Limit', String(standing.limit)],
    ['RateLimit-Remaining', String(standing.remaining)],
    ['RateLimit-Reset', String(standing.resetSeconds)],
  ];
}

/** The headers that carry the context, for a Request built outside Remix (routes that answer before it). */
export function contextHeaders(headers: Record<string, string | string[] | undefined>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const name of [REQUEST_ID_HEADER, CONTEXT_HEADER]) {
    const value = headers[name];
    if (typeof value === 'string') out.push([name, value]);
  }
  return out;
}
