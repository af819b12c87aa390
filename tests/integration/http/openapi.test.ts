import type { ServerBuild } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { API_METHODS, type ApiContract } from '~/http/contract';
import { useTestServer } from '../../support/http-server';
import { openApiDocument } from '../../support/openapi';
import { useTestDatabase } from '../../support/test-database';

/** The published contract covers every /api/v1 route Remix serves, method by method. */
useTestDatabase();
const server = useTestServer();

/** Remix's `api/v1/users/:id/avatar` in OpenAPI form: `/api/v1/users/{id}/avatar`. */
const openApiPath = (remixPath: string) => `/${remixPath.replace(/:(\w+)/g, '{$1}')}`;

/** A route's full path: flat routes nest (`users.$id.avatar` is a child of `users.$id`), so join the parents'. */
function fullPath(routes: ServerBuild['routes'], id: string): string {
  const parts: string[] = [];
  for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined) {
    if (route.path) parts.unshift(route.path);
  }
  return parts.join('/');
}

describe('/api/v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document served over HTTP', async () => {
    const response = await server.request('/api/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.json.openapi).toBe('3.1.0');
    expect(response.json.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('lists every /api/v1 route of the Remix manifest with exactly the methods its module answers', async () => {
    const { doc } = await openApiDocument(server);
    const routes = server.build.routes;
    const apiRoutes = Object.values(routes)
      .map((route) => ({ ...route, path: fullPath(routes, route.id) }))
      // SPEC §7 puts the terms and dev calls outside /api/v1; they are in the document too.
      .filter((route) => route.path.startsWith('api/v1/') || route.path.startsWith('api/terms/') || route.path.startsWith('api/dev/'));
    expect(apiRoutes.length).toBeGreaterThan(10);
    for (const route of apiRoutes) {
      const contract = (route.module as { contract?: ApiContract }).contract;
      expect(contract, `${route.id} exports no contract`).toBeDefined();
      const path = openApiPath(route.path);
      expect(contract!.path, `${route.id}: contract path`).toBe(path);
      expect(doc.paths[path], `${path} is missing from the document`).toBeDefined();
      const documented = Object.keys(doc.paths[path]!).sort();
      const served = API_METHODS.filter((m) => contract!.operations[m]).map((m) => m.toLowerCase()).sort();
      expect(documented, path).toEqual(served);
    }
    // and nothing documented that Remix does not serve
    const served = new Set(apiRoutes.map((route) => openApiPath(route.path)));
    for (const path of Object.keys(doc.paths)) expect(served.has(path), `${path} is documented but not served`).toBe(true);
  });

  it('documents bodies, parameters and failure codes from the route schemas', async () => {
    const { doc } = await openApiDocument(server);
    const register = doc.paths['/api/v1/auth/register']!.post as any;
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(['201', '400', '409', '413', '500']));
    expect(JSON.stringify(register.requestBody.content['application/json'].schema)).toContain('"email"');
    // Normalising fields document what clients may send: a city name, not only the code.
    const guideBody = register.requestBody.content['application/json'].schema.oneOf[1];
    expect(JSON.stringify(guideBody.properties.city)).toContain('Taipei City');
    expect(guideBody.properties.price.anyOf).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'string' })]));
    const list = doc.paths['/api/v1/users']!.get as any;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'limit', 'sortBy', 'type', 'search']));
    expect(list['x-roles']).toEqual(['admin']);
    const user = doc.paths['/api/v1/users/{id}']!.get as any;
    expect(user.parameters[0]).toMatchObject({ name: 'id', in: 'path', required: true });
    expect(user.responses['401'].description).toContain('UNAUTHORIZED');
  });
});
