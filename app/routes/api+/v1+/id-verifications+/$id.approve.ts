import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { parseIdParam } from '~/lib/ids';
import { idApplicationSchemaOut } from '~/schemas/trust';
import { AppError } from '~/services/platform/errors.server';
import { approveIdApplication } from '~/services/trust/id-verification.server';

export const contract = defineApi({
  path: '/api/v1/id-verifications/{id}/approve',
  tags: ['id-verification'],
  operations: {
    POST: {
      summary: 'Approve a pending application (admin): the account becomes ID-verified; notified, mailed, audited',
      auth: { roles: ['admin'] },
      data: idApplicationSchemaOut,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ session, params }) => {
    const id = parseIdParam(params.id);
    if (id === undefined) throw new AppError('NOT_FOUND');
    return approveIdApplication(session.user, id);
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
