import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { adminIdApplicationSchema, idApplicationListQuerySchema } from '~/schemas/trust';
import { listIdApplications } from '~/services/trust/id-verification.server';

export const contract = defineApi({
  path: '/api/v1/id-verifications',
  tags: ['id-verification'],
  operations: {
    GET: {
      summary: 'Identity-verification applications by status (admin; pending by default, oldest first)',
      auth: { roles: ['admin'] },
      query: idApplicationListQuerySchema,
      data: z.object({ applications: z.array(adminIdApplicationSchema) }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ query }) => ({ applications: await listIdApplications(query.status) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
