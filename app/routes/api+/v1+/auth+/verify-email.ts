import { limitLog } from '~/http/request-context.server';
import { apiHandlers } from '~/http/api.server';
import { clientIp } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { verifyEmailSchema } from '~/schemas/account-forms';
import { sessionData } from '~/schemas/responses';
import { toPublicUser, verifyEmail } from '~/services/accounts/accounts.server';

export const contract = defineApi({
  path: '/api/v1/auth/verify-email',
  tags: ['auth'],
  operations: {
    POST: {
      summary: 'Confirm the address with the mailed code; answers a bearer token (now logged in)',
      auth: 'public',
      body: verifyEmailSchema,
      data: sessionData,
      errors: ['INVALID_CODE', 'CODE_EXPIRED', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ request, context, body }) => {
    const { user, login } = await verifyEmail(body, 'api', { ip: clientIp(context), limits: limitLog(request) });
    return { token: login!.token!, user: toPublicUser(user), expiresAt: login!.session.expiresAt.toISOString() };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
