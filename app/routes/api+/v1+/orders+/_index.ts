import { apiHandlers } from '~/http/api.server';
import { limitLog } from '~/http/request-context.server';
import { defineApi } from '~/http/contract';
import { bookingSchema } from '~/schemas/booking';
import { orderApiQuerySchema } from '~/schemas/admin-orders';
import { bookedOrderData, orderListData } from '~/schemas/orders';
import { bookSlot } from '~/services/booking/booking.server';
import { listOrders } from '~/services/booking/orders.server';

export const contract = defineApi({
  path: '/api/v1/orders',
  tags: ['orders'],
  operations: {
    GET: {
      summary: 'Orders: a traveler’s bookings, a guide’s tours, or every order (admin); newest first, 10 a page',
      description:
        'Everyone may filter by `status`. An admin may also filter as /admin/orders does: `id` (the order number), `tourFrom`/`tourTo` ' +
        '(tour dates) and `createdFrom`/`createdTo` (booking dates), Taiwan days YYYY-MM-DD, both ends included (a start after its end is a 400 naming the end field); `guide` and `traveler` ' +
        '(a user number, or words all found in the name or e-mail); `deleted=only` lists the deleted orders instead. A traveler’s or ' +
        'guide’s own view ignores these filters and never lists deleted orders.',
      auth: 'user',
      query: orderApiQuerySchema,
      data: orderListData,
      errors: ['UNAUTHORIZED'],
    },
    POST: {
      summary: 'Book an open slot (a traveler with a verified email)',
      description:
        'The traveler is the caller; a `userId` in the body must be theirs (else 403). The total is the guide’s profile price for one slot, ' +
        'for the whole group; a `price` sent by the client is not charged (docs/decisions/010-price-rule.md). A `numberOfPeople` above the guide’s ' +
        '`maxGroupSize` is 400 VALIDATION_ERROR on numberOfPeople, with a message naming the maximum (docs/decisions/016-group-size.md). A slot that is taken or not open ' +
        'is 409 TIME_CONFLICT; exactly one of any number of simultaneous bookings of a slot succeeds. A slot the caller already holds (their own ' +
        'pending, confirmed or completed order: a retry after a lost answer) is 409 ALREADY_BOOKED with that order’s `orderId`. At most 12 bookings ' +
        'an hour and 12 pending orders (6 with one guide): 429 RATE_LIMIT_EXCEEDED with Retry-After (docs/decisions/005). A paid tour answers with its `payment` ' +
        '(unpaid, with `checkoutUrl` to open in a browser and `payBy`): the slot is held for the traveler until then, the guide is told once the ' +
        'card is authorised, and an order not paid by `payBy` expires and frees the slot (issue 32).',
      auth: 'user',
      body: bookingSchema,
      status: 201,
      data: bookedOrderData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'EMAIL_NOT_VERIFIED', 'GUIDE_NOT_FOUND', 'TRAVELER_NOT_FOUND', 'TIME_CONFLICT', 'ALREADY_BOOKED', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, query }) => listOrders(session.user, query),
  POST: async ({ request, session, body }) => bookSlot(session.user, body, undefined, undefined, limitLog(request)),
});
export const loader = handlers.loader;
export const action = handlers.action;
