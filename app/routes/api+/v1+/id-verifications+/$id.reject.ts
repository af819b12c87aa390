import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { parseIdParam } from '~/lib/ids';
import { idApplicationSchemaOut, idRejectSchema } from '~/schemas/trust';
import { AppError } from '~/services/platform/errors.server';
import { rejectIdApplication } from '~/services/trust/id-verification.server';

export const contract = defineApi({
  path: '/api/v1/id-verifications/{id}/reject',
  tags: ['id-verification'],
  operations: {
    POST: {
      summary: 'Reject a pending application with notes the applicant sees (admin; notified, mailed, audited)',
      auth: { roles: ['admin'] },
      body: idRejectSchema,
      data: idApplicationSchemaOut,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ session, params, body }) => {
    const id = parseIdParam(params.id);
    if (id === undefined) throw new AppError('NOT_FOUND');
    return rejectIdApplication(session.user, id, body.reviewNotes);
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
