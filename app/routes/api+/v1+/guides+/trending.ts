import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { getLocale } from '~/i18n/i18n.server';
import { trendingData, trendingQuerySchema } from '~/schemas/discover';
import { getTrending } from '~/services/catalogue/trending.server';

export const contract = defineApi({
  path: '/api/v1/guides/trending',
  tags: ['guides'],
  operations: {
    GET: {
      summary: 'Guides or cities popular now, from the last 30 days of bookings and favorites',
      description:
        'type=guides (default) answers `data.guides`, type=cities answers `data.cities`; limit default 10, at most 50. A booking counts twice, a favorite once; only listed guides appear or count.',
      auth: 'public',
      cache: 'shared',
      query: trendingQuerySchema,
      data: trendingData,
      errors: [],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ query, request }) => getTrending(query.type, query.limit, { locale: await getLocale(request) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
