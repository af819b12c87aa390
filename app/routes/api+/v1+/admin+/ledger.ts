import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { ledgerOverviewData } from '~/schemas/admin-finance';
import { ledgerOverview } from '~/services/payments/finance-admin.server';

export const contract = defineApi({
  path: '/api/v1/admin/ledger',
  tags: ['admin', 'finance'],
  operations: {
    GET: {
      summary: 'The ledger’s balances (admin): the figures of /admin/finance',
      description:
        'Every balance is a sum of the double-entry ledger’s postings (docs/decisions/038), whole NT$. The provider’s two accounts run negative in the ledger and are ' +
        'given here negated (what was captured, what is authorised). `balanced` is true when all accounts together sum to 0.',
      auth: { roles: ['admin'] },
      data: ledgerOverviewData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => ledgerOverview(session.user),
});
export const loader = handlers.loader;
export const action = handlers.action;
