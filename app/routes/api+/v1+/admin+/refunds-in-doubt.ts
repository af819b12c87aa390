import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { refundsInDoubtData, resolveRefundSchema } from '~/schemas/admin-finance';
import { refundsInDoubt, resolveRefundInDoubt } from '~/services/payments/refund-attempts.server';

export const contract = defineApi({
  path: '/api/v1/admin/refunds-in-doubt',
  tags: ['admin', 'finance'],
  operations: {
    GET: {
      summary: 'Refunds whose outcome at the payment provider is unknown (admin), newest first',
      description:
        'A refund whose call got no answer (a timeout, a cut-off answer, a crash during the call) is never sent again by itself: a second refund would pay the ' +
        'traveler twice. An admin looks the trade up in the provider’s back office and settles it with POST.',
      auth: { roles: ['admin'] },
      data: refundsInDoubtData,
      errors: ['UNAUTHORIZED', 'FORBIDDEN'],
    },
    POST: {
      summary: 'Settle a refund in doubt (admin): the provider refunded it, or it did not; audited',
      description:
        '`refunded` records the refund now (the payment and its ledger entry, under the refund’s own key); `not_refunded` sends it to the provider again. ' +
        'The settlement that waited for it follows either way. A refund no longer in doubt answers 404.',
      auth: { roles: ['admin'] },
      body: resolveRefundSchema.omit({ intent: true }),
      data: z.object({ ok: z.literal(true) }),
      errors: ['UNAUTHORIZED', 'FORBIDDEN', 'VALIDATION_ERROR', 'NOT_FOUND', 'INVALID_TRANSITION'],
    },
  },
});

const handlers = apiHandlers(contract, {
  GET: async ({ session }) => ({ refunds: await refundsInDoubt(session.user) }),
  POST: async ({ session, body }) => {
    await resolveRefundInDoubt(session.user, body);
    return { ok: true as const };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
