import { createRequire } from 'node:module';

/**
 * Remembers which routes a URL path matched, for the server's life.
 *
 * `matchRoutes` of @remix-run/router flattens the whole route tree, ranks every branch and compiles a regular
 * expression per branch on each call, and a page request calls it three times through the module's exports
 * (Remix's request handler, its route-discovery manifest and React Router's render) on a freshly built copy of
 * the same tree. With ~90 routes that was 15 % of the CPU of a busy /guides. The answer depends only on the
 * tree's shape and the path, so it is computed once per (shape, basename, path) and then rebuilt on the tree
 * the caller passed (its own route objects, fresh params). Trees whose routes lack ids are passed through.
 */

interface RouteLike {
  id?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteLike[];
}
interface MatchLike {
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
  route: RouteLike;
}
interface RememberedMatch {
  id: string;
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
}
interface TreeInfo {
  /** Trees of the same shape share a number. */
  shape: number;
  byId: Map<string, RouteLike>;
}
type MatchRoutes = (routes: RouteLike[], location: string | { pathname?: string }, basename?: string) => MatchLike[] | null;

/** Distinct paths remembered; the oldest leaves first (ids in /guides/:id make the set open-ended). */
const MAX_PATHS = 2_000;

/** Describes a route tree by what matching reads (ids, paths, index, case); undefined if a route has no id. */
function describeTree(routes: RouteLike[]): TreeInfo | undefined {
  const byId = new Map<string, RouteLike>();
  const parts: string[] = [];
  const walk = (list: RouteLike[]): boolean => {
    parts.push('[');
    for (const route of list) {
      if (typeof route.id !== 'string' || byId.has(route.id)) return false;
      byId.set(route.id, route);
      parts.push(`${route.id}\u0001${route.path ?? ''}\u0001${route.index ? 1 : 0}${route.caseSensitive ? 1 : 0}`);
      if (route.children?.length && !walk(route.children)) return false;
    }
    parts.push(']');
    return true;
  };
  if (!walk(routes)) return undefined;
  const shape = parts.join('\u0002');
  let number = shapes.get(shape);
  if (number === undefined) shapes.set(shape, (number = shapes.size));
  return { shape: number, byId };
}
const shapes = new Map<string, number>();

/** Wraps `matchRoutes` on the module's exports, which Remix and React Router read at each call. Idempotent. */
export function cacheRouteMatching(): void {
  const require = createRequire(import.meta.url);
  const router = require('@remix-run/router') as { matchRoutes: MatchRoutes & { remembersMatches?: true } };
  if (router.matchRoutes.remembersMatches) return;
  const original = router.matchRoutes;
  const trees = new WeakMap<RouteLike[], TreeInfo | null>();
  const remembered = new Map<string, RememberedMatch[] | null>();

  const cached: MatchRoutes & { remembersMatches?: true } = (routes, location, basename = '/') => {
    const path = typeof location === 'string' ? location : location?.pathname;
    if (!Array.isArray(routes) || typeof path !== 'string') return original(routes, location, basename);
    let tree = trees.get(routes);
    if (tree === undefined) {
      tree = describeTree(routes) ?? null;
      trees.set(routes, tree);
    }
    if (!tree) return original(routes, location, basename);

    const key = `${tree.shape}\u0000${basename}\u0000${typeof location === 'string' ? 's' : 'p'}${path}`;
    let answer = remembered.get(key);
    if (answer === undefined) {
      const matches = original(routes, location, basename);
      answer = matches
        ? matches.map((m) => ({ id: m.route.id!, params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase }))
        : null;
      remembered.set(key, answer);
      if (remembered.size > MAX_PATHS) remembered.delete(remembered.keys().next().value!);
      return matches;
    }
    const byId = tree.byId;
    return answer
      ? answer.map((m) => ({ params: { ...m.params }, pathname: m.pathname, pathnameBase: m.pathnameBase, route: byId.get(m.id)! }))
      : null;
  };
  cached.remembersMatches = true;
  router.matchRoutes = cached;
}
