import type { ActionFunctionArgs } from '@remix-run/node';
import { apiRoute, ok } from '~/lib/api.server';
import { requireApiRole } from '~/lib/auth.server';
import { parseUserId, toAdminUser, unblockUser } from '~/services/user-admin.server';

/** POST /api/v1/users/{id}/unblock (admin): status active again; the person logs in anew → data.user. */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const { user: actor } = await requireApiRole(request, 'admin');
  const user = await unblockUser(actor, parseUserId(params.id));
  return ok({ user: toAdminUser(user) });
});
