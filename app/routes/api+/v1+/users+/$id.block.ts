import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { adminUserData } from '~/schemas/responses';
import { blockUser, toAdminUser } from '~/services/accounts/user-admin.server';
import { userIdParam } from '~/services/accounts/users.server';

export const contract = defineApi({
  path: '/api/v1/users/{id}/block',
  tags: ['users'],
  operations: {
    POST: {
      summary: 'Block an account: status suspended, every session ends at once (admin)',
      auth: { roles: ['admin'] },
      data: adminUserData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ session, params }) => ({ user: toAdminUser(await blockUser(session.user, userIdParam(params.id))) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
