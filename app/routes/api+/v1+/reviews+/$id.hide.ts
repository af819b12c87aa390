import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { reviewData, reviewHideSchema } from '~/schemas/reviews';
import { reviewIdParam, setReviewHidden } from '~/services/booking/reviews.server';

export const contract = defineApi({
  path: '/api/v1/reviews/{id}/hide',
  tags: ['reviews'],
  operations: {
    PATCH: {
      summary: 'Hide a review (a reason is required) or show it again (admin, audited); the guide’s rating follows',
      auth: { roles: ['admin'] },
      body: reviewHideSchema,
      data: reviewData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  PATCH: async ({ session, params, body }) => ({ review: await setReviewHidden(session.user, reviewIdParam(params.id), body) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
