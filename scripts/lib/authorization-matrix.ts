import type { ApiContract, ApiMethod } from '~/http/contract';
import { ROUTE_POLICY, type RoutePolicy } from '../authorization-policy';
import { MATRIX_ROLES, ROLE_MEANING, type MatrixRole, type Outcome } from './authorization-roles';

/*
 * The authorization matrix (issue 21): every route × method × role with the outcome expected, built from the
 * route manifest, the /api/v1 contracts and the hand-kept policy (scripts/authorization-policy.ts). Pure: the
 * script (scripts/authorization-matrix.ts) writes it, the test (tests/integration/security/) drives it.
 */

export type Body = 'none' | 'valid' | 'invalid';

export interface ManifestRoute {
  id: string;
  /** The path with {param}s as in OpenAPI. */
  path: string;
  kind: 'api' | 'page' | 'resource';
  methods: readonly ApiMethod[];
  contract?: ApiContract;
}

export interface MatrixRoute {
  key: string;
  routeId: string;
  kind: ManifestRoute['kind'];
  method: ApiMethod;
  path: string;
  /** The URL asked, with world fixtures in braces: /api/v1/orders/{order}. */
  url: string;
  /** Who the contract lets in (API) or the policy's note (pages). */
  auth: string;
  write: boolean;
  /** A well-formed body (JSON for the API, form fields for pages; fixtures in braces), sent by refused roles. */
  valid?: Record<string, unknown>;
  expect: Record<MatrixRole, Outcome>;
  /** Known deviation (issue 21): these refused roles get 400 for an invalid body, the body being read before the object check. */
  validatesFirst?: MatrixRole[];
  note?: string;
}

export interface MatrixCell {
  key: string;
  role: MatrixRole;
  body: Body;
  expect: Outcome;
}

export interface Matrix {
  roles: readonly MatrixRole[];
  routes: MatrixRoute[];
  cells: MatrixCell[];
}

/** Which world fixture fills a path parameter, by the resource it names. */
function fixtureUrl(path: string): string {
  return path
    .replace(/\/orders\/\{id\}/, '/orders/{order}')
    .replace(/\/(users|travelers)\/\{id\}/, '/$1/{traveler}')
    .replace(/\/guides?\/\{id\}/, (m) => m.replace('{id}', '{guide}'))
    .replace('/booking/{guideId}', '/booking/{guide}')
    .replace('/notifications/{id}', '/notifications/{notification}')
    .replace('/favorites/{id}', '/favorites/{favorite}')
    .replace('/photos/{id}', '/photos/{photo}')
    .replace('/reviews/{id}', '/reviews/{review}')
    .replace('/id-verifications/{id}', '/id-verifications/{application}')
    .replace('/documents/{id}/{side}', '/documents/{application}/front')
    .replace(/\/chats?\/\{(id|chatId)\}/, (m) => m.replace(/\{\w+\}/, '{chat}'))
    .replace('/messages/{id}', '/messages/{message}')
    .replace('/board/posts/{id}', '/board/posts/{post}')
    .replace('/banners/{id}', '/banners/{banner}')
    .replace('/board/replies/{id}', '/board/replies/{reply}')
    .replace('/board/{postId}', '/board/{post}')
    .replace('{splat}', 'no-such-page');
}

const LOGGED_IN: MatrixRole[] = ['traveler', 'otherTraveler', 'guide', 'otherGuide', 'admin'];

/** The default a contract implies: public for all, `user` for any session, roles for those roles. */
function contractDefaults(auth: ApiContract['operations'][ApiMethod] extends infer O ? (O extends { auth: infer A } ? A : never) : never) {
  const allowed = new Set<MatrixRole>(
    auth === 'public'
      ? MATRIX_ROLES
      : auth === 'user'
        ? LOGGED_IN
        : LOGGED_IN.filter((r) => auth.roles.includes(r === 'otherTraveler' ? 'traveler' : r === 'otherGuide' ? 'guide' : (r as 'traveler' | 'guide' | 'admin'))),
  );
  return allowed;
}

export function buildMatrix(manifest: readonly ManifestRoute[]): Matrix {
  const routes: MatrixRoute[] = [];
  const missing: string[] = [];
  const used = new Set<string>();
  for (const route of manifest) {
    for (const method of route.methods) {
      const key = `${method} ${route.path}`;
      const policy: RoutePolicy | undefined = ROUTE_POLICY[key];
      if (!policy) {
        missing.push(key);
        continue;
      }
      used.add(key);
      const write = method !== 'GET';
      const operation = route.contract?.operations[method];
      let allowed: Set<MatrixRole>;
      if (policy.allow) allowed = new Set(policy.allow === 'all' ? MATRIX_ROLES : policy.allow === 'users' ? LOGGED_IN : policy.allow);
      else if (operation) allowed = contractDefaults(operation.auth);
      else throw new Error(`${key}: a page policy names who is allowed`);
      const isApi = route.kind === 'api';
      const expect = {} as Record<MatrixRole, Outcome>;
      for (const role of MATRIX_ROLES) {
        let outcome: Outcome;
        if (allowed.has(role)) outcome = !write ? '2xx' : policy.mutates ? 'skip' : '400';
        else if (role === 'visitor' || role === 'blocked') outcome = isApi ? '401' : 'login';
        else outcome = policy.denied ?? '403';
        expect[role] = policy.outcomes?.[role] ?? outcome;
      }
      routes.push({
        key,
        routeId: route.id,
        kind: route.kind,
        method,
        path: route.path,
        url: policy.url ?? fixtureUrl(route.path),
        auth: operation ? (typeof operation.auth === 'string' ? operation.auth : operation.auth.roles.join(', ')) : (policy.who ?? ''),
        write,
        ...(policy.valid ? { valid: policy.valid } : {}),
        expect,
        ...(policy.validatesFirst ? { validatesFirst: [...policy.validatesFirst] } : {}),
        ...(policy.note ? { note: policy.note } : {}),
      });
    }
  }
  const stale = Object.keys(ROUTE_POLICY).filter((key) => !used.has(key));
  if (missing.length || stale.length) {
    throw new Error(
      [
        missing.length ? `Routes without a policy (add them to scripts/authorization-policy.ts):\n  ${missing.join('\n  ')}` : '',
        stale.length ? `Policies for routes that no longer exist (remove them):\n  ${stale.join('\n  ')}` : '',
      ].join('\n'),
    );
  }
  const cells: MatrixCell[] = [];
  for (const route of routes) {
    for (const role of MATRIX_ROLES) {
      const expected = route.expect[role];
      if (!route.write) cells.push({ key: route.key, role, body: 'none', expect: expected });
      else if (expected === 'skip') cells.push({ key: route.key, role, body: 'none', expect: 'skip' });
      else {
        const refused = ['401', '403', '404', 'login'].includes(expected);
        if (refused && route.valid) cells.push({ key: route.key, role, body: 'valid', expect: expected });
        cells.push({ key: route.key, role, body: 'invalid', expect: route.validatesFirst?.includes(role) ? '400' : expected });
      }
    }
  }
  return { roles: MATRIX_ROLES, routes, cells };
}

const SHOW: Record<Outcome, string> = {
  '2xx': '2xx',
  '3xx': '3xx',
  login: '→ login',
  '400': '400',
  '401': '401',
  '403': '**403**',
  '404': '**404**',
  '405': '405',
  '409': '409',
  '415': '415',
  skip: 'ok (not sent)',
};

export function matrixMarkdown(matrix: Matrix): string {
  const driven = matrix.cells.filter((c) => c.expect !== 'skip').length;
  const lines = [
    '# Authorization matrix',
    '',
    'Generated by `npx tsx scripts/authorization-matrix.ts` from the Remix route manifest, the /api/v1 contracts and',
    '`scripts/authorization-policy.ts`; do not edit by hand. `tests/integration/security/authorization-matrix.test.ts`',
    'sends every cell over HTTP against a seeded database and fails when an answer differs, when a route is missing',
    'from the table or when the table names a route that no longer exists (decision 019).',
    '',
    `${matrix.routes.length} route methods × ${matrix.roles.length} roles; ${matrix.cells.length} cells, ${driven} requests sent.`,
    '',
    'Roles:',
    ...matrix.roles.map((r) => `- **${r}**: ${ROLE_MEANING[r]}`),
    '',
    'Outcomes: a status or class; `→ login` a redirect to the login page; **403**/**404** a refusal. A write is sent with an',
    'invalid body by a role that may make it (400 shows it was let through to validation) and with a valid and an invalid body',
    'by a role that may not (the refusal comes first, whatever the body); `ok (not sent)` is an allowed write without a body',
    'that would change the shared world (delete, block, log out). After all cells no row anywhere has changed.',
    '`(invalid body: 400 ⚠)`: a known deviation from "authorization before validation" (issue 21): the route reads the body',
    'before it checks the object, so a refused caller learns the body was wrong; a valid body is still refused, nothing changes.',
    '',
    `| Method | Route | Auth | ${matrix.roles.join(' | ')} |`,
    `|---|---|---|${matrix.roles.map(() => '---').join('|')}|`,
    ...matrix.routes.map(
      (r) =>
        `| ${r.method} | \`${r.path}\`${r.note ? ` — ${r.note}` : ''} | ${r.auth} | ${matrix.roles.map((role) => SHOW[r.expect[role]] + (r.validatesFirst?.includes(role) ? ' (invalid body: 400 ⚠)' : '')).join(' | ')} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
