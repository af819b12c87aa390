import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Stars } from '~/components/stars';
import { Stat, StatusPill } from '~/components/dashboard';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/session.server';
import { formatNtd } from '~/lib/money';
import { pageMeta } from '~/lib/meta';
import { guideDashboard } from '~/services/booking/dashboards.server';
import { slotWithHours } from '~/lib/time-slots';

/**
 * /guide — the guide center (SPEC §2 labels; issue 9): orders waiting and done, rating, service time, recent
 * orders (the same service as GET /api/v1/guides/{id}/recent-orders). A guide who is not ID-verified sees the
 * lock and the way to /id-verification (opening slots and photos wait for it).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'guide');
  const [stats, t] = await Promise.all([guideDashboard(user.id), getFixedT(request)]);
  return { name: user.name, guideStatus: user.guideStatus, isIdVerified: user.isIdVerified, stats, title: t('account.guide.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['account', 'discover', 'search'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function GuideCenter() {
  const { name, guideStatus, isIdVerified, stats } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  return (
    <div className="dashboard">
      <header>
        <h1>{t('account.guide.title')}</h1>
        <p className="dashboard-intro">{t('account.guide.welcome', { name })}</p>
      </header>

      {isIdVerified ? null : (
        <div className="notice-card notice-locked" role="note" data-testid="id-lock">
          <svg className="lock-icon" viewBox="0 0 24 24" width="28" height="28" aria-hidden="true" focusable="false">
            <rect x="4.5" y="10.5" width="15" height="10" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
            <path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" fill="none" stroke="currentColor" strokeWidth="2" />
          </svg>
          <p>
            <strong>{t('discover.guideCenter.lockedTitle')}</strong>
            {t('discover.guideCenter.lockedText')}
          </p>
          <Link to="/id-verification" className="button button-small">
            {t('discover.guideCenter.goVerify')}
          </Link>
        </div>
      )}

      {guideStatus === 'suspended' ? (
        <div className="notice-card" role="note">
          <p>{t('search.guideSuspended')}</p>
        </div>
      ) : null}

      <section className="dashboard-section" aria-labelledby="guide-stats">
        <h2 id="guide-stats">{t('account.guide.stats')}</h2>
        <ul className="stat-grid">
          <Stat label={t('account.guide.pendingOrders')} value={stats.pendingOrders} to="/orders" testId="stat-pending" />
          <Stat label={t('account.guide.completedOrders')} value={stats.completedOrders} to="/orders" testId="stat-completed" />
          <Stat
            label={t('account.guide.averageRating')}
            testId="stat-rating"
            value={
              stats.averageRating === null ? (
                <span className="stat-empty">{t('account.guide.noRating')}</span>
              ) : (
                <>
                  {stats.averageRating.toFixed(1)}
                  <Stars rating={stats.averageRating} />
                </>
              )
            }
          />
          <Stat label={t('account.guide.reviewCount')} value={stats.reviewCount} to="/me?tab=reviews" testId="stat-reviews" />
        </ul>
      </section>

      <div className="dashboard-actions">
        <Link to="/guide-availability" className="button">
          {t('account.guide.serviceTime')}
        </Link>
        <Link to="/me" className="button button-secondary">
          {t('account.guide.profile')}
        </Link>
      </div>

      <section className="dashboard-section" aria-labelledby="guide-recent">
        <h2 id="guide-recent">{t('account.guide.recentOrders')}</h2>
        {stats.recentOrders.length === 0 ? (
          <p className="empty">{t('account.guide.noOrders')}</p>
        ) : (
          <ul className="recent-orders" data-testid="recent-orders">
            {stats.recentOrders.map((order) => (
              <li key={order.id}>
                <Link to={`/orders/${order.id}`} className="recent-order" aria-label={t('account.guide.viewOrder', { id: order.id })}>
                  <span className="recent-order-title">
                    {t('account.guide.orderNumber', { id: order.id })} · {order.traveler.name}
                  </span>
                  <span className="recent-order-meta">
                    {dateFormat.format(new Date(`${order.date}T00:00:00Z`))} {slotWithHours(t, order.timeSlot)} ·{' '}
                    {t('account.guide.people', { count: order.numberOfPeople })} · {formatNtd(order.totalPrice, i18n.language)}
                  </span>
                  <StatusPill status={order.status} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
