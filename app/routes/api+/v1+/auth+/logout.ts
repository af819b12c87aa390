import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { logout } from '~/services/accounts/accounts.server';

export const contract = defineApi({
  path: '/api/v1/auth/logout',
  tags: ['auth'],
  operations: {
    POST: {
      summary: 'Revoke the current session; the same token answers 401 afterwards',
      auth: 'user',
      data: z.object({ loggedOut: z.literal(true) }),
      errors: ['UNAUTHORIZED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ session }) => {
    await logout(session.id);
    return { loggedOut: true as const };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
