import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * patches/ (docs/decisions/012) make the server's @remix-run/router remember, per route tree, its ranked branches
 * and each path's matches, and make Remix and React Router keep their route trees per build. Whatever is
 * remembered must equal a fresh computation, and nothing a caller does with one answer may reach the next.
 */
type Route = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };
type Match = { params: Record<string, string>; pathname: string; pathnameBase: string; route: Route };
const require = createRequire(import.meta.url);
const router = require('@remix-run/router') as { matchRoutes: (routes: Route[], location: string, basename?: string) => Match[] | null };

const tree = (): Route[] => [
  {
    id: 'root',
    path: '',
    children: [
      { id: 'home', index: true },
      { id: 'guides', path: 'guides' },
      { id: 'guide', path: 'guides/:id' },
      { id: 'review-hide', path: 'api/v1/reviews/:id/hide' },
      { id: 'case', path: 'Exact', caseSensitive: true },
      { id: 'splat', path: '*' },
    ],
  },
];
const PATHS = ['/', '/guides', '/guides/12', '/guides/12/', '/api/v1/reviews/7/hide', '/nowhere/at/all', '/GUIDES/3', '/Exact', '/exact', '/guides/%E5%8F%B0'];
const shape = (matches: Match[] | null) =>
  matches?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, pathnameBase: m.pathnameBase })) ?? null;

describe('route matching patched in node_modules', () => {
  it('is installed: npm ci applied the patches', () => {
    expect(readFileSync(require.resolve('@remix-run/router/dist/router.cjs.js'), 'utf8')).toContain('matchedTrees');
    expect(readFileSync(require.resolve('@remix-run/react/dist/server.js'), 'utf8')).toContain('serverRoutesCache');
    expect(readFileSync(require.resolve('react-router-dom/server.js'), 'utf8')).toContain('staticDataRoutesCache');
  });

  it('answers a tree asked again and again like a fresh tree, with the tree’s own route objects', () => {
    // A new tree is never remembered yet: its answers are the reference.
    const expected = PATHS.map((p) => shape(router.matchRoutes(tree(), p)));
    expect(expected[2]).toEqual([
      { id: 'root', params: { id: '12' }, pathname: '/', pathnameBase: '/' },
      { id: 'guide', params: { id: '12' }, pathname: '/guides/12', pathnameBase: '/guides/12' },
    ]);
    expect(expected[9]![1]).toMatchObject({ id: 'guide', params: { id: '台' } });
    expect(expected[8]![1]!.id).toBe('splat');
    const routes = tree();
    for (let round = 0; round < 3; round++) {
      const got = PATHS.map((p) => router.matchRoutes(routes, p));
      expect(got.map(shape)).toEqual(expected);
      expect(got[2]![1]!.route).toBe(routes[0]!.children![2]);
    }
  });

  it('gives every caller its own matches: a change to one answer does not reach the next', () => {
    const routes = tree();
    const first = router.matchRoutes(routes, '/guides/12')!;
    first[1]!.params.id = 'changed';
    first.pop();
    expect(shape(router.matchRoutes(routes, '/guides/12'))).toEqual([
      { id: 'root', params: { id: '12' }, pathname: '/', pathnameBase: '/' },
      { id: 'guide', params: { id: '12' }, pathname: '/guides/12', pathnameBase: '/guides/12' },
    ]);
    expect(router.matchRoutes(routes, '/guides/99')?.[1]?.params).toEqual({ id: '99' });
  });

  it('matches with a basename like before', () => {
    const routes = tree();
    expect(router.matchRoutes(routes, '/app/guides/5', '/app')?.[1]?.params).toEqual({ id: '5' });
    expect(router.matchRoutes(routes, '/elsewhere/guides/5', '/app')).toBeNull();
  });
});
