import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { earningsData } from '~/schemas/earnings';
import { myEarnings } from '~/services/payments/earnings.server';

export const contract = defineApi({
  path: '/api/v1/earnings',
  tags: ['payouts'],
  operations: {
    GET: {
      summary: 'The calling guide’s earnings from the ledger: per order price, commission, net and where it stands; the totals',
      description:
        'Each order with money (captured or settled): price = captured − refunded, the platform’s commission (while the tour is not completed: ' +
        'what it will be at the order’s percent), net, and state: held (tour not completed), payable_after (settled; payable after `payableAfter`, ' +
        'PAYOUT_HOLD_DAYS after completion), payable (in the next weekly payout), in_payout (`payoutId`, sent to the bank), paid (`paidAt`). ' +
        'Totals: held, payable (the guide’s payable balance) and of it payableNow, inTransit, paidOut. Guides only (403 otherwise).',
      auth: { roles: ['guide'] },
      cache: 'no-store',
      data: earningsData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => myEarnings(session.user),
});
export const loader = handlers.loader;
