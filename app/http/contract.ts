import type { z } from 'zod';
import type { ErrorCode } from '~/lib/error-codes';

/**
 * What an /api/v1 resource route promises: per HTTP method, who may call it, the query and body it reads
 * (the same zod schemas the web forms use), the data of a success and the failure codes. Each route module
 * exports its contract next to its handlers; the handlers are dispatched from it (app/http/api.server.ts),
 * and /api/v1/openapi.json is generated from every contract, so the document cannot describe a route that
 * is not there or miss one that is (tests/integration/http/openapi.test.ts).
 *
 * This module is pure (no server imports) because route modules keep the contract in the browser build.
 */
export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type ApiMethod = (typeof API_METHODS)[number];

/** Who may call: anyone, any logged-in account (bearer token or same-origin cookie), or these roles. */
export type ApiAuth = 'public' | 'user' | { roles: ReadonlyArray<'traveler' | 'guide' | 'admin'> };

export interface ApiOperation {
  summary: string;
  description?: string;
  auth: ApiAuth;
  /** Search parameters, parsed before the handler runs (400 VALIDATION_ERROR names the field). */
  query?: z.ZodType;
  /**
   * JSON (or form-encoded) body. Parsed before the handler runs, after the caller is authenticated and, for a
   * write on one object, after `authorize` has decided they may touch it (app/http/api.server.ts GuardedHandler).
   */
  body?: z.ZodType;
  /**
   * A multipart upload: field name → description (documented; the handler reads it). With `body` too, a JSON or
   * urlencoded post is parsed as usual, and a multipart one (the file with the body's fields) is left to the handler.
   */
  upload?: { field: string; description: string };
  /** Status of a success (default 200). */
  status?: 200 | 201;
  /** Another success status the handler may answer with the same `data` (POST /favorites: 201 new, 200 existing). */
  alsoStatus?: 200 | 201;
  /** Schema of `data` in the success envelope (of the file's text when `produces` names a file type). */
  data: z.ZodType;
  /** A success that is a file, not the JSON envelope (the CSV exports: the handler answers its own Response). */
  produces?: 'text/csv';
  /** Failure codes besides the ones every route can answer (VALIDATION_ERROR for bad input, SERVER_ERROR …). */
  errors: readonly ErrorCode[];
  /**
   * A debug call (SPEC §7 Dev, docs/decisions/030-debug-routes.md): outside production `auth` applies; in
   * production everyone but an admin, logged in or not, gets 404. Documented as `x-development-only`.
   */
  developmentOnly?: true;
  /**
   * Who may keep a GET's answer (docs/decisions/043-conditional-requests.md). `shared`: the public catalogue, which a
   * shared cache may keep a minute when asked anonymously. `no-store`: never kept (accounts, money); admin calls
   * always are. Otherwise: private, revalidated with If-None-Match.
   */
  cache?: 'shared' | 'no-store';
  /**
   * An operation on its way out (docs/decisions/044-api-versioning.md): every answer carries `Deprecation` (RFC 9745,
   * from `since`), `Sunset` (RFC 8594, when it stops answering) and a `Link` to its successor; the OpenAPI document
   * marks it `deprecated`. Dates are ISO days (UTC midnight).
   */
  deprecated?: { since: string; sunset: string; successor?: string };
}

export interface ApiContract {
  /** The public path in OpenAPI form: /api/v1/users/{id}. */
  path: string;
  tags: readonly string[];
  operations: Partial<Record<ApiMethod, ApiOperation>>;
}

export function defineApi<const C extends ApiContract>(contract: C): C {
  return contract;
}

/** Anonymous answers of the public catalogue: a shared cache may keep them a minute, and serve them stale for five
 * more while it asks again (docs/decisions/043-conditional-requests.md). */
export const SHARED_CACHE = 'public, max-age=60, stale-while-revalidate=300';
/** Someone's own answer: only their browser may keep it, and must ask each time (If-None-Match then saves the body). */
export const PRIVATE_REVALIDATE = 'private, no-cache';
/** Never kept anywhere (tokens, accounts, money, admin views, every write and failure). */
export const NO_STORE = 'no-store';

/** How a GET's success may be kept: `shared` for the public catalogue, `no-store` for the sensitive and admin calls. */
export function cachePolicyOf(operation: ApiOperation): 'shared' | 'private' | 'no-store' {
  if (operation.cache === 'no-store' || (typeof operation.auth === 'object' && operation.auth.roles.includes('admin'))) return 'no-store';
  return operation.cache === 'shared' ? 'shared' : 'private';
}

/** A page route's `handle.cache`: `shared` for the public catalogue pages (/guides, /guides/{id}). */
export interface PageCacheHandle {
  cache?: 'shared';
}

/** The methods a contract answers, for Allow headers (HEAD goes with GET). */
export function allowedMethods(contract: ApiContract): string[] {
  const methods = API_METHODS.filter((m) => contract.operations[m]);
  return methods.includes('GET') ? ['GET', 'HEAD', ...methods.filter((m) => m !== 'GET')] : methods;
}

/** The response headers of a deprecated operation (RFC 9745 Deprecation as a structured date, RFC 8594 Sunset). */
export function deprecationHeaders(deprecated: NonNullable<ApiOperation['deprecated']>): Record<string, string> {
  const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
  return {
    Deprecation: `@${Math.floor(day(deprecated.since).getTime() / 1000)}`,
    Sunset: day(deprecated.sunset).toUTCString(),
    ...(deprecated.successor ? { Link: `<${deprecated.successor}>; rel="successor-version"` } : {}),
  };
}
