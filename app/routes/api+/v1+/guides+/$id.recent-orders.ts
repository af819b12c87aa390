import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { recentOrdersData, recentQuerySchema } from '~/schemas/discover';
import { assertRoleOwnerOrAdmin, guideIdParam, recentGuideOrders } from '~/services/booking/dashboards.server';

export const contract = defineApi({
  path: '/api/v1/guides/{id}/recent-orders',
  tags: ['guides'],
  operations: {
    GET: {
      summary: "A guide's newest orders (the guide or an admin)",
      description: 'Newest first, deleted orders left out; limit default 5, at most 50. `data.orders`.',
      auth: 'user',
      query: recentQuerySchema,
      data: recentOrdersData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'GUIDE_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, params, query }) => {
    const guide = await assertRoleOwnerOrAdmin(session.user, guideIdParam(params.id), 'guide');
    return { orders: await recentGuideOrders(guide.id, query.limit) };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
