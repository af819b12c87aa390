import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { deletedReviewData } from '~/schemas/reviews';
import { deleteReview, reviewIdParam } from '~/services/booking/reviews.server';

export const contract = defineApi({
  path: '/api/v1/reviews/{id}',
  tags: ['reviews'],
  operations: {
    DELETE: {
      summary: 'Delete a review (admin, audited); the guide’s rating follows',
      auth: { roles: ['admin'] },
      data: deletedReviewData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  DELETE: async ({ session, params }) => deleteReview(session.user, reviewIdParam(params.id)),
});
export const loader = handlers.loader;
export const action = handlers.action;
