import type { ActionFunctionArgs } from '@remix-run/node';
import { apiRoute, ok } from '~/http/api.server';
import { requireApiRole } from '~/http/auth.server';
import { toAdminUser, blockUser } from '~/services/user-admin.server';
import { userIdParam } from '~/services/users.server';

/** POST /api/v1/users/{id}/block (admin): status suspended, every session of the account ends at once → data.user. */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const { user: actor } = await requireApiRole(request, 'admin');
  const user = await blockUser(actor, userIdParam(params.id));
  return ok({ user: toAdminUser(user) });
});
