import type { ActionFunctionArgs } from '@remix-run/node';
import { apiRoute, ok } from '~/http/api.server';
import { requireApiSession } from '~/http/auth.server';
import { logout } from '~/services/auth.server';

/** POST /api/v1/auth/logout (bearer): revokes the session, so the same token answers 401 afterwards. */
export const action = apiRoute(async ({ request }: ActionFunctionArgs) => {
  const session = await requireApiSession(request);
  await logout(session.id);
  return ok({ loggedOut: true });
});
