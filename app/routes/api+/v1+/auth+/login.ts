import { limitLog } from '~/http/request-context.server';
import { apiHandlers, apiLocale } from '~/http/api.server';
import { clientIp } from '~/http/session.server';
import { defineApi } from '~/http/contract';
import { loginSchema } from '~/schemas/account-forms';
import { sessionData } from '~/schemas/responses';
import { login, toPublicUser } from '~/services/accounts/accounts.server';

export const contract = defineApi({
  path: '/api/v1/auth/login',
  tags: ['auth'],
  operations: {
    POST: {
      summary: 'Log in with email and password; answers a bearer token',
      description: 'At most 10 failed attempts a minute per account and address (429 with Retry-After).',
      auth: 'public',
      body: loginSchema,
      data: sessionData,
      errors: ['INVALID_CREDENTIALS', 'EMAIL_NOT_VERIFIED', 'ACCOUNT_BLOCKED', 'RATE_LIMIT_EXCEEDED'],
    },
  },
});

const handlers = apiHandlers(contract, {
  POST: async ({ request, context, body }) => {
    const result = await login(body, 'api', { ip: clientIp(context), limits: limitLog(request), locale: apiLocale(request) });
    return { token: result.token, user: toPublicUser(result.user), expiresAt: result.session.expiresAt.toISOString() };
  },
});
export const loader = handlers.loader;
export const action = handlers.action;
