import type { ActionFunctionArgs } from '@remix-run/node';
import { apiLocale, apiRoute, ok, parseBody } from '~/http/api.server';
import { clientIp } from '~/http/auth.server';
import { loginSchema } from '~/schemas/auth';
import { login, toPublicUser } from '~/services/auth.server';

/** POST /api/v1/auth/login {email,password} → data.token (JWT) and data.user. */
export const action = apiRoute(async ({ request, context }: ActionFunctionArgs) => {
  const input = await parseBody(request, loginSchema);
  const result = await login(input, 'api', { ip: clientIp(context), locale: apiLocale(request) });
  return ok({ token: result.token, user: toPublicUser(result.user), expiresAt: result.session.expiresAt.toISOString() });
});
