import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { getFixedT } from '~/i18n/i18n.server';
import { suggestionsData } from '~/schemas/guide-responses';
import { suggestionQuerySchema } from '~/schemas/guide-search';
import { suggest } from '~/services/catalogue/search.server';

export const contract = defineApi({
  path: '/api/v1/guides/suggestions',
  tags: ['guides'],
  operations: {
    GET: {
      summary: 'Suggestions for the keyword box: guide names and cities containing the query (default 10)',
      description: '`type` is guide, city or all (default). A blank query gives an empty list.',
      auth: 'public',
      cache: 'shared',
      query: suggestionQuerySchema,
      data: suggestionsData,
      errors: [],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ query, request }) => {
    const t = await getFixedT(request);
    return { suggestions: await suggest(query, (code) => t(`cities.${code}`)) };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
