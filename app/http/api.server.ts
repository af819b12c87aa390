import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import type { z } from 'zod';
import { getFixedT } from '~/i18n/i18n.server';
import { FALLBACK_LOCALE, matchLocale, type Locale } from '~/i18n/config';
import { AppError, parseValue, type FieldErrorKeys } from '~/services/platform/errors.server';
import type { ActiveSession } from '~/services/accounts/sessions.server';
import { requireApiRole, requireApiSession } from './session.server';
import { isFormType, mediaType, readFormBody } from './body.server';
import { allowedMethods, cachePolicyOf, deprecationHeaders, NO_STORE, type ApiContract, type ApiMethod, type ApiOperation } from './contract';
import { logServerError } from './errors.server';
import { requestIdOf } from './request-context.server';
import { requireDebugApiAccess } from './debug.server';
import { addVary, cacheControlFor, conditionalAnswer, variantOf } from './conditional.server';
import {
  checkIdempotencyKey,
  completeIdempotencyKey,
  releaseIdempotencyKey,
  requestHash,
  reserveIdempotencyKey,
  type Reservation,
  type StoredAnswer,
} from '~/services/platform/idempotency.server';

/**
 * The JSON envelope of ARCHITECTURE §5 for /api/v1 resource routes:
 * success `{ success: true, data }`, failure `{ success: false, code, message, errors?, requestId? }` (and a code's own
 * facts: `orderId` of ALREADY_BOOKED), with the
 * message in the language of Accept-Language (zh-TW fallback); `requestId` is the answer's `X-Request-Id`, the
 * key to its log line (app/http/request-context.server.ts). Every answer is a real `Response` (Remix's `data()`
 * loses status and headers in resource routes under single fetch). Writes and failures are never cached
 * (`no-store`: API answers carry tokens and private data); a GET's success carries an ETag and the Cache-Control
 * of its operation (`readAnswer`, docs/decisions/043-conditional-requests.md).
 *
 * A route module exports a contract (app/http/contract.ts) and `apiHandlers(contract, { GET, POST … })`
 * as its loader and action; the dispatcher authenticates, parses query and body with the contract's
 * schemas, runs the handler and writes the envelope. A method the contract does not name answers 405. A logged-in
 * write with an `Idempotency-Key` header runs once: the same request again replays the first answer
 * (docs/decisions/042).
 */


export function apiLocale(request: Request): Locale {
  for (const part of (request.headers.get('accept-language') ?? '').split(',')) {
    const match = matchLocale(part.split(';')[0]);
    if (match) return match;
  }
  return FALLBACK_LOCALE;
}

const utf8 = new TextEncoder();

function jsonResponse(body: unknown, status: number, headers?: HeadersInit): Response {
  return bytesResponse(utf8.encode(JSON.stringify(body)), status, new Headers(headers));
}

function bytesResponse(bytes: Uint8Array<ArrayBuffer>, status: number, h: Headers): Response {
  h.set('Content-Type', 'application/json; charset=utf-8');
  if (!h.has('Cache-Control')) h.set('Cache-Control', NO_STORE);
  // With its length known, an answer under 1 KiB is sent as it is: gzip costs more than it saves there (a booking's
  // answer spent about 7 % of the server's time in zlib, bench/booking.mjs), and larger ones are still compressed.
  h.set('Content-Length', String(bytes.byteLength));
  return new Response(bytes, { status, headers: h });
}

/** A success envelope: `{ success: true, data }` with the given status (200 unless told). */
export function ok<T>(payload: T, init?: { status?: number; headers?: HeadersInit }): Response {
  return jsonResponse({ success: true, data: payload }, init?.status ?? 200, init?.headers);
}

/**
 * The success of a GET (and HEAD): tagged with a hash of its bytes, 304 when the client holds them already, kept
 * by a shared cache only when the operation is the public catalogue and the caller anonymous.
 */
function readAnswer(request: Request, operation: ApiOperation, session: ActiveSession | undefined, payload: unknown): Response {
  const bytes = utf8.encode(JSON.stringify({ success: true, data: payload }));
  const headers = new Headers();
  headers.set('Cache-Control', cacheControlFor(request, headers, cachePolicyOf(operation)));
  // The language (Accept-Language or the language cookie) and the login (token or cookie) make the answer.
  addVary(headers, 'Accept-Language', 'Authorization', 'Cookie');
  return conditionalAnswer(request, bytes, headers, variantOf(request, session?.user.id)) ?? bytesResponse(bytes, operation.status ?? 200, headers);
}

/** Translates field error keys (validation.*) into messages. */
export async function translateFieldErrors(fieldErrors: FieldErrorKeys, locale: Locale) {
  const t = await getFixedT(locale);
  return Object.fromEntries(Object.entries(fieldErrors).map(([field, keys]) => [field, keys.map((k) => t(k))]));
}

/** The failure answer for any error: AppError keeps its code; anything else is logged and becomes 500. */
export async function errorResponse(error: unknown, request: Request, headers?: HeadersInit): Promise<Response> {
  const locale = apiLocale(request);
  const t = await getFixedT(locale);
  if (error instanceof AppError) {
    const h = new Headers(headers);
    if (error.retryAfter) h.set('Retry-After', String(Math.max(1, Math.ceil(error.retryAfter))));
    const body = {
      success: false as const,
      code: error.code,
      message: t(error.messageKey, error.params),
      ...(error.fieldErrors ? { errors: await translateFieldErrors(error.fieldErrors, locale) } : {}),
      ...error.details,
      ...withRequestId(request),
    };
    return jsonResponse(body, error.status, h);
  }
  logServerError(error, request);
  return jsonResponse({ success: false, code: 'SERVER_ERROR', message: t('errors.codes.SERVER_ERROR'), ...withRequestId(request) }, 500, headers);
}

/** `{ requestId }` when the request has one (every request through server/app.ts does). */
function withRequestId(request: Request): { requestId?: string } {
  const requestId = requestIdOf(request);
  return requestId ? { requestId } : {};
}

/** The answer to a method the route does not have: 405 with Allow, in the envelope. */
export function methodNotAllowed(request: Request, allow: string[]): Promise<Response> {
  return errorResponse(new AppError('METHOD_NOT_ALLOWED'), request, { Allow: allow.join(', ') });
}

type RouteArgs = LoaderFunctionArgs | ActionFunctionArgs;

export interface HandlerArgs<Op extends ApiOperation> {
  request: Request;
  params: RouteArgs['params'];
  context: RouteArgs['context'];
  /** The caller's session; undefined only on public operations. */
  session: Op['auth'] extends 'public' ? ActiveSession | undefined : ActiveSession;
  query: Op['query'] extends z.ZodType ? z.output<Op['query']> : undefined;
  body: Op['body'] extends z.ZodType ? z.output<Op['body']> : undefined;
}

/**
 * A write on one object (`/users/{id}` …): `authorize` resolves the object and decides whether the caller may
 * touch it before the body is read, so a caller who may not gets 403 (or 404) whatever the body, and learns
 * nothing from its field errors. `body` picks the rules when they depend on the object (the kind of account
 * edited); `current` makes the write an update: a field absent from the body keeps the object's value, a field
 * present is validated (together with the kept ones, by the same schema).
 */
export interface GuardedHandler<Op extends ApiOperation, Target> {
  authorize: (args: Omit<HandlerArgs<Op>, 'body'>) => Promise<Target>;
  body?: (target: Target) => z.ZodType;
  current?: (target: Target) => Record<string, unknown>;
  handle: (args: HandlerArgs<Op> & { target: Target }) => Promise<unknown>;
}

// The target's type is the route's to name (a mapped type cannot infer it per method).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler<Op extends ApiOperation> = ((args: HandlerArgs<Op>) => Promise<unknown>) | GuardedHandler<Op, any>;

type Handlers<C extends ApiContract> = {
  [M in keyof C['operations'] & ApiMethod]: Handler<NonNullable<C['operations'][M]>>;
};

/**
 * The loader and action of an /api/v1 resource route. A handler returns the success `data` (sent with the
 * operation's status) or a Response of its own; it throws AppError for failures.
 */
export function apiHandlers<C extends ApiContract>(contract: C, handlers: Handlers<C>) {
  const allow = allowedMethods(contract);
  const run = async (args: RouteArgs): Promise<Response> => {
    const method = (args.request.method.toUpperCase() === 'HEAD' ? 'GET' : args.request.method.toUpperCase()) as ApiMethod;
    const operation = contract.operations[method];
    const handler = (handlers as Record<string, Handler<ApiOperation> | undefined>)[method];
    if (!operation || !handler) return methodNotAllowed(args.request, allow);
    let reserved: number | undefined;
    let response: Response;
    try {
      const session = await authenticate(args.request, operation);
      // A keyed write (docs/decisions/042): after authentication (a key never lets anyone in), before the object's
      // authorization and the body's validation, so a repeated DELETE replays its answer instead of a 404.
      const keyed = session && method !== 'GET' ? await reserveKey(args.request, method, session) : undefined;
      if (keyed?.kind === 'replay') return announced(operation, replayedResponse(keyed.answer));
      reserved = keyed?.id;
      const query = operation.query ? parseValue(operation.query, entriesObject(new URL(args.request.url).searchParams)) : undefined;
      const base = { request: args.request, params: args.params, context: args.context, session, query };
      let result: unknown;
      // A multipart post to an operation with an upload is the handler's to read (its file and fields together).
      const handlerReadsBody = operation.upload !== undefined && mediaType(args.request) === 'multipart/form-data';
      if (typeof handler === 'function') {
        const body = operation.body && !handlerReadsBody ? await parseBody(args.request, operation.body) : undefined;
        result = await handler({ ...base, body } as HandlerArgs<ApiOperation>);
      } else {
        // Who may touch the object first (403/404), only then what the body says (400).
        const target = await handler.authorize(base as HandlerArgs<ApiOperation>);
        const schema = handler.body?.(target) ?? operation.body;
        const body = schema && !handlerReadsBody ? await parseBody(args.request, schema, handler.current?.(target)) : undefined;
        result = await handler.handle({ ...base, body, target } as HandlerArgs<ApiOperation> & { target: unknown });
      }
      response =
        result instanceof Response
          ? result
          : method === 'GET'
            ? readAnswer(args.request, operation, session, result)
            : ok(result, { status: operation.status ?? 200 });
    } catch (error) {
      response = error instanceof Response ? error : await errorResponse(error, args.request);
    }
    if (reserved !== undefined) await settleKey(reserved, response, args.request);
    return announced(operation, response);
  };
  return { loader: (args: LoaderFunctionArgs) => run(args), action: (args: ActionFunctionArgs) => run(args) };
}

/** Every answer of a deprecated operation says so (docs/decisions/044). */
function announced(operation: ApiOperation, response: Response): Response {
  if (operation.deprecated) for (const [name, value] of Object.entries(deprecationHeaders(operation.deprecated))) response.headers.set(name, value);
  return response;
}

/** The header of a keyed write: 1–255 visible ASCII characters (docs/decisions/042). */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * Reserves the request's Idempotency-Key (or finds the answer to replay). The scope is the caller, method, path
 * with its search and the key; the hash covers the body's bytes and its media type. No key, no reservation.
 */
async function reserveKey(request: Request, method: string, session: ActiveSession): Promise<Reservation | undefined> {
  const key = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null) return undefined;
  checkIdempotencyKey(key, IDEMPOTENCY_KEY_HEADER);
  const url = new URL(request.url);
  const body = new Uint8Array(await request.clone().arrayBuffer());
  const hash = requestHash(mediaType(request), body);
  return reserveIdempotencyKey({ userId: session.user.id, method, path: url.pathname + url.search, key }, hash);
}

/**
 * Answers that are not kept, so the same request with its key runs again: server errors, and refusals that say
 * "not now" or "not like this" rather than what the write came to: an invalid body (the client fixes it and
 * sends it again with the same key), not logged in or not allowed (which can change), and rate limits.
 */
const RELEASED_STATUSES = new Set([400, 401, 403, 429]);
/** The headers a replay repeats; the rest (rate limits, request id) belong to the answer they were sent with. */
const REPLAYED_HEADERS = ['content-type', 'location'];

async function settleKey(id: number, response: Response, request: Request): Promise<void> {
  try {
    if (response.status >= 500 || RELEASED_STATUSES.has(response.status)) {
      await releaseIdempotencyKey(id);
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = response.headers.get(name);
      if (value !== null) headers[name] = value;
    }
    await completeIdempotencyKey(id, { status: response.status, body: await response.clone().text(), headers });
  } catch (error) {
    // The write itself is done and answered; its key stays 'running' until the lease lets a retry take it over.
    logServerError(error, request);
  }
}

/** The first answer again, marked as a replay: nothing ran this time. */
function replayedResponse(answer: StoredAnswer): Response {
  const h = new Headers(answer.headers);
  h.set('Idempotent-Replayed', 'true');
  h.set('Cache-Control', NO_STORE);
  const bytes = utf8.encode(answer.body);
  h.set('Content-Length', String(bytes.byteLength));
  return new Response(bytes, { status: answer.status, headers: h });
}

async function authenticate(request: Request, operation: ApiOperation): Promise<ActiveSession | undefined> {
  // Before anything else: in production a debug call does not exist for anyone but an admin.
  if (operation.developmentOnly) await requireDebugApiAccess(request);
  if (operation.auth === 'public') return undefined;
  if (operation.auth === 'user') return requireApiSession(request);
  return requireApiRole(request, ...operation.auth.roles);
}

/**
 * Reads a JSON (or form-encoded) body and checks it with a shared schema. Malformed JSON, a form that cannot
 * be read (a broken multipart boundary), a NUL byte in any value and a bad value are 400 VALIDATION_ERROR; another content type is 415. (Size is limited before
 * the body is read, in server/app.ts.)
 */
export async function parseBody<S extends z.ZodType>(request: Request, schema: S, current?: Record<string, unknown>): Promise<z.infer<S>> {
  const type = mediaType(request);
  let body: unknown;
  if (isFormType(type)) {
    body = entriesObject(await readFormBody(request));
  } else if (type === '' || type === 'application/json' || type.endsWith('+json')) {
    const text = await request.text();
    try {
      body = text.trim() ? JSON.parse(text) : {};
    } catch {
      throw new AppError('VALIDATION_ERROR', { fieldErrors: { _body: ['validation.malformedJson'] } });
    }
  } else {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE');
  }
  const nulField = findNulByte(body);
  if (nulField !== undefined) throw new AppError('VALIDATION_ERROR', { fieldErrors: { [nulField || '_body']: ['validation.invalid'] } });
  // An update: what the body leaves out keeps its current value (a body that is not an object is refused as it is).
  if (current && body && typeof body === 'object' && !Array.isArray(body)) body = { ...current, ...body };
  return parseValue(schema, body);
}

/** The path of the first string holding U+0000 (PostgreSQL text cannot store it), or undefined. */
function findNulByte(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) {
      const found = findNulByte(v, path ? `${path}.${i}` : String(i));
      if (found !== undefined) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.includes('\u0000')) return path || '_body';
      const found = findNulByte(v, path ? `${path}.${k}` : k);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Name/value pairs (search params, a form body) as an object; a repeated name (ticked checkboxes,
 * `?language=zh&language=en`) becomes an array of its values.
 */
function entriesObject<V>(entries: Iterable<[string, V]>): Record<string, V | V[]> {
  const values: Record<string, V | V[]> = {};
  for (const [key, value] of entries) {
    const previous = values[key];
    values[key] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return values;
}
