import { limitLog } from '~/http/request-context.server';
import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { clientIp } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { resendVerificationSchema } from '~/schemas/account-forms';
import { resendVerification } from '~/services/accounts/accounts.server';
import { RESEND_COOLDOWN_SECONDS } from '~/services/accounts/email-codes.server';

export const contract = defineApi({
  path: '/api/v1/auth/resend-verification',
  tags: ['auth'],
  operations: {
    POST: {
      summary: 'Mail a new verification code (one per 60 s); answers alike for every address',
      description: 'At most one per email address and 60 s (429 RESEND_COOLDOWN), and 10 per client address and minute over all addresses (429 RATE_LIMIT_EXCEEDED with Retry-After).',
      auth: 'public',
      body: resendVerificationSchema,
      data: z.object({ sent: z.literal(true), cooldownSeconds: z.int() }),
      errors: ['RESEND_COOLDOWN', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ request, body, context }) => {
    await resendVerification(body.email, { ip: clientIp(context), limits: limitLog(request) });
    return { sent: true as const, cooldownSeconds: RESEND_COOLDOWN_SECONDS };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
