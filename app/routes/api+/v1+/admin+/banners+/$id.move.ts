import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { bannerMoveSchema, bannerSchema } from '~/schemas/banners';
import { moveBanner } from '~/services/admin/banners.server';
import { idParamOr } from '~/services/platform/errors.server';

export const contract = defineApi({
  path: '/api/v1/admin/banners/{id}/move',
  tags: ['banners'],
  operations: {
    POST: {
      summary: 'Move a home banner one place up or down in the order (admin); audited; at the end already, nothing changes',
      auth: { roles: ['admin'] },
      body: bannerMoveSchema,
      data: z.object({ banners: z.array(bannerSchema) }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ session, params, body }) => ({ banners: await moveBanner(session.user, idParamOr('NOT_FOUND', params.id), body.direction) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
