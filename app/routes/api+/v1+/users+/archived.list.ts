import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { userListData } from '~/schemas/responses';
import { userListQuerySchema } from '~/schemas/user-admin';
import { listArchivedUsers } from '~/services/accounts/user-admin.server';

/** Two static segments rank /api/v1/users/archived/list above /api/v1/users/:id/... in Remix. */
export const contract = defineApi({
  path: '/api/v1/users/archived/list',
  tags: ['users'],
  operations: {
    GET: {
      summary: 'Archived accounts, same query and answer as GET /api/v1/users (admin)',
      auth: { roles: ['admin'] },
      query: userListQuerySchema,
      data: userListData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ query }) => listArchivedUsers(query),
});
export const loader = handlers.loader;
export const action = handlers.action;
