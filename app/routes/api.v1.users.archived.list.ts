import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiRoute, ok, parseValue } from '~/http/api.server';
import { requireApiRole } from '~/http/auth.server';
import { userListQuerySchema } from '~/schemas/user-admin';
import { listArchivedUsers } from '~/services/user-admin.server';

/**
 * GET /api/v1/users/archived/list (admin): archived accounts, same query and answer as GET /api/v1/users.
 * Two static segments, so Remix ranks it above /api/v1/users/:id/... (tests/integration/user-admin.test.ts).
 */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireApiRole(request, 'admin');
  const query = parseValue(userListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return ok(await listArchivedUsers(query));
});
