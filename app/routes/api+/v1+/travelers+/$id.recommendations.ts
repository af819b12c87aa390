import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { getLocale } from '~/i18n/i18n.server';
import { recommendationsData, recommendationsQuerySchema } from '~/schemas/discover';
import { assertRoleOwnerOrAdmin, travelerIdParam } from '~/services/booking/dashboards.server';
import { recommendGuides } from '~/services/catalogue/recommendations.server';

export const contract = defineApi({
  path: '/api/v1/travelers/{id}/recommendations',
  tags: ['travelers'],
  operations: {
    GET: {
      summary: 'Guides to suggest to a traveler (the traveler or an admin)',
      description:
        'Guides in the cities and languages of the guides the traveler booked or favorited, best rated first (Bayesian average), never one already booked; filled with the top-rated guides when short (a new traveler gets those). limit default 10, at most 50. `data.recommendations`.',
      auth: 'user',
      query: recommendationsQuerySchema,
      data: recommendationsData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'TRAVELER_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, params, query, request }) => {
    const traveler = await assertRoleOwnerOrAdmin(session.user, travelerIdParam(params.id), 'traveler');
    return { recommendations: await recommendGuides(traveler.id, query.limit, undefined, await getLocale(request)) };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
