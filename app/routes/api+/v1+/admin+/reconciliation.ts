import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { reconciliationLatestData, reconciliationRunResultData } from '~/schemas/admin-finance';
import { latestReconciliation, runReconciliationNow } from '~/services/payments/reconciliation.server';

export const contract = defineApi({
  path: '/api/v1/admin/reconciliation',
  tags: ['admin', 'finance'],
  operations: {
    GET: {
      summary: 'The latest reconciliation run (admin): the payment provider’s view of the period’s payments against ours and the ledger',
      description:
        'The daily job and POST here each store a run. Mismatches: `provider_not_paid` (we recorded money taken, the provider says unpaid or failed), `amount_differs`, ' +
        '`stray_payment` (the provider took money for a payment we recorded failed or expired), `ledger_differs`. Payments the provider could not be asked about are ' +
        'counted in `unreachable`, not as mismatches. `run` is null before the first run.',
      auth: { roles: ['admin'] },
      data: reconciliationLatestData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
    POST: {
      summary: 'Run the reconciliation now (admin): payments opened or changed in the last 48 hours; stored and audited',
      auth: { roles: ['admin'] },
      data: reconciliationRunResultData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => ({ run: await latestReconciliation(session.user) }),
  POST: async ({ session }) => ({ run: await runReconciliationNow(session.user) }),
});
export const loader = handlers.loader;
export const action = handlers.action;
