import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Stat } from '~/components/dashboard';
import { ACCOUNT_TYPES } from '~/lib/account-types';
import { ORDER_STATUSES } from '~/lib/order-status';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/session.server';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { adminDashboardFigures } from '~/services/admin/admin-dashboard.server';

/** /admin — the admin dashboard: who is here, what waits for a decision, and the admin pages (SPEC §2). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const [stats, t] = await Promise.all([adminDashboardFigures(), getFixedT(request)]);
  return { stats, title: t('account.admin.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['account', 'admin', 'reports'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

/** The admin pages and their link's words (most in account.json; the finance area's own in admin.json). */
const ADMIN_PAGES = [
  ['/admin/users', 'account.admin.links.users'],
  ['/admin/users/archived', 'account.admin.links.archivedUsers'],
  ['/admin/orders', 'account.admin.links.orders'],
  ['/admin/finance', 'admin.finance.nav'],
  ['/admin/guides', 'account.admin.links.guides'],
  ['/admin/reviews', 'account.admin.links.reviews'],
  ['/admin/photo-review', 'account.admin.links.photoReview'],
  ['/admin/photos', 'account.admin.links.photos'],
  ['/admin/id-verification', 'account.admin.links.idVerification'],
  ['/admin/banners', 'account.admin.links.banners'],
  ['/admin/reports', 'account.admin.links.reports'],
  ['/admin/terms', 'account.admin.links.terms'],
  ['/admin/stats', 'account.admin.links.stats'],
  ['/admin/logs', 'account.admin.links.logs'],
] as const;

export default function AdminDashboard() {
  const { stats } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  return (
    <div className="dashboard">
      <header>
        <h1>{t('account.admin.title')}</h1>
      </header>

      <section className="dashboard-section" aria-labelledby="admin-queues">
        <h2 id="admin-queues">{t('account.admin.reviewQueues')}</h2>
        <ul className="stat-grid stat-grid-3 stat-grid-4">
          <Stat
            label={t('account.admin.awaitingReview')}
            value={stats.awaitingReview}
            testId="stat-awaiting-review"
          />
          <Stat
            label={t('account.admin.pendingIdVerifications')}
            value={stats.pendingIdVerifications}
            to="/admin/id-verification"
            testId="stat-pending-id"
          />
          <Stat
            label={t('account.admin.photosAwaitingReview')}
            value={stats.photosAwaitingReview}
            to="/admin/photo-review"
            testId="stat-pending-photos"
          />
          <Stat label={t('reports.dashboard')} value={stats.reportedMessages} to="/admin/reports" testId="stat-reported-messages" />
        </ul>
      </section>

      <div className="admin-columns">
        <section className="dashboard-section" aria-labelledby="admin-users">
          <h2 id="admin-users">{t('account.admin.users')}</h2>
          <dl className="count-list" data-testid="users-by-type">
            {ACCOUNT_TYPES.map((type) => (
              <Count key={type} label={t(`account.types.${type}`)} value={stats.usersByType[type]} to={`/admin/users?type=${type}`} />
            ))}
            <Count label={t('account.admin.blocked')} value={stats.blockedUsers} to="/admin/users?status=suspended" />
            <Count label={t('account.admin.archived')} value={stats.archivedUsers} to="/admin/users/archived" />
          </dl>
          <h3 className="h4">{t('admin.dashboard.newThisWeek')}</h3>
          <dl className="count-list" data-testid="new-this-week">
            {ACCOUNT_TYPES.map((type) => (
              <Count key={type} label={t(`account.types.${type}`)} value={stats.newThisWeek[type]} />
            ))}
          </dl>
        </section>
        <section className="dashboard-section" aria-labelledby="admin-orders">
          <h2 id="admin-orders">{t('account.admin.orders')}</h2>
          <dl className="count-list" data-testid="orders-by-status">
            {ORDER_STATUSES.map((status) => (
              <Count key={status} label={t(`account.orderStatus.${status}`)} value={stats.ordersByStatus[status]} to={`/admin/orders?status=${status}`} />
            ))}
          </dl>
        </section>
      </div>

      <section className="dashboard-section" aria-labelledby="admin-month">
        <h2 id="admin-month">{t('admin.dashboard.month')}</h2>
        <div className="admin-table-wrap">
          <table className="admin-table" data-testid="month-figures">
            <thead>
              <tr>
                <td />
                <th scope="col">{t('admin.dashboard.thisMonth')}</th>
                <th scope="col">{t('admin.dashboard.lastMonth')}</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">{t('admin.dashboard.bookings')}</th>
                <td>{stats.thisMonth.bookings}</td>
                <td>{stats.lastMonth.bookings}</td>
              </tr>
              <tr>
                <th scope="row">{t('admin.dashboard.grossValue')}</th>
                <td>{formatNtd(stats.thisMonth.grossValue, i18n.language)}</td>
                <td>{formatNtd(stats.lastMonth.grossValue, i18n.language)}</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p className="small">
          <Link to="/admin/orders">{t('account.admin.links.orders')}</Link>
        </p>
      </section>

      <nav className="dashboard-section" aria-labelledby="admin-pages">
        <h2 id="admin-pages">{t('account.admin.pages')}</h2>
        <ul className="admin-links">
          {ADMIN_PAGES.map(([to, key]) => (
            <li key={to}>
              <Link to={to}>{t(key)}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

function Count({ label, value, to }: { label: string; value: number; to?: string }) {
  return (
    <>
      <dt>{to ? <Link to={to}>{label}</Link> : label}</dt>
      <dd>{value}</dd>
    </>
  );
}
