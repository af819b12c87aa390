import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { csvResponse } from '~/http/csv.server';
import { csvFile, orderExportQuerySchema } from '~/schemas/exports';
import { exportOrders } from '~/services/admin/exports.server';

export const contract = defineApi({
  path: '/api/v1/orders/export.csv',
  tags: ['orders', 'exports'],
  operations: {
    GET: {
      summary: 'Orders as a CSV file (admin), with the filters of /admin/orders (status, tour and booking dates, guide, traveler, order number, deleted)',
      description:
        'Every matching order, newest first, streamed. A UTF-8 byte order mark; column headers, status and time slot (with its hours) in the caller’s language (`lng`, language cookie, Accept-Language), ids as numbers; ' +
        'a date range whose start is after its end is a 400 naming its end field; ' +
        'times in Taiwan time; a text cell starting with =, +, -, @, a tab or a carriage return is prefixed with a single quote so a spreadsheet does not run it.',
      auth: { roles: ['admin'] },
      query: orderExportQuerySchema,
      produces: 'text/csv',
      data: csvFile,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ request, session, query }) => csvResponse(request, await exportOrders(session.user, query)),
});
export const loader = handlers.loader;
export const action = handlers.action;
