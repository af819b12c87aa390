import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { reviewCreateSchema, reviewData, reviewListData } from '~/schemas/reviews';
import { getOrderFor, orderIdParam } from '~/services/booking/orders.server';
import { createReview, listOrderReviews } from '~/services/booking/reviews.server';

export const contract = defineApi({
  path: '/api/v1/orders/{id}/reviews',
  tags: ['reviews'],
  operations: {
    GET: {
      summary: 'The reviews of an order, both sides (its traveler, its guide or an admin); a hidden one only for its author and admins',
      auth: 'user',
      data: reviewListData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
    POST: {
      summary: 'Review the other party of a completed order (its traveler reviews the guide, its guide the traveler)',
      description:
        'Allowed once both completion flags are set (else 409 ORDER_NOT_COMPLETED), once per reviewer and order (409 ALREADY_REVIEWED), ' +
        'only by the order’s traveler or guide (403 FORBIDDEN); a traveler needs a verified email (403 EMAIL_NOT_VERIFIED). ' +
        'The reviewee is computed; a `revieweeId` that differs is 400. The reviewee is notified in their language.',
      auth: 'user',
      body: reviewCreateSchema,
      status: 201,
      data: reviewData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'EMAIL_NOT_VERIFIED', 'NOT_FOUND', 'ORDER_NOT_COMPLETED', 'ALREADY_REVIEWED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, params }) => ({ reviews: await listOrderReviews(session.user, orderIdParam(params.id)) }),
  // Only the order's parties (and admins, refused by the service) get past this: others 403/404 whatever the body.
  POST: {
    authorize: async ({ session, params }) => (await getOrderFor(session.user, orderIdParam(params.id))).id,
    handle: async ({ session, body, target: orderId }) => ({ review: await createReview({ ...body, orderId, reviewerId: session.user.id }) }),
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
