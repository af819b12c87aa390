import fs from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildMatrix, type Matrix, type MatrixCell, type MatrixRoute } from '../../../scripts/lib/authorization-matrix';
import type { Outcome } from '../../../scripts/lib/authorization-roles';
import { manifestRoutes } from '../../../scripts/lib/route-manifest';
import { resetRateLimits } from '~/services/platform/rate-limit.server';
import { useTestServer, type TestResponse } from '../../support/http-server';
import { testDriver, useTestDatabase } from '../../support/test-database';
import { as, databaseDigest, fill, seedWorld, VOLATILE_TABLES, type World } from './world';

/**
 * Issue 21, the authorization matrix: every cell of docs/authorization-matrix.json (route × method × role ×
 * body) sent over real HTTP to one server on one seeded database, many at once. Fails when an answer differs
 * from the table, when the Remix manifest has a route the table lacks, when the table names a route that no
 * longer exists, and when any table changed (refused writes and invalid bodies change nothing). Regenerate the
 * table with `npx tsx scripts/authorization-matrix.ts` after changing scripts/authorization-policy.ts.
 */
useTestDatabase();
const server = useTestServer();

const matrix = JSON.parse(fs.readFileSync('docs/authorization-matrix.json', 'utf8')) as Matrix;
/** Tables a request touches without changing what anyone owns: sessions (last seen) and rate-limit counters. */

/** A body that no schema takes: for the API a JSON array, for forms an unknown intent and nothing else. */
function invalidBody(route: MatrixRoute) {
  return route.kind === 'api'
    ? { body: '[]', headers: { 'content-type': 'application/json' } }
    : { body: new URLSearchParams({ intent: 'not-an-intent' }) };
}

function validBody(route: MatrixRoute, world: World) {
  const valid = fill(route.valid!, world);
  return route.kind === 'api'
    ? { body: JSON.stringify(valid), headers: { 'content-type': 'application/json' } }
    : { body: new URLSearchParams(Object.entries(valid).map(([k, v]) => [k, String(v)])) };
}

function matches(expected: Outcome, res: TestResponse): boolean {
  const s = res.status;
  switch (expected) {
    case '2xx':
      return s >= 200 && s < 300;
    case '3xx':
      return s >= 300 && s < 400;
    case 'login':
      return s >= 300 && s < 400 && /^\/login(\?|$)/.test(res.headers.get('location') ?? '');
    default:
      return String(s) === expected;
  }
}

async function send(route: MatrixRoute, cell: MatrixCell, world: World): Promise<TestResponse> {
  const url = fill(route.url, world);
  const init = cell.body === 'none' ? {} : cell.body === 'valid' ? validBody(route, world) : invalidBody(route);
  return server.request(url, { method: route.method, ...as(world, cell.role, route.kind === 'api' || route.path.startsWith('/api/')), ...init });
}

/** Runs `work` over `items` with at most `limit` at a time. */
async function pool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

describe(`the authorization matrix (${testDriver})`, () => {
  let world: World;
  beforeAll(async () => {
    world = await seedWorld();
  });

  it('lists exactly the routes and methods the Remix manifest serves', () => {
    const served = manifestRoutes(server.build).flatMap((r) => r.methods.map((m) => `${m} ${r.path}`));
    const listed = matrix.routes.map((r) => r.key);
    expect(served.filter((k) => !listed.includes(k)), 'routes missing from docs/authorization-matrix.json').toEqual([]);
    expect(listed.filter((k) => !served.includes(k)), 'routes in the table that no longer exist').toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('is what scripts/authorization-matrix.ts makes of the manifest and the policy today (regenerate it when this fails)', () => {
    expect(JSON.parse(JSON.stringify(buildMatrix(manifestRoutes(server.build))))).toEqual(matrix);
  });

  it(`answers every cell as the table says and changes nothing (${matrix.cells.length} cells)`, async () => {
    resetRateLimits();
    const routes = new Map(matrix.routes.map((r) => [r.key, r]));
    const before = await databaseDigest(VOLATILE_TABLES);
    expect(Object.keys(before).length).toBeGreaterThan(15);
    const driven = matrix.cells.filter((c) => c.expect !== 'skip');
    const answers = await pool(driven, 8, async (cell) => ({ cell, res: await send(routes.get(cell.key)!, cell, world) }));
    const wrong = answers
      .filter(({ cell, res }) => !matches(cell.expect, res))
      .map(({ cell, res }) => `${cell.key} as ${cell.role} (${cell.body} body): expected ${cell.expect}, got ${res.status} ${res.headers.get('location') ?? ''} ${res.text.slice(0, 120).replace(/\s+/g, ' ')}`);
    if (process.env.MATRIX_DUMP) {
      fs.writeFileSync(
        process.env.MATRIX_DUMP,
        answers.filter(({ cell, res }) => !matches(cell.expect, res)).map(({ cell, res }) => `${cell.key}\t${cell.role}\t${cell.body}\t${cell.expect}\t${res.status} ${res.headers.get('location') ?? ''}\t${res.text.slice(0, 100).replace(/\s+/g, ' ')}`).join('\n'),
      );
    }
    expect(wrong, `${wrong.length} of ${driven.length} cells differ`).toEqual([]);
    const after = await databaseDigest(VOLATILE_TABLES);
    const changed = Object.keys(before).filter((t) => before[t] !== after[t]);
    expect(changed, 'tables changed by refused or invalid requests').toEqual([]);
  }, 120_000);
});
