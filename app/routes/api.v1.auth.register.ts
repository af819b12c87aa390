import type { ActionFunctionArgs } from '@remix-run/node';
import { apiLocale, apiRoute, ok, parseBody } from '~/http/api.server';
import { clientIp } from '~/http/auth.server';
import { registerSchema } from '~/schemas/auth';
import { register, toPublicUser } from '~/services/auth.server';

/** POST /api/v1/auth/register → 201 data.user; a 6-digit code is mailed (SPEC §7). */
export const action = apiRoute(async ({ request, context }: ActionFunctionArgs) => {
  const input = await parseBody(request, registerSchema);
  const user = await register(input, { ip: clientIp(context), locale: apiLocale(request) });
  return ok({ user: toPublicUser(user), requiresVerification: true }, { status: 201 });
});
