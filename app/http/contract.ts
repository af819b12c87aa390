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
   * JSON (or form-encoded) body. Parsed before the handler runs, after the caller is authenticated;
   * with `parseBody: 'handler'` the handler parses it itself (when the rules depend on the target).
   */
  body?: z.ZodType;
  parseBody?: 'handler';
  /** A multipart upload: field name → description (documented; the handler reads it). */
  upload?: { field: string; description: string };
  /** Status of a success (default 200). */
  status?: 200 | 201;
  /** Another success status the handler may answer with the same `data` (POST /favorites: 201 new, 200 existing). */
  alsoStatus?: 200 | 201;
  /** Schema of `data` in the success envelope. */
  data: z.ZodType;
  /** Failure codes besides the ones every route can answer (VALIDATION_ERROR for bad input, SERVER_ERROR …). */
  errors: readonly ErrorCode[];
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

/** The methods a contract answers, for Allow headers (HEAD goes with GET). */
export function allowedMethods(contract: ApiContract): string[] {
  const methods = API_METHODS.filter((m) => contract.operations[m]);
  return methods.includes('GET') ? ['GET', 'HEAD', ...methods.filter((m) => m !== 'GET')] : methods;
}
