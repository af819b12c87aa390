/* /admin/users and /admin/users/archived (issue 22): the filter form, the table of accounts and the page links. */
import { Form, Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { ExportLink } from '~/components/export-link';
import { FilterInput, FilterSelect, filterParams } from '~/components/admin-lists';
import { PaginationNav } from '~/components/pagination';
import { formatTaipeiDate } from '~/lib/dates';
import { ACCOUNT_STATES, LISTED_USER_TYPES, SORT_ORDERS, USER_PAGE_SORTS, type AccountState } from '~/schemas/user-admin';

export interface AdminUserRow {
  id: number;
  name: string;
  email: string;
  type: (typeof LISTED_USER_TYPES)[number];
  accountState: AccountState;
  registerDate: string;
  lastLogin: string | null;
  archivedAt: string | null;
}

export interface AdminUserListProps {
  archived: boolean;
  users: AdminUserRow[];
  pagination: { page: number; totalPages: number; total: number };
  filters: { type: string; status: string; search: string; sortBy: string; sortOrder: string };
}

export function AdminUserList({ archived, users, pagination, filters }: AdminUserListProps) {
  const { t, i18n } = useTranslation();
  const basePath = archived ? '/admin/users/archived' : '/admin/users';
  const title = t(archived ? 'admin.users.archivedTitle' : 'admin.users.title');
  return (
    <div className="admin-page">
      <AdminPageHead
        title={title}
        also={archived ? { to: '/admin/users', label: t('admin.users.title') } : { to: '/admin/users/archived', label: t('admin.users.archivedTitle') }}
      />
      <Form method="get" action={basePath} className="card filter-form" role="search" aria-label={t('admin.users.filters')}>
        <FilterInput id="user-search" name="search" type="search" label={t('admin.users.search')} value={filters.search} />
        <FilterSelect
          id="user-type"
          name="type"
          label={t('admin.users.role')}
          value={filters.type}
          anyLabel={t('admin.any')}
          options={LISTED_USER_TYPES.map((v) => ({ value: v, label: t(`admin.roles.${v}`) }))}
        />
        <FilterSelect
          id="user-status"
          name="status"
          label={t('admin.users.status')}
          value={filters.status}
          anyLabel={t('admin.any')}
          options={ACCOUNT_STATES.map((v) => ({ value: v, label: t(`admin.states.${v}`) }))}
        />
        <FilterSelect
          id="user-sort"
          name="sortBy"
          label={t('admin.users.sortBy')}
          value={filters.sortBy}
          options={USER_PAGE_SORTS.map((v) => ({ value: v, label: t(`admin.users.sorts.${v}`) }))}
        />
        <FilterSelect
          id="user-order"
          name="sortOrder"
          label={t('admin.users.sortOrder')}
          value={filters.sortOrder}
          options={SORT_ORDERS.map((v) => ({ value: v, label: t(`admin.users.orders.${v}`) }))}
        />
        <button type="submit" className="button">
          {t('admin.filter')}
        </button>
      </Form>
      <p className="small muted" aria-live="polite" data-testid="user-total">
        {t('admin.users.total', { count: pagination.total })}
      </p>
      <ExportLink
        href="/api/v1/users/export.csv"
        filters={{ type: filters.type, status: filters.status, search: filters.search, archived: archived ? 'only' : undefined }}
      />
      {users.length === 0 ? (
        <p className="card empty">{t('admin.users.empty')}</p>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('admin.users.name')}</th>
                <th scope="col">{t('admin.users.role')}</th>
                <th scope="col">{t('admin.users.status')}</th>
                <th scope="col">{t('admin.users.registered')}</th>
                <th scope="col">{t(archived ? 'admin.users.archivedAt' : 'admin.users.lastLogin')}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id} data-testid={`admin-user-${u.id}`}>
                  <th scope="row">
                    <Link to={`/admin/users/${u.id}`}>{u.name}</Link>
                    <div className="small muted admin-email">{u.email}</div>
                  </th>
                  <td>{t(`admin.roles.${u.type}`)}</td>
                  <td>
                    {archived ? (
                      // An archived account is badged as such; the state it had (the list's filter) stays beside it.
                      <>
                        <span className="state-label state-archived">{t('admin.users.archived')}</span>{' '}
                        <span className="small muted">{t(`admin.states.${u.accountState}`)}</span>
                      </>
                    ) : (
                      <span className={`state-label state-${u.accountState}`}>{t(`admin.states.${u.accountState}`)}</span>
                    )}
                  </td>
                  <td>{formatTaipeiDate(u.registerDate, i18n.language)}</td>
                  <td>
                    {archived
                      ? u.archivedAt
                        ? formatTaipeiDate(u.archivedAt, i18n.language)
                        : '—'
                      : u.lastLogin
                        ? formatTaipeiDate(u.lastLogin, i18n.language)
                        : t('admin.users.never')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <PaginationNav page={pagination.page} totalPages={pagination.totalPages} basePath={basePath} params={filterParams(filters)} />
    </div>
  );
}
