import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { orderData } from '~/schemas/orders';
import { adminRestoreOrder } from '~/services/admin/admin-orders.server';
import { orderIdParam } from '~/services/booking/orders.server';

export const contract = defineApi({
  path: '/api/v1/orders/{id}/restore',
  tags: ['orders'],
  operations: {
    POST: {
      summary: 'Restore a deleted order (admin); 409 TIME_CONFLICT when its slot was booked since',
      auth: { roles: ['admin'] },
      body: z.object({ userId: z.coerce.number().int().positive().optional().describe('The admin’s own id (sent by the original client; not needed)') }),
      data: orderData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'TIME_CONFLICT'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ session, params }) => ({ order: await adminRestoreOrder(session.user, orderIdParam(params.id)) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
