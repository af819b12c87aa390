import type { ActionFunctionArgs } from '@remix-run/node';
import { apiRoute, ok } from '~/http/api.server';
import { requireApiRole } from '~/http/auth.server';
import { toAdminUser, unblockUser } from '~/services/user-admin.server';
import { userIdParam } from '~/services/users.server';

/** POST /api/v1/users/{id}/unblock (admin): status active again; the person logs in anew → data.user. */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const { user: actor } = await requireApiRole(request, 'admin');
  const user = await unblockUser(actor, userIdParam(params.id));
  return ok({ user: toAdminUser(user) });
});
