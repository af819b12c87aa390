import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ORDER_STATUS_VALUES, Stat } from '~/components/dashboard';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/auth.server';
import { pageMeta } from '~/lib/meta';
import { adminDashboard } from '~/services/dashboards.server';

/** /admin — the admin dashboard: who is here, what waits for a decision, and the admin pages (SPEC §2). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const [stats, t] = await Promise.all([adminDashboard(), getFixedT(request)]);
  return { stats, title: t('account.admin.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['account'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

const ADMIN_PAGES = [
  ['/admin/users', 'users'],
  ['/admin/users/archived', 'archivedUsers'],
  ['/admin/orders', 'orders'],
  ['/admin/guides', 'guides'],
  ['/admin/reviews', 'reviews'],
  ['/admin/photo-review', 'photoReview'],
  ['/admin/photos', 'photos'],
  ['/admin/id-verification', 'idVerification'],
  ['/admin/stats', 'stats'],
  ['/admin/banners', 'banners'],
  ['/admin/terms', 'terms'],
  ['/admin/logs', 'logs'],
] as const;

export default function AdminDashboard() {
  const { stats } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="dashboard">
      <header>
        <h1>{t('account.admin.title')}</h1>
      </header>

      <section className="dashboard-section" aria-labelledby="admin-queues">
        <h2 id="admin-queues">{t('account.admin.reviewQueues')}</h2>
        <ul className="stat-grid stat-grid-3">
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
        </ul>
      </section>

      <div className="admin-columns">
        <section className="dashboard-section" aria-labelledby="admin-users">
          <h2 id="admin-users">{t('account.admin.users')}</h2>
          <dl className="count-list" data-testid="users-by-type">
            {(['traveler', 'guide', 'admin'] as const).map((type) => (
              <Count key={type} label={t(`account.types.${type}`)} value={stats.usersByType[type]} />
            ))}
            <Count label={t('account.admin.blocked')} value={stats.blockedUsers} />
            <Count label={t('account.admin.archived')} value={stats.archivedUsers} />
          </dl>
        </section>
        <section className="dashboard-section" aria-labelledby="admin-orders">
          <h2 id="admin-orders">{t('account.admin.orders')}</h2>
          <dl className="count-list" data-testid="orders-by-status">
            {ORDER_STATUS_VALUES.map((status) => (
              <Count key={status} label={t(`account.orderStatus.${status}`)} value={stats.ordersByStatus[status]} />
            ))}
          </dl>
        </section>
      </div>

      <nav className="dashboard-section" aria-labelledby="admin-pages">
        <h2 id="admin-pages">{t('account.admin.pages')}</h2>
        <ul className="admin-links">
          {ADMIN_PAGES.map(([to, key]) => (
            <li key={to}>
              <Link to={to}>{t(`account.admin.links.${key}`)}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}
