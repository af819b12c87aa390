import { apiHandlers } from '~/http/api.server';
import { getSession } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { reviewListData, userReviewsQuerySchema } from '~/schemas/reviews';
import { assertUserExists, listReviewsOf } from '~/services/booking/reviews.server';
import { userIdParam } from '~/services/accounts/users.server';

export const contract = defineApi({
  path: '/api/v1/users/{id}/reviews',
  tags: ['reviews'],
  operations: {
    GET: {
      summary: 'Reviews a user received (`type=received`, the default) or wrote (`type=given`), newest first',
      description:
        '`role` narrows to the user’s part in the orders: `guide` (reviews of them as a guide, or that they wrote as a guide) or `traveler`. ' +
        'Hidden reviews are left out, except for their author and admins.',
      auth: 'public',
      cache: 'shared',
      query: userReviewsQuerySchema,
      data: reviewListData,
      errors: ['USER_NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ request, params, query }) => {
    const id = userIdParam(params.id);
    await assertUserExists(id);
    // Public, but a signed-in author or admin also sees the hidden ones.
    const session = await getSession(request);
    return { reviews: await listReviewsOf(session?.user, id, query) };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
