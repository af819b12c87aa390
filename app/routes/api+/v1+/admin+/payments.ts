import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { financePaymentListData, financePaymentQuerySchema } from '~/schemas/admin-finance';
import { listPaymentsForAdmin } from '~/services/payments/finance-admin.server';

export const contract = defineApi({
  path: '/api/v1/admin/payments',
  tags: ['admin', 'finance'],
  operations: {
    GET: {
      summary: 'Every payment with what was captured and refunded of it (admin), newest first, 20 a page: the list of /admin/finance/payments',
      description:
        'A payment is one attempt to pay an order (docs/decisions/040). `status` filters by the payment’s state; `from` and `to` are Taiwan days (YYYY-MM-DD, both ' +
        'included) on the day the payment was opened. `merchantTradeNo` is our trade number at the provider, `providerTradeNo` the provider’s own.',
      auth: { roles: ['admin'] },
      query: financePaymentQuerySchema,
      data: financePaymentListData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session, query }) => listPaymentsForAdmin(session.user, query),
});
export const loader = handlers.loader;
export const action = handlers.action;
