import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Stat } from '~/components/dashboard';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/auth.server';
import { pageMeta } from '~/lib/meta';
import { travelerDashboard } from '~/services/dashboards.server';

/** /traveler — the traveler's main page (SPEC §2): their numbers and the ways on from here. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'traveler');
  const [stats, t] = await Promise.all([travelerDashboard(user.id), getFixedT(request)]);
  return { name: user.name, isEmailVerified: user.isEmailVerified, stats, title: t('account.traveler.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['account'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function TravelerHome() {
  const { name, isEmailVerified, stats } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="dashboard">
      <header>
        <h1>{t('account.traveler.title')}</h1>
        <p className="dashboard-intro">{t('account.traveler.welcome', { name })}</p>
      </header>

      {isEmailVerified ? null : (
        <div className="notice-card" role="note" data-testid="verify-reminder">
          <p>
            <strong>{t('account.traveler.verifyTitle')}</strong>
            {t('account.traveler.verifyText')}
          </p>
          <Link to="/me" className="button button-small">
            {t('account.traveler.verifyAction')}
          </Link>
        </div>
      )}

      <section className="dashboard-section" aria-labelledby="traveler-stats">
        <h2 id="traveler-stats">{t('account.traveler.stats')}</h2>
        <ul className="stat-grid stat-grid-3">
          <Stat label={t('account.traveler.orders')} value={stats.orders} to="/orders" testId="stat-orders" />
          <Stat label={t('account.traveler.favorites')} value={stats.favorites} to="/favorites" testId="stat-favorites" />
          <Stat label={t('account.traveler.reviewsGiven')} value={stats.reviewsGiven} to="/me?tab=reviews" testId="stat-reviews" />
        </ul>
      </section>

      <p className="dashboard-intro">{t('account.traveler.intro')}</p>
      <div className="dashboard-actions">
        <Link to="/guides" className="button">
          {t('account.traveler.findGuides')}
        </Link>
        <Link to="/me" className="button button-secondary">
          {t('account.traveler.profile')}
        </Link>
      </div>
    </div>
  );
}
