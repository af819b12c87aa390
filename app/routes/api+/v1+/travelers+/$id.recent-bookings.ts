import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { recentBookingsData, recentQuerySchema } from '~/schemas/discover';
import { assertRoleOwnerOrAdmin, recentTravelerBookings, travelerIdParam } from '~/services/booking/dashboards.server';

export const contract = defineApi({
  path: '/api/v1/travelers/{id}/recent-bookings',
  tags: ['travelers'],
  operations: {
    GET: {
      summary: "A traveler's newest bookings (the traveler or an admin)",
      description: 'Newest first, deleted orders left out; limit default 5, at most 50. `data.bookings`.',
      auth: 'user',
      query: recentQuerySchema,
      data: recentBookingsData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'TRAVELER_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, params, query }) => {
    const traveler = await assertRoleOwnerOrAdmin(session.user, travelerIdParam(params.id), 'traveler');
    return { bookings: await recentTravelerBookings(traveler.id, query.limit) };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
