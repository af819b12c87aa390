import { z } from 'zod';
import { apiHandlers } from '~/http/api.server';
import { defineApi } from '~/http/contract';
import { resendVerificationSchema } from '~/schemas/auth';
import { resendVerification } from '~/services/auth.server';
import { RESEND_COOLDOWN_SECONDS } from '~/services/email-codes.server';

export const contract = defineApi({
  path: '/api/v1/auth/resend-verification',
  tags: ['auth'],
  operations: {
    POST: {
      summary: 'Mail a new verification code (one per 60 s); answers alike for every address',
      auth: 'public',
      body: resendVerificationSchema,
      data: z.object({ sent: z.literal(true), cooldownSeconds: z.int() }),
      errors: ['RESEND_COOLDOWN', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ body }) => {
    await resendVerification(body.email);
    return { sent: true as const, cooldownSeconds: RESEND_COOLDOWN_SECONDS };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
