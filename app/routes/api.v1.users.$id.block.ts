import type { ActionFunctionArgs } from '@remix-run/node';
import { apiRoute, ok } from '~/lib/api.server';
import { requireApiRole } from '~/lib/auth.server';
import { parseUserId, toAdminUser, blockUser } from '~/services/user-admin.server';

/** POST /api/v1/users/{id}/block (admin): status suspended, every session of the account ends at once → data.user. */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const { user: actor } = await requireApiRole(request, 'admin');
  const user = await blockUser(actor, parseUserId(params.id));
  return ok({ user: toAdminUser(user) });
});
