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
// The copies the server actually runs: @remix-run/router as Remix's server runtime resolves it (createStaticHandler,
// the per-request matching), react-router-dom/server as @remix-run/react's RemixServer resolves it.
const fromHere = createRequire(import.meta.url);
const fromRuntime = createRequire(fromHere.resolve('@remix-run/server-runtime'));
const fromRemixReact = createRequire(fromHere.resolve('@remix-run/react'));
type StaticHandler = { dataRoutes: Route[]; query: (request: Request) => Promise<Response | { matches: { route: { id: string } }[] }> };
const router = fromRuntime('@remix-run/router') as {
  matchRoutes: (routes: Route[], location: string, basename?: string) => Match[] | null;
  createStaticHandler: (routes: Route[]) => StaticHandler;
};
const reactRouterServer = fromRemixReact('react-router-dom/server') as {
  createStaticRouter: (routes: Route[], context: unknown) => { routes: Route[] };
  createStaticHandler: (routes: Route[]) => StaticHandler & { query: (request: Request) => Promise<unknown> };
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
      { id: 'case', path: 'Exact', caseSensitive: true },
      { id: 'splat', path: '*' },
    ],
  },
];
const PATHS = ['/', '/guides', '/guides/12', '/guides/12/', '/api/v1/reviews/7/hide', '/nowhere/at/all', '/GUIDES/3', '/Exact', '/exact', '/guides/%E5%8F%B0'];
const shape = (matches: Match[] | null) =>
  matches?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, pathnameBase: m.pathnameBase })) ?? null;

describe('route matching patched in node_modules', () => {
  // The patches' memory is observable: the server never changes a route tree once built, so a tree changed after a
  // first match keeps its first answers only while the patch is in the code that runs. Without the patch (an
  // upgrade that drops it, an override that stops applying) these tests fail.
  it('the router remembers a tree: a route added after the first match is not seen (matchRoutes)', () => {
    const routes = tree();
    expect(router.matchRoutes(routes, '/added')?.[1]?.route.id).toBe('splat');
    routes[0]!.children!.push({ id: 'added', path: 'added' });
    expect(router.matchRoutes(routes, '/added')?.[1]?.route.id).toBe('splat');
    // A fresh tree with the same routes is computed anew.
    expect(router.matchRoutes([{ ...routes[0]!, children: [...routes[0]!.children!] }], '/added')?.[1]?.route.id).toBe('added');
  });

  it("Remix's static handler (its module-internal matching, once per request) remembers its tree too", async () => {
    const handler = router.createStaticHandler(tree());
    const first = await handler.query(new Request('http://localhost/added'));
    expect('matches' in first ? first.matches.map((m) => m.route.id) : first).toEqual(['root', 'splat']);
    handler.dataRoutes[0]!.children!.push({ id: 'added', path: 'added' });
    const second = await handler.query(new Request('http://localhost/added'));
    expect('matches' in second ? second.matches.map((m) => m.route.id) : second).toEqual(['root', 'splat']);
  });

  it("React Router's server render converts a route tree once: the same tree gives the same data routes", () => {
    const routes = tree();
    const context = { basename: '', location: { pathname: '/', search: '', hash: '', state: null, key: 'default' }, matches: [], loaderData: {}, actionData: null, errors: null, statusCode: 200, loaderHeaders: {}, actionHeaders: {}, activeDeferreds: null };
    const first = reactRouterServer.createStaticRouter(routes, context);
    const second = reactRouterServer.createStaticRouter(routes, context);
    expect(second.routes[0]).toBe(first.routes[0]);
    expect(reactRouterServer.createStaticRouter(tree(), context).routes[0]).not.toBe(first.routes[0]);
  });

  it("RemixServer's per-build cache is in the file @remix-run/react's server entry loads", () => {
    // Rendering RemixServer needs a whole build; its patch is checked in the module the server resolves.
    expect(readFileSync(fromHere.resolve('@remix-run/react/dist/server.js'), 'utf8')).toContain('serverRoutesCache.get(manifest.routes)');
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
