import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { orderData, orderDetailData, orderUpdateSchema } from '~/schemas/orders';
import { adminDeleteOrder } from '~/services/admin/admin-orders.server';
import { changeOrder, getOrderDetail, getOrderFor, orderIdParam } from '~/services/booking/orders.server';

export const contract = defineApi({
  path: '/api/v1/orders/{id}',
  tags: ['orders'],
  operations: {
    GET: {
      summary: 'One order with its timeline and the actions the caller may take now (its traveler, its guide or an admin)',
      auth: 'user',
      cache: 'no-store',
      data: orderDetailData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
    PUT: {
      summary: 'Move the order: `{status}` or `{travelerCompleted: true}` / `{guideCompleted: true}`',
      description:
        'pending → confirmed (guide) or cancelled (guide declines, traveler cancels); confirmed → cancelled by either side before the tour day; ' +
        'from the tour day (Asia/Taipei) each side marks completion and both flags make it completed; an admin refunds a cancelled or completed order. ' +
        'A party not allowed the action gets 403 FORBIDDEN, a wrong state or day 409 INVALID_TRANSITION. Money (issue 32): confirming an order whose ' +
        'payment is not authorised is 409 PAYMENT_REQUIRED; confirming captures the payment, declining or cancelling before that releases the ' +
        'authorisation, cancelling after it refunds by the booking terms (all of it when the guide or an admin cancels), completion pays the ' +
        'guide’s net after the hold and an admin’s refund returns what is left; the provider is called after the answer (see `payment` on GET).',
      auth: 'user',
      body: orderUpdateSchema,
      data: orderData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'INVALID_TRANSITION', 'PAYMENT_REQUIRED'],
    },
    DELETE: {
      summary: 'Delete an order (admin): it leaves every list and frees its slot',
      auth: { roles: ['admin'] },
      data: orderData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, params }) => getOrderDetail(session.user, orderIdParam(params.id)),
  // Who may touch the order first (403/404), only then what the body asks (400).
  PUT: {
    authorize: async ({ session, params }) => (await getOrderFor(session.user, orderIdParam(params.id))).id,
    handle: async ({ session, body, target: id }) => ({ order: (await changeOrder(session.user, id, body)).order }),
  },
  DELETE: async ({ session, params }) => ({ order: await adminDeleteOrder(session.user, orderIdParam(params.id)) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
