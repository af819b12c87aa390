import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { csvResponse } from '~/http/csv.server';
import { auditExportQuerySchema, csvFile } from '~/schemas/exports';
import { exportAuditLog } from '~/services/admin/exports.server';

export const contract = defineApi({
  path: '/api/v1/admin/logs/export.csv',
  tags: ['admin', 'exports'],
  operations: {
    GET: {
      summary: 'The audit log as a CSV file (admin), with the filters of /admin/logs (actor by name, e-mail or number, action or "user." prefix, object type and id, Taiwan days)',
      description:
        'Every matching entry, newest first, streamed; the action and object type in the caller’s language, `details` as JSON text and the client address of logins in its own column. `actor` matches a name or e-mail (all words) or a user number; `actorId` (a number) still works. A UTF-8 byte order mark; ' +
        'column headers in the caller’s language; a text cell starting with =, +, -, @, a tab or a carriage return is prefixed with a single quote.',
      auth: { roles: ['admin'] },
      query: auditExportQuerySchema,
      produces: 'text/csv',
      data: csvFile,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ request, session, query }) => csvResponse(request, await exportAuditLog(session.user, query)),
});
export const loader = handlers.loader;
export const action = handlers.action;
