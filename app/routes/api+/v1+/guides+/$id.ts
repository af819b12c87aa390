import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { parseIdParam } from '~/lib/ids';
import { adminUserData } from '~/schemas/responses';
import { AppError } from '~/services/errors.server';
import { archiveGuide } from '~/services/guide-archive.server';
import { toAdminUser } from '~/services/user-admin.server';

/*
 * /api/v1/guides/{id}. DELETE is issue 11's (trust); the discovery issue adds GET here (merged by the lead).
 */
export const contract = defineApi({
  path: '/api/v1/guides/{id}',
  tags: ['guides'],
  operations: {
    DELETE: {
      summary: 'Archive a guide’s account (admin): hidden everywhere, sessions end; audited',
      auth: { roles: ['admin'] },
      data: adminUserData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'GUIDE_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  DELETE: async ({ session, params }) => {
    const id = parseIdParam(params.id);
    if (id === undefined) throw new AppError('GUIDE_NOT_FOUND');
    return { user: toAdminUser(await archiveGuide(session.user, id)) };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
