import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { payoutsData } from '~/schemas/earnings';
import { myPayouts } from '~/services/payments/earnings.server';

export const contract = defineApi({
  path: '/api/v1/payouts',
  tags: ['payouts'],
  operations: {
    GET: {
      summary: 'The calling guide’s payouts, newest first',
      description:
        'Each payout: when it was made, its amount, status (in_transit: sent to the bank; paid, with `paidAt`), how many orders it pays and ' +
        'the bank account it went to (the number masked). The weekly batch makes them. Guides only (403 otherwise).',
      auth: { roles: ['guide'] },
      cache: 'no-store',
      data: payoutsData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => myPayouts(session.user),
});
export const loader = handlers.loader;
