import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiRoute, ok } from '~/http/api.server';
import { requireApiSession } from '~/http/auth.server';
import { assertCanAccessUser, getUserStats, userIdParam } from '~/services/users.server';

/** GET /api/v1/users/:id/stats → data = the stats object of SPEC §3 (the user themself or an admin). */
export const loader = apiRoute(async ({ request, params }: LoaderFunctionArgs) => {
  const { user: viewer } = await requireApiSession(request);
  const user = await assertCanAccessUser(viewer, userIdParam(params.id));
  return ok(await getUserStats(user.id));
});
