import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { parseIdParam } from '~/lib/ids';
import { guideStandingSchema, guideStatusSchema } from '~/schemas/trust';
import { AppError } from '~/services/platform/errors.server';
import { setGuideStanding } from '~/services/trust/guide-standing.server';

export const contract = defineApi({
  path: '/api/v1/guides/{id}/status',
  tags: ['guides'],
  operations: {
    PUT: {
      summary: 'Suspend or reinstate a guide (admin); `approved` is accepted as `active`. Audited; the guide is told',
      description: 'A suspended guide leaves search and cannot be booked; existing orders stay.',
      auth: { roles: ['admin'] },
      body: guideStatusSchema,
      data: guideStandingSchema,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'GUIDE_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PUT: async ({ session, params, body }) => {
    const id = parseIdParam(params.id);
    if (id === undefined) throw new AppError('GUIDE_NOT_FOUND');
    return setGuideStanding(session.user, id, body);
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
