import { limitLog } from '~/http/request-context.server';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { payoutAccountData, payoutAccountSchema } from '~/schemas/earnings';
import { changePayoutAccount, myPayoutAccount } from '~/services/payments/earnings.server';

export const contract = defineApi({
  path: '/api/v1/payout-account',
  tags: ['payouts'],
  operations: {
    GET: {
      summary: 'The calling guide’s payout bank account, the number masked (null when none is set)',
      auth: { roles: ['guide'] },
      cache: 'no-store',
      data: payoutAccountData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
    PUT: {
      summary: 'Set or change the payout bank account: `{bankCode, accountNumber, password}`',
      description:
        'bankCode: 3 digits; accountNumber: 6 to 16 digits (spaces and dashes are dropped); password: the guide’s current password. ' +
        'A wrong password answers 401 INVALID_CREDENTIALS and changes nothing (five wrong ones a minute, then 429). The answer shows the ' +
        'number masked; payouts already sent keep the account they were sent to. Guides only (403 otherwise).',
      auth: { roles: ['guide'] },
      body: payoutAccountSchema,
      data: payoutAccountData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'INVALID_CREDENTIALS', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => myPayoutAccount(session.user),
  PUT: async ({ request, session, body }) => changePayoutAccount(session.user, body, undefined, limitLog(request)),
});
export const loader = handlers.loader;
export const action = handlers.action;
