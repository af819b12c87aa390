import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { csvResponse } from '~/http/csv.server';
import { csvFile, reviewExportQuerySchema } from '~/schemas/exports';
import { exportReviews } from '~/services/admin/exports.server';

export const contract = defineApi({
  path: '/api/v1/reviews/export.csv',
  tags: ['reviews', 'exports'],
  operations: {
    GET: {
      summary: 'Reviews as a CSV file (admin), hidden ones included, with the search of GET /api/v1/reviews (keyword)',
      description:
        'Every matching review, newest first, streamed. A UTF-8 byte order mark; column headers, the reviewer’s side and yes/no in the caller’s language (`lng`, language cookie, Accept-Language), ids as numbers; ' +
        'a text cell starting with =, +, -, @, a tab or a carriage return is prefixed with a single quote so a spreadsheet does not run it.',
      auth: { roles: ['admin'] },
      query: reviewExportQuerySchema,
      produces: 'text/csv',
      data: csvFile,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ request, session, query }) => csvResponse(request, await exportReviews(session.user, query)),
});
export const loader = handlers.loader;
export const action = handlers.action;
