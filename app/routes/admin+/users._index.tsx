import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { AdminUserList } from '~/components/admin-user-list';
import { requireRole } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { USER_LIST_PAGE_SIZE, userListQuerySchema } from '~/schemas/user-admin';
import { listUsers } from '~/services/accounts/user-admin.server';

/**
 * /admin/users (issue 22): accounts that are not archived, searched by name or e-mail (CJK-aware, like guide
 * search), filtered by role and status label, sorted, 20 a page (SPEC §9). A GET form: works with JS off.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const parsed = userListQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  // A hand-edited URL with a bad value shows the first page unfiltered rather than an error page.
  const query = { ...(parsed.success ? parsed.data : userListQuerySchema.parse({})), limit: USER_LIST_PAGE_SIZE };
  const [t, result] = await Promise.all([getFixedT(request), listUsers(query)]);
  return {
    title: t('admin.users.title'),
    users: result.users,
    pagination: result.pagination,
    filters: { type: query.type ?? '', status: query.status ?? '', search: query.search ?? '', sortBy: query.sortBy, sortOrder: query.sortOrder },
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust', 'exports'] };

export default function AdminUsers() {
  const data = useLoaderData<typeof loader>();
  return <AdminUserList archived={false} {...data} />;
}
