import fs from 'node:fs';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Matrix, MatrixRoute } from '../../../scripts/lib/authorization-matrix';
import type { MatrixRole } from '../../../scripts/lib/authorization-roles';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { useTestServer, type TestResponse } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';
import { as, databaseDigest, fill, seedWorld, VOLATILE_TABLES, type World } from './world';

/**
 * Issue 21, the fuzzer: for every /api/v1 operation and every page action (the routes of
 * docs/authorization-matrix.json), fast-check sends generated and broken input as a role that may call it: path
 * ids out of range or not numbers at all, query strings and bodies with the documented fields holding wrong
 * types, huge and negative numbers, impossible dates, control characters, overlong and full-width strings,
 * arrays where strings are expected, nested junk, invalid JSON and mismatched content types. It asserts: never a
 * 5xx; from /api/ always the JSON error envelope with a translated message; and when every answer of a route
 * was a refusal, no row anywhere changed. A fixed seed and FUZZ_RUNS runs per route (default 12) keep CI short;
 * `FUZZ_RUNS=300 FUZZ_SEED=$RANDOM npx vitest run tests/integration/security/fuzz.test.ts` is the longer run.
 */
useTestDatabase();
const server = useTestServer();

const matrix = JSON.parse(fs.readFileSync('docs/authorization-matrix.json', 'utf8')) as Matrix;
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
/** Take no input and end the session every later request needs; the matrix covers them. */
const NOT_FUZZED = new Set(['POST /api/v1/auth/logout', 'POST /logout']);
/** The roles tried, in order: the first the table lets through is "the right role" for a route. */
const ROLE_ORDER: MatrixRole[] = ['traveler', 'guide', 'admin', 'visitor'];
const REFUSED = new Set(['401', '403', '404', 'login']);

// ── input arbitraries ──
const nastyStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '\u0007\u001b[31m',
  '\uFEFF',
  '１２３',
  'ｔａｉｐｅｉ',
  '台北市',
  '🙂'.repeat(50),
  '<script>alert(1)</script>',
  "'; drop table users; --",
  '2026-02-30',
  '9999-99-99',
  '0000-00-00',
  '2026-11-26T25:61:00Z',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x10',
  '99999999999999999999999',
  '-2147483649',
  'morning',
  'true',
  '__proto__',
  'x'.repeat(20_000),
);
const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyStrings,
  fc.constantFrom(null, true, false, 0, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1.5, -1e308, 1e308),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer()), { maxLength: 4 }),
  fc.object({ maxDepth: 2, maxKeys: 3 }),
);
const pathId = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', 'abc', '2147483648', '99999999999999999999', '1e3', '0x1f', '%20', '%00', '１', '٣', 'null', '[]', '-0', '+7', '07'),
  fc.bigInt({ min: 2n ** 31n, max: 2n ** 70n }).map(String),
  fc.string({ minLength: 1, maxLength: 12 }).map(encodeURIComponent),
);
const PAGE_FIELDS = ['intent', 'id', 'guideId', 'orderId', 'status', 'rating', 'comment', 'date', 'timeSlot', 'numberOfPeople', 'email', 'password', 'name', 'city', 'price', 'notes', 'reviewNotes', 'code', 'redirectTo', 'locale'];
const INTENTS = ['cancel', 'confirm', 'complete', 'decline', 'delete', 'hide', 'unhide', 'approve', 'reject', 'toggle', 'add', 'remove', 'read', 'read-all', 'save', 'profile', 'password', 'email', 'block', 'unblock', 'restore'];

/** A body of documented (or page) field names holding junk, maybe with extra fields, or a root of the wrong type. */
function bodyArbitrary(fields: string[]) {
  const named = fc.dictionary(fc.constantFrom(...(fields.length ? fields : ['x'])), junkValue, { maxKeys: Math.max(fields.length, 1) });
  const withIntent = fc.record({ intent: fc.oneof(fc.constantFrom(...INTENTS), nastyStrings) }).chain((i) => named.map((n) => ({ ...n, ...i })));
  return fc.oneof(named, withIntent, fc.tuple(named, fc.object({ maxDepth: 1, maxKeys: 2 })).map(([a, b]) => ({ ...b, ...a })), junkValue);
}

const ENCODINGS = ['json', 'json-as-text', 'broken-json', 'form', 'multipart', 'none-with-type', 'xml'] as const;
type Encoding = (typeof ENCODINGS)[number];

function flat(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}

function encode(body: unknown, encoding: Encoding): { body?: BodyInit; headers: Record<string, string> } {
  const entries = body && typeof body === 'object' && !Array.isArray(body) ? Object.entries(body) : [['value', body] as const];
  switch (encoding) {
    case 'json':
      return { body: JSON.stringify(body) ?? 'null', headers: { 'content-type': 'application/json' } };
    case 'json-as-text':
      return { body: JSON.stringify(body) ?? 'null', headers: { 'content-type': 'text/plain' } };
    case 'broken-json':
      return { body: `${(JSON.stringify(body) ?? '').slice(0, -1)}\u0000{`, headers: { 'content-type': 'application/json' } };
    case 'form': {
      const params = new URLSearchParams();
      for (const [k, v] of entries) for (const one of Array.isArray(v) ? v : [v]) params.append(k, flat(one));
      return { body: params, headers: {} };
    }
    case 'multipart': {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k, new File([flat(v)], 'junk.png', { type: 'image/png' }));
      return { body: form, headers: {} };
    }
    case 'none-with-type':
      return { headers: { 'content-type': 'multipart/form-data; boundary=nothing' } };
    case 'xml':
      return { body: '<?xml version="1.0"?><a>1</a>', headers: { 'content-type': 'application/xml' } };
  }
}

function queryString(query: unknown): string {
  if (!query || typeof query !== 'object' || Array.isArray(query)) return `?q=${encodeURIComponent(flat(query))}`;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, flat(one));
  return `?${params}`;
}

/** The documented body fields and query parameters of an operation, from /api/v1/openapi.json. */
function documented(doc: any, route: MatrixRoute): { body: string[]; query: string[] } {
  const op = doc.paths[route.path]?.[route.method.toLowerCase()];
  const content = op?.requestBody?.content ?? {};
  const schema = content['application/json']?.schema ?? content['multipart/form-data']?.schema ?? {};
  return {
    body: Object.keys(schema.properties ?? {}),
    query: (op?.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name as string),
  };
}

/** A message that is a translation key left untranslated (`trust.photos.errors.tooMany`). */
const looksLikeKey = (message: string) => /^[a-z][\w-]*(\.[\w-]+)+$/.test(message);

function check(route: MatrixRoute, res: TestResponse, label: string) {
  expect(res.status, `${label} → ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500);
  // 431: Node's own answer to a URL over its 16 KiB header limit, before the app sees the request.
  if (!route.path.startsWith('/api/') || res.status < 400 || res.status === 431) return;
  expect(res.headers.get('content-type'), label).toMatch(/^application\/json/);
  expect(res.json, label).toMatchObject({ success: false, code: expect.any(String), message: expect.any(String) });
  expect(res.json.message.length, label).toBeGreaterThan(0);
  expect(looksLikeKey(res.json.message), `${label}: untranslated message ${res.json.message}`).toBe(false);
}

describe(`the fuzzer (${testDriver}; seed ${SEED}, ${RUNS} runs per route)`, () => {
  let world: World;
  let doc: any;
  beforeAll(async () => {
    world = await seedWorld();
    doc = (await server.request('/api/v1/openapi.json')).json;
  });

  const targets = matrix.routes.filter((r) => !NOT_FUZZED.has(r.key) && (r.kind === 'api' || r.method !== 'GET'));
  let sent = 0;
  const statuses: Record<number, number> = {};

  it.each(targets.map((r) => [r.key, r] as const))('%s', async (_key, route) => {
    const role = ROLE_ORDER.find((r) => !REFUSED.has(route.expect[r])) ?? 'visitor';
    const fields = route.kind === 'api' ? documented(doc, route) : { body: PAGE_FIELDS, query: [] };
    const hasId = /\{(?!splat)\w+\}/.test(route.path);
    // A body-less write the role may make (delete, block …) only ever gets broken ids: the seeded object stays.
    const brokenIdsOnly = route.expect[role] === 'skip';
    const before = route.method === 'GET' ? undefined : await databaseDigest(VOLATILE_TABLES);
    let succeeded = false;
    resetRateLimits();
    await fc.assert(
      fc.asyncProperty(
        hasId ? (brokenIdsOnly ? pathId : fc.option(pathId, { nil: undefined, freq: 2 })) : fc.constant(undefined),
        fc.option(bodyArbitrary(fields.query), { nil: undefined }),
        bodyArbitrary(fields.body),
        fc.constantFrom(...ENCODINGS),
        async (id, query, body, encoding) => {
          // Half the runs ask about the seeded object, the others about a broken id.
          let url = fill(route.url, world);
          if (id !== undefined) url = route.path.replace(/\{(?!splat)\w+\}/g, id).replace('{splat}', 'no-such-page');
          if (query !== undefined) url += (url.includes('?') ? '&' : '?') + queryString(query).slice(1);
          const init = route.method === 'GET' ? { headers: {} } : encode(body, encoding);
          const res = await server.request(url, { method: route.method, ...as(world, role, route.kind === 'api'), ...init });
          sent++;
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          // Pages answer a redirect both ways; only the API's 2xx says a write went through.
          if (route.kind === 'api' && res.status < 300 && route.method !== 'GET') succeeded = true;
          check(route, res, `${route.key} as ${role}: ${url} ${encoding} ${flat(body).slice(0, 200)}`);
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    // Refused and invalid writes change nothing (a write that some junk made succeed may have, legitimately).
    if (before && !succeeded) {
      const after = await databaseDigest(VOLATILE_TABLES);
      expect(Object.keys(before).filter((t) => before[t] !== after[t]), `${route.key}: tables changed by refused requests`).toEqual([]);
    }
  });

  it('sent every request', () => {
    console.log(`fuzzer: ${sent} requests over ${targets.length} routes (seed ${SEED}, ${RUNS} runs each); statuses ${JSON.stringify(statuses)}`);
    expect(sent).toBe(targets.length * RUNS);
  });
});
