import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { userStatsData } from '~/schemas/responses';
import { assertSelfOrAdmin } from '~/services/platform/access.server';
import { getUserStats } from '~/services/booking/user-stats.server';
import { userIdParam } from '~/services/accounts/users.server';

export const contract = defineApi({
  path: '/api/v1/users/{id}/stats',
  tags: ['users'],
  operations: {
    GET: {
      summary: 'Order, review, earning and spending figures of an account (the account itself or an admin)',
      auth: 'user',
      cache: 'no-store',
      data: userStatsData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'USER_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, params }) => {
    const user = await assertSelfOrAdmin(session.user, userIdParam(params.id));
    return getUserStats(user.id);
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
