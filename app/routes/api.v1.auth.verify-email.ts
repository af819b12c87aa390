import type { ActionFunctionArgs } from '@remix-run/node';
import { apiRoute, ok, parseBody } from '~/http/api.server';
import { clientIp } from '~/http/auth.server';
import { verifyEmailSchema } from '~/schemas/auth';
import { toPublicUser, verifyEmail } from '~/services/auth.server';

/** POST /api/v1/auth/verify-email {email,code} → data.token and data.user (now verified and logged in). */
export const action = apiRoute(async ({ request, context }: ActionFunctionArgs) => {
  const input = await parseBody(request, verifyEmailSchema);
  const { user, login } = await verifyEmail(input, 'api', { ip: clientIp(context) });
  return ok({ token: login?.token, user: toPublicUser(user) });
});
