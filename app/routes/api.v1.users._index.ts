import type { LoaderFunctionArgs } from '@remix-run/node';
import { apiRoute, ok, parseValue } from '~/http/api.server';
import { requireApiRole } from '~/http/auth.server';
import { userListQuerySchema } from '~/schemas/user-admin';
import { listUsers } from '~/services/user-admin.server';

/**
 * GET /api/v1/users?page&limit&sortBy&sortOrder&type&search (admin) → data.users, pagination, filters,
 * sorting. Archived accounts are listed by /api/v1/users/archived/list instead.
 */
export const loader = apiRoute(async ({ request }: LoaderFunctionArgs) => {
  await requireApiRole(request, 'admin');
  const query = parseValue(userListQuerySchema, Object.fromEntries(new URL(request.url).searchParams));
  return ok(await listUsers(query));
});
