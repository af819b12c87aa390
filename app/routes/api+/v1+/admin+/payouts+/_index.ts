import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { financePayoutListData, financePayoutQuerySchema } from '~/schemas/admin-finance';
import { listPayoutsForAdmin } from '~/services/payments/finance-admin.server';

export const contract = defineApi({
  path: '/api/v1/admin/payouts',
  tags: ['admin', 'finance'],
  operations: {
    GET: {
      summary: 'The guides’ payouts (admin), newest first, 20 a page, the bank account masked: the list of /admin/finance/payouts',
      auth: { roles: ['admin'] },
      query: financePayoutQuerySchema,
      data: financePayoutListData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, query }) => listPayoutsForAdmin(session.user, query),
});
export const loader = handlers.loader;
export const action = handlers.action;
