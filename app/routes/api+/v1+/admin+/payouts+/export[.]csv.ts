import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { csvResponse } from '~/http/csv.server';
import { csvFile } from '~/schemas/exports';
import { exportPayoutsInTransit } from '~/services/payments/finance-admin.server';

export const contract = defineApi({
  path: '/api/v1/admin/payouts/export.csv',
  tags: ['admin', 'finance', 'exports'],
  operations: {
    GET: {
      summary: 'The payouts in transit as a bank-transfer CSV file (admin): bank code, full account number, guide, amount, payout number',
      description:
        'For the bank’s bulk transfer: the only place the full account numbers are shown. Asking for it is recorded in the audit log (`export.payouts`). A UTF-8 byte order mark; ' +
        'column headers in the caller’s language; a text cell starting with =, +, -, @, a tab or a carriage return is prefixed with a single quote (docs/decisions/027).',
      auth: { roles: ['admin'] },
      produces: 'text/csv',
      data: csvFile,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ request, session }) => csvResponse(request, await exportPayoutsInTransit(session.user)),
});
export const loader = handlers.loader;
export const action = handlers.action;
