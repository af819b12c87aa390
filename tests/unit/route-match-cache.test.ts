import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cacheRouteMatching } from '../../server/route-match-cache';

/**
 * server/route-match-cache.ts replaces `matchRoutes` of @remix-run/router at start: whatever it remembers must
 * give exactly what the original gives, for a tree copy Remix builds anew per request, and nothing a caller does
 * with one answer may leak into the next.
 */
type Route = { id: string; path?: string; index?: boolean; children?: Route[] };
const router = createRequire(import.meta.url)('@remix-run/router') as {
  matchRoutes: (routes: Route[], location: string, basename?: string) => Array<{ params: Record<string, string>; pathname: string; pathnameBase: string; route: Route }> | null;
};

const tree = (): Route[] => [
  {
    id: 'root',
    path: '',
    children: [
      { id: 'home', index: true },
      { id: 'guides', path: 'guides' },
      { id: 'guide', path: 'guides/:id' },
      { id: 'review-hide', path: 'api/v1/reviews/:id/hide' },
      { id: 'splat', path: '*' },
    ],
  },
];
const PATHS = ['/', '/guides', '/guides/12', '/guides/12/', '/api/v1/reviews/7/hide', '/nowhere/at/all', '/GUIDES/3'];
const shape = (matches: ReturnType<typeof router.matchRoutes>) =>
  matches?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, pathnameBase: m.pathnameBase })) ?? null;

describe('route matching remembered per path', () => {
  it('answers like the original, on fresh tree copies, and keeps no caller changes', () => {
    const original = router.matchRoutes;
    const expected = PATHS.map((p) => shape(original(tree(), p)));
    cacheRouteMatching();
    expect(router.matchRoutes).not.toBe(original);
    for (let round = 0; round < 3; round++) {
      const routes = tree();
      const got = PATHS.map((p) => router.matchRoutes(routes, p));
      expect(got.map(shape)).toEqual(expected);
      // The answer points at the caller's own route objects, not at the tree it was first computed on.
      expect(got[2]![1]!.route).toBe(routes[0]!.children![2]);
      got[2]![1]!.params.id = 'changed';
    }
    expect(router.matchRoutes(tree(), '/guides/99')?.[1]?.params).toEqual({ id: '99' });
    expect(router.matchRoutes(tree(), '/guides/12')?.[1]?.params).toEqual({ id: '12' });
  });
});
