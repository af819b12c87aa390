import type { ServerBuild } from '@remix-run/node';
import type { ApiContract } from '~/http/contract';
import { API_METHODS } from '~/http/contract';
import type { ManifestRoute } from './authorization-matrix';

/** A route's full path: flat routes nest (`users.$id.avatar` is a child of `users.$id`), so join the parents'. */
function fullPath(routes: ServerBuild['routes'], id: string): string {
  const parts: string[] = [];
  for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined) {
    if (route.path) parts.unshift(route.path);
  }
  return `/${parts.join('/')}`;
}

/** The manifest as the matrix needs it: path, kind and the methods each route answers. */
export function manifestRoutes(build: ServerBuild): ManifestRoute[] {
  const out: ManifestRoute[] = [];
  for (const route of Object.values(build.routes)) {
    if (route.id === 'root') continue;
    const module = route.module as { contract?: ApiContract; loader?: unknown; action?: unknown; default?: unknown };
    const remixPath = fullPath(build.routes, route.id);
    const contract = module.contract;
    if (contract) {
      out.push({ id: route.id, path: contract.path, kind: 'api', methods: API_METHODS.filter((m) => contract.operations[m]), contract });
      continue;
    }
    if (!module.loader && !module.action && !module.default) continue; // a layout without a URL of its own
    const methods: Array<'GET' | 'POST'> = [];
    if (module.loader || module.default) methods.push('GET');
    if (module.action) methods.push('POST');
    // Remix `:id` and `*` in the matrix's {param} form.
    const pathTemplate = remixPath.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{splat}');
    out.push({ id: route.id, path: pathTemplate, kind: module.default ? 'page' : 'resource', methods });
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.id.localeCompare(b.id));
}
