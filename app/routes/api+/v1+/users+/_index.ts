import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { userListData } from '~/schemas/responses';
import { userListQuerySchema } from '~/schemas/user-admin';
import { listUsers } from '~/services/accounts/user-admin.server';

export const contract = defineApi({
  path: '/api/v1/users',
  tags: ['users'],
  operations: {
    GET: {
      summary: 'Accounts that are not archived, a page at a time (admin; 20 a page, at most 100)',
      auth: { roles: ['admin'] },
      query: userListQuerySchema,
      data: userListData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ query }) => listUsers(query),
});
export const loader = handlers.loader;
export const action = handlers.action;
