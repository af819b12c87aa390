import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '~/lib/error-codes';
import { APP_VERSION } from '~/lib/version';
import { INPUT_SCHEMA } from '~/schemas/field-rules';
import { errorEnvelope } from '~/schemas/responses';
import { API_METHODS, NO_STORE, PRIVATE_REVALIDATE, SHARED_CACHE, allowedMethods, cachePolicyOf, type ApiContract, type ApiOperation } from './contract';

/**
 * The OpenAPI 3.1 document of /api/v1 (served at /api/v1/openapi.json), generated from the route contracts:
 * the same zod schemas that parse requests describe them here, through zod 4's JSON Schema output (draft
 * 2020-12, the dialect of OpenAPI 3.1).
 */
type JsonSchema = Record<string, unknown>;

/** The provider's side of the payment flow: ECPay's AIO protocol (docs/decisions/039), not JSON, not /api/v1. */
const PROVIDER_CALLBACKS = {
  '/payments/callback': {
    post: {
      summary: 'The payment provider’s server-to-server result (ECPay ReturnURL)',
      description:
        'A form post signed with CheckMacValue (SHA-256 over the sorted fields between HashKey and HashIV). Verified before anything is believed; ' +
        'stored once per provider event (a repeat is a no-op) and applied by the payment state machine. Answers `1|OK` (200) once stored; ' +
        '400 `0|…` for a malformed or forged post and 404 for a trade we do not know yet, so the provider sends it again.',
      requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', additionalProperties: { type: 'string' } } } } },
      responses: { '200': { description: '`1|OK`' }, '400': { description: 'not verified: nothing changed' }, '404': { description: 'unknown trade: send again later' } },
    },
  },
  '/payments/return/{orderId}': {
    post: {
      summary: 'The traveler’s browser back from the provider’s page (ECPay OrderResultURL), with the same signed result',
      description: 'Applied like the callback when it verifies (whichever arrives first wins); then 303 to /booking-success?order={orderId}, which reads our own records.',
      responses: { '303': { description: 'on to the booking’s outcome' } },
    },
  },
} as const;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    io,
    unrepresentable: 'any',
    target: 'draft-2020-12',
    // Fields that normalise what clients send (city names, language tags, price strings) describe the wider
    // input in their metadata; requests get that, answers the normalised form.
    override: ({ jsonSchema: out }) => {
      const input = out[INPUT_SCHEMA] as JsonSchema | undefined;
      if (!input) return;
      delete out[INPUT_SCHEMA];
      if (io === 'input') {
        for (const key of ['type', 'enum', 'items', 'minItems', 'minimum', 'maximum', 'exclusiveMinimum']) delete out[key];
        Object.assign(out, input);
      }
    },
  }) as JsonSchema;
  return rest;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  400: 'Bad request',
  401: 'Not logged in',
  403: 'Not allowed',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  411: 'Length required',
  413: 'Body too large',
  415: 'Unsupported media type',
  422: 'Unprocessable: the key was used for another request',
  429: 'Too many requests',
  500: 'Server error',
};

/** Failure codes any operation of this kind can answer, besides those it names. */
function implicitErrors(method: string, operation: ApiOperation): ErrorCode[] {
  const codes: ErrorCode[] = ['METHOD_NOT_ALLOWED', 'SERVER_ERROR'];
  if (operation.body || operation.query || operation.upload) codes.push('VALIDATION_ERROR');
  if (operation.body || operation.upload) codes.push('PAYLOAD_TOO_LARGE', 'LENGTH_REQUIRED');
  if (operation.body) codes.push('UNSUPPORTED_MEDIA_TYPE');
  if (operation.auth !== 'public') codes.push('UNAUTHORIZED');
  if (typeof operation.auth === 'object') codes.push('FORBIDDEN');
  if (isKeyed(method)(operation)) codes.push('IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_IN_PROGRESS', 'VALIDATION_ERROR');
  return codes;
}

/**
 * A write that takes an Idempotency-Key (docs/decisions/042): every logged-in POST, PUT, PATCH and DELETE. Public
 * writes (log in, register, reset a password) take none: there is no caller to keep an answer for.
 */
const isKeyed = (method: string) => (operation: ApiOperation) => method !== 'GET' && operation.auth !== 'public';

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the first answer is kept for 24 hours per caller, method, path and key, and the same request with the same key ' +
    'gets it again (`Idempotent-Replayed: true`) without running again. The same key with another body is 422 IDEMPOTENCY_KEY_REUSED; while ' +
    'the first is still running a repeat waits for its answer (up to about 10 s, then 409 IDEMPOTENCY_IN_PROGRESS with Retry-After). ' +
    'Other refusals (404, 409 …) are kept and replayed like a success; answers 400, 401, 403, 429 and 5xx are not: the same request with the key runs again. Use a new random key (a UUID) per write.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
} as const;

/** On every answer of a deprecated operation (docs/decisions/044). */
const DEPRECATION_HEADERS = {
  Deprecation: { description: 'RFC 9745: since when the operation is deprecated, as @<seconds since 1970>', schema: { type: 'string' } },
  Sunset: { description: 'RFC 8594: when the operation stops answering (HTTP date)', schema: { type: 'string' } },
  Link: { description: 'The successor operation, rel="successor-version"', schema: { type: 'string' } },
};
const REPLAYED_HEADER = {
  'Idempotent-Replayed': { description: '`true` when this is the kept answer of an earlier request with the same Idempotency-Key', schema: { const: 'true' } },
} as const;

function pathParameters(path: string) {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  }));
}

function queryParameters(schema: z.ZodType) {
  const json = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

/**
 * The headers of every answer of an operation that consults a rate limit (docs/decisions/041-rate-limit-headers.md):
 * the tightest limit it consulted.
 */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests the tightest limit this call consulted allows per window', schema: { type: 'integer', minimum: 1 } },
  'RateLimit-Remaining': { description: 'Requests left in that window (0: the next is refused with 429)', schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Reset': { description: 'Seconds until that window ends', schema: { type: 'integer', minimum: 1 } },
} as const;

/** A GET's success: tagged, and kept as its operation allows (docs/decisions/043-conditional-requests.md). */
function readHeaders(operation: ApiOperation) {
  const policy = cachePolicyOf(operation);
  const cacheControl =
    policy === 'shared'
      ? { schema: { enum: [SHARED_CACHE, PRIVATE_REVALIDATE] }, description: 'Public for an anonymous call; private when logged in' }
      : { schema: { const: policy === 'no-store' ? NO_STORE : PRIVATE_REVALIDATE } };
  return {
    ETag: { description: 'Weak tag of the body and its variant (language, user): send it back as If-None-Match', schema: { type: 'string' } },
    'Cache-Control': cacheControl,
    Vary: { schema: { const: 'Accept-Language, Authorization, Cookie' } },
  };
}

const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'ETags of a copy the client holds (or `*`): 304 with no body while one is current',
  schema: { type: 'string' },
};

/** `{ [name]: value }`, or nothing when the value has no keys. */
function nonEmpty(name: string, value: Record<string, unknown>) {
  return Object.keys(value).length ? { [name]: value } : {};
}

function operationObject(contract: ApiContract, method: string, operation: ApiOperation) {
  const limited = operation.errors.includes('RATE_LIMIT_EXCEEDED') ? RATE_LIMIT_HEADERS : {};
  const keyed = isKeyed(method)(operation);
  const replayed = keyed ? REPLAYED_HEADER : {};
  const sunsetting = operation.deprecated ? DEPRECATION_HEADERS : {};
  const success = (status: number) => ({
    description: STATUS_TEXT[status],
    ...(operation.produces
      ? {
          headers: {
            ...limited,
            ...replayed,
            'Cache-Control': { schema: { const: 'no-store' } },
            'Content-Disposition': { schema: { type: 'string' }, description: 'attachment; filename="<kind>-<Taiwan day>.csv"' },
          },
          content: { [operation.produces]: { schema: { ...jsonSchema(operation.data, 'output'), contentMediaType: operation.produces } } },
        }
      : jsonSuccess),
  });
  const jsonSuccess = {
    headers: {
      ...limited,
      ...replayed,
      ...sunsetting,
      ...(method === 'GET' ? readHeaders(operation) : { 'Cache-Control': { schema: { const: NO_STORE } } }),
    },
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: { success: { const: true }, data: jsonSchema(operation.data, 'output') },
          required: ['success', 'data'],
        },
      },
    },
  };
  const responses: Record<string, unknown> = { [operation.status ?? 200]: success(operation.status ?? 200) };
  if (method === 'GET' && !operation.produces) {
    const { ETag, Vary, 'Cache-Control': cacheControl } = readHeaders(operation);
    responses['304'] = { description: 'Not Modified: the If-None-Match tag is still current; no body', headers: { ETag, 'Cache-Control': cacheControl, Vary } };
  }
  if (operation.alsoStatus) responses[operation.alsoStatus] = success(operation.alsoStatus);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...operation.errors, ...implicitErrors(method, operation)])) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = {
      description: `${STATUS_TEXT[status] ?? 'Error'}: ${codes.join(', ')}`,
      ...nonEmpty('headers', {
        ...limited,
        ...(status === 429 || codes.includes('IDEMPOTENCY_IN_PROGRESS') ? { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer', minimum: 1 } } } : {}),
        ...(status === 405 ? { Allow: { schema: { type: 'string', const: allowedMethods(contract).join(', ') } } } : {}),
      }),
      content: {
        'application/json': {
          schema: {
            allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: codes } } }],
          },
        },
      },
    };
  }

  const parameters = [
    ...pathParameters(contract.path),
    ...(operation.query ? queryParameters(operation.query) : []),
    ...(method === 'GET' && !operation.produces ? [IF_NONE_MATCH] : []),
    ...(keyed ? [IDEMPOTENCY_KEY_PARAMETER] : []),
  ];
  let requestBody: unknown;
  if (operation.body) {
    const schema = jsonSchema(operation.body, 'input');
    requestBody = {
      required: true,
      content: {
        'application/json': { schema },
        'application/x-www-form-urlencoded': { schema },
        // The same fields with an optional file (POST /admin/banners): the handler reads the multipart body.
        ...(operation.upload
          ? {
              'multipart/form-data': {
                schema: {
                  allOf: [
                    schema,
                    { type: 'object', properties: { [operation.upload.field]: { type: 'string', contentMediaType: 'application/octet-stream', description: operation.upload.description } } },
                  ],
                },
              },
            }
          : {}),
      },
    };
  } else if (operation.upload) {
    requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { [operation.upload.field]: { type: 'string', contentMediaType: 'application/octet-stream', description: operation.upload.description } },
            required: [operation.upload.field],
          },
        },
      },
    };
  }

  return {
    operationId: `${method.toLowerCase()}${contract.path.replace(/^\/api\/v1/, '').replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    tags: [...contract.tags],
    security: operation.auth === 'public' ? [] : [{ bearerAuth: [] }, { cookieAuth: [] }],
    ...(typeof operation.auth === 'object' ? { 'x-roles': [...operation.auth.roles] } : {}),
    ...(operation.developmentOnly ? { 'x-development-only': true } : {}),
    ...(operation.deprecated
      ? {
          deprecated: true,
          'x-sunset': operation.deprecated.sunset,
          ...(operation.deprecated.successor ? { 'x-successor': operation.deprecated.successor } : {}),
        }
      : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

export function buildOpenApiDocument(contracts: ApiContract[], serverUrl?: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const contract of [...contracts].sort((a, b) => a.path.localeCompare(b.path))) {
    const item: Record<string, unknown> = {};
    for (const method of API_METHODS) {
      const operation = contract.operations[method];
      if (operation) item[method.toLowerCase()] = operationObject(contract, method, operation);
    }
    paths[contract.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: '旅遊助手 Travel Assistant API',
      version: APP_VERSION,
      description:
        'Every answer is the envelope `{success: true, data}` or `{success: false, code, message, errors?, requestId?}`; `message` is in the Accept-Language language (zh-TW, en, ja; zh-TW fallback). Authenticate with `Authorization: Bearer <token>` from POST /api/v1/auth/login; a browser session cookie works too, for same-origin requests only. `requestId` (also the `X-Request-Id` header of every answer; send your own sane one to trace a call) names the request in the server log. Bodies over 1 MiB (uploads 10 MiB) are refused with 413 before they are read.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    // What the payment provider posts to us (issue 32): documented for whoever configures the provider's account.
    'x-provider-callbacks': PROVIDER_CALLBACKS,
    components: {
      schemas: { Error: jsonSchema(errorEnvelope, 'output') },
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        cookieAuth: { type: 'apiKey', in: 'cookie', name: '__session' },
      },
    },
  };
}
