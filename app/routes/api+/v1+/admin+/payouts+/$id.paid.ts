import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { markPayoutPaidData } from '~/schemas/admin-finance';
import { idParamOr } from '~/services/platform/errors.server';
import { adminMarkPayoutPaid } from '~/services/payments/finance-admin.server';

export const contract = defineApi({
  path: '/api/v1/admin/payouts/{id}/paid',
  tags: ['admin', 'finance'],
  operations: {
    POST: {
      summary: 'Mark a payout as paid: its bank transfer arrived (admin); audited',
      description:
        'Moves the payout’s amount from payouts in transit to the guide’s paid out in the ledger (one entry per payout, however often or however many at once ' +
        'this is called). A payout already paid answers 200 with `changed: false` and records nothing.',
      auth: { roles: ['admin'] },
      data: markPayoutPaidData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ session, params }) => adminMarkPayoutPaid(session.user, idParamOr('NOT_FOUND', params.id)),
});
export const loader = handlers.loader;
export const action = handlers.action;
