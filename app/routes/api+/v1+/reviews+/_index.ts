import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { adminReviewListData, adminReviewQuerySchema } from '~/schemas/reviews';
import { searchReviews } from '~/services/booking/reviews.server';

export const contract = defineApi({
  path: '/api/v1/reviews',
  tags: ['reviews'],
  operations: {
    GET: {
      summary: 'Search every review, hidden ones included (admin): comment, reviewer or reviewee name, or an order number; 20 a page',
      auth: { roles: ['admin'] },
      query: adminReviewQuerySchema,
      data: adminReviewListData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, query }) => searchReviews(session.user, query),
});
export const loader = handlers.loader;
export const action = handlers.action;
