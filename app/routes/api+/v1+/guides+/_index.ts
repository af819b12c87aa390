import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { getLocale } from '~/i18n/i18n.server';
import { guideListData } from '~/schemas/guide-responses';
import { guideSearchSchema } from '~/schemas/guide-search';
import { searchGuides } from '~/services/catalogue/search.server';

export const contract = defineApi({
  path: '/api/v1/guides',
  tags: ['guides'],
  operations: {
    GET: {
      summary: 'Search publishable guides (10 a page, at most 100)',
      description:
        'The same parameters as the /guides page. Keywords match names, introductions, bios and city names in zh-TW, en and ja (台/臺, full-width and case do not matter). A page past the end is empty, with the true totalPages. Ties in any sort are broken by id.',
      auth: 'public',
      cache: 'shared',
      query: guideSearchSchema,
      data: guideListData,
      errors: [],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ query, request }) => searchGuides(query, { locale: await getLocale(request) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
