import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { adminUserData } from '~/schemas/responses';
import { restoreUser, toAdminUser } from '~/services/accounts/user-admin.server';
import { userIdParam } from '~/services/accounts/users.server';

export const contract = defineApi({
  path: '/api/v1/users/{id}/restore',
  tags: ['users'],
  operations: {
    PUT: {
      summary: 'Bring an archived account back (admin; idempotent)',
      auth: { roles: ['admin'] },
      data: adminUserData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PUT: async ({ session, params }) => ({ user: toAdminUser(await restoreUser(session.user, userIdParam(params.id))) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
