import { z } from 'zod';
import { defineApi } from '~/http/contract';

/** GET /api/v1/openapi.json's own contract: beside the document (__openapi-document.server.ts), which lists it too. */
export const openApiContract = defineApi({
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
