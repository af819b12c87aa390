import { limitLog } from '~/http/request-context.server';
import { apiHandlers } from '~/http/api.server';
import { clientIp } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { resetPasswordSchema } from '~/schemas/account-forms';
import { passwordResetData } from '~/schemas/responses';
import { resetPassword } from '~/services/accounts/password-reset.server';

export const contract = defineApi({
  path: '/api/v1/auth/reset-password',
  tags: ['auth'],
  operations: {
    POST: {
      summary: 'Set a new password with the mailed reset code; every session of the account ends',
      auth: 'public',
      body: resetPasswordSchema,
      data: passwordResetData,
      errors: ['INVALID_CODE', 'CODE_EXPIRED', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ request, context, body }) => {
    await resetPassword(body, { ip: clientIp(context), limits: limitLog(request) });
    return { reset: true as const };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
