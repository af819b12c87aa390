import type { ActionFunctionArgs } from '@remix-run/node';
import { apiRoute, ok } from '~/http/api.server';
import { requireApiRole } from '~/http/auth.server';
import { toAdminUser, restoreUser } from '~/services/user-admin.server';
import { userIdParam } from '~/services/users.server';

/** PUT /api/v1/users/{id}/restore (admin): brings an archived account back → data.user. Idempotent. */
export const action = apiRoute(async ({ request, params }: ActionFunctionArgs) => {
  const { user: actor } = await requireApiRole(request, 'admin');
  const user = await restoreUser(actor, userIdParam(params.id));
  return ok({ user: toAdminUser(user) });
});
