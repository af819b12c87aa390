import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi, type ApiContract } from '~/http/contract';
import { buildOpenApiDocument } from '~/http/openapi.server';
import { getConfig } from '~/env.server';

export const contract = defineApi({
  path: '/api/v1/openapi.json',
  tags: ['meta'],
  operations: {
    GET: {
      summary: 'This OpenAPI 3.1 document (not wrapped in the envelope)',
      auth: 'public',
      data: z.object({ openapi: z.string() }).loose(),
      errors: [],
    },
  },
});

// Every other /api/v1 route module, so a new route is in the document the moment it exists; and the terms calls,
// and the dev calls (marked x-development-only), which SPEC §7 places outside /api/v1.
const routeContracts = import.meta.glob<ApiContract>(['./**/*.ts', '!./openapi*', '../terms+/*.ts', '../dev+/*.ts'], { eager: true, import: 'contract' });

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

const handlers = apiHandlers(contract, {
  GET: async () => {
    document ??= buildOpenApiDocument([...Object.values(routeContracts), contract], getConfig().PUBLIC_URL);
    return new Response(JSON.stringify(document), {
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
    });
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
