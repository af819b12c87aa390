import { limitLog } from '~/http/request-context.server';
import { apiHandlers } from '~/http/api.server';
import { clientIp } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { forgotPasswordSchema } from '~/schemas/account-forms';
import { passwordResetRequestedData } from '~/schemas/responses';
import { requestPasswordReset } from '~/services/accounts/password-reset.server';

export const contract = defineApi({
  path: '/api/v1/auth/forgot-password',
  tags: ['auth'],
  operations: {
    POST: {
      summary: 'Mail a password reset code; answers alike for every address',
      description:
        'The code (6 digits, 15 minutes, 5 tries) goes to the address when it belongs to an account that may log in. ' +
        'Unknown, blocked and real addresses get the same answer, including 429 RESEND_COOLDOWN on a second request within 60 s.',
      auth: 'public',
      body: forgotPasswordSchema,
      data: passwordResetRequestedData,
      errors: ['RESEND_COOLDOWN', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ request, context, body }) => {
    await requestPasswordReset(body.email, { ip: clientIp(context), limits: limitLog(request), requestId: context.requestId });
    return { sent: true as const };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
