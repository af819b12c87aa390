import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { csvResponse } from '~/http/csv.server';
import { csvFile, userExportQuerySchema } from '~/schemas/exports';
import { exportUsers } from '~/services/admin/exports.server';

export const contract = defineApi({
  path: '/api/v1/users/export.csv',
  tags: ['users', 'exports'],
  operations: {
    GET: {
      summary: 'The user list as a CSV file (admin), with the filters of GET /api/v1/users (type, status, search); `archived=only` for the archived accounts',
      description:
        'Every matching account, newest first, streamed. A UTF-8 byte order mark; column headers, role, status, city and yes/no in the caller’s language (`lng`, language cookie, Accept-Language), ids as numbers; ' +
        'a text cell starting with =, +, -, @, a tab or a carriage return is prefixed with a single quote so a spreadsheet does not run it.',
      auth: { roles: ['admin'] },
      query: userExportQuerySchema,
      produces: 'text/csv',
      data: csvFile,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ request, session, query }) => csvResponse(request, await exportUsers(session.user, query, query.archived === 'only')),
});
export const loader = handlers.loader;
export const action = handlers.action;
