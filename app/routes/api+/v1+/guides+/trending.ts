import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { trendingData, trendingQuerySchema } from '~/schemas/discover';
import { getTrending } from '~/services/trending.server';

export const contract = defineApi({
  path: '/api/v1/guides/trending',
  tags: ['guides'],
  operations: {
    GET: {
      summary: 'Guides or cities popular now, from the last 30 days of bookings and favorites',
      description:
        'type=guides (default) answers `data.guides`, type=cities answers `data.cities`; limit default 10, at most 50. A booking counts twice, a favorite once; only listed guides appear or count.',
      auth: 'public',
      query: trendingQuerySchema,
      data: trendingData,
      errors: [],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ query }) => getTrending(query.type, query.limit),
});
export const loader = handlers.loader;
export const action = handlers.action;
