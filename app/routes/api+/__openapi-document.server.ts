import type { ApiContract } from '~/http/contract';
import { buildOpenApiDocument } from '~/http/openapi.server';
import { getConfig } from '~/env.server';
import { openApiContract } from './__openapi-contract';

/**
 * The one OpenAPI document, for /api/v1/openapi.json and the reference page /api/docs (issue 33), so the two never
 * differ. Its contracts: every /api/v1 route module, so a new route is in the document the moment it exists; and the
 * terms calls, and the dev calls (marked x-development-only), which SPEC §7 places outside /api/v1.
 */
const routeContracts = import.meta.glob<ApiContract>(['./v1+/**/*.ts', '!./v1+/openapi*', './terms+/*.ts', './dev+/*.ts'], { eager: true, import: 'contract' });

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export function openApiDocument() {
  document ??= buildOpenApiDocument([...Object.values(routeContracts), openApiContract], getConfig().PUBLIC_URL);
  return document;
}
