import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Stat, StatusPill } from '~/components/dashboard';
import { FavoriteButton } from '~/components/favorite-button';
import { GuideCard } from '~/components/guide-card';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { requireRole } from '~/http/session.server';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { travelerDashboard } from '~/services/booking/dashboards.server';
import { favoriteGuideIds } from '~/services/catalogue/favorites.server';
import { slotWithHours } from '~/lib/time-slots';

/**
 * /traveler — the traveler's main page (SPEC §2, §3 Stats; issue 9): bookings, favorite guides, reviews given,
 * total and this month's spending, the newest bookings and guides to try (never one already booked).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'traveler');
  const [locale, t] = await Promise.all([getLocale(request), getFixedT(request)]);
  const dashboard = await travelerDashboard(user.id, undefined, locale);
  const favorites = [...(await favoriteGuideIds(user.id, dashboard.recommendations.map((g) => g.id)))];
  return { name: user.name, isEmailVerified: user.isEmailVerified, ...dashboard, favorites, title: t('account.traveler.title') };
}

/** This page's words beyond common.json (app/i18n/bundles.ts). */
export const handle: I18nHandle = { i18n: ['account', 'discover', 'search'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function TravelerHome() {
  const { name, isEmailVerified, stats, recentBookings, recommendations, favorites } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const money = (n: number) => formatNtd(n, i18n.language);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeZone: 'UTC' });
  const favoriteSet = new Set(favorites);
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
          <Stat label={t('account.traveler.orders')} value={stats.bookingCount} to="/orders" testId="stat-orders" />
          <Stat label={t('account.traveler.favorites')} value={stats.favoriteGuides} to="/favorites" testId="stat-favorites" />
          <Stat label={t('account.traveler.reviewsGiven')} value={stats.reviewCount} to="/me?tab=reviews" testId="stat-reviews" />
        </ul>
        <ul className="stat-grid stat-grid-2 spend-grid">
          <Stat label={t('discover.traveler.totalSpent')} value={money(stats.totalSpent)} testId="stat-spent" />
          <Stat label={t('discover.traveler.currentMonthSpent')} value={money(stats.currentMonthSpent)} testId="stat-month-spent" />
        </ul>
      </section>

      <div className="dashboard-actions">
        <Link to="/guides" className="button">
          {t('account.traveler.findGuides')}
        </Link>
        <Link to="/me" className="button button-secondary">
          {t('account.traveler.profile')}
        </Link>
      </div>

      <section className="dashboard-section" aria-labelledby="traveler-recent">
        <h2 id="traveler-recent">{t('discover.traveler.recentBookings')}</h2>
        {recentBookings.length === 0 ? (
          <p className="empty">{t('discover.traveler.noBookings')}</p>
        ) : (
          <ul className="recent-orders" data-testid="recent-bookings">
            {recentBookings.map((b) => (
              <li key={b.id}>
                <Link to={`/orders/${b.id}`} className="recent-order" aria-label={t('account.guide.viewOrder', { id: b.id })}>
                  <span className="recent-order-title">
                    {t('account.guide.orderNumber', { id: b.id })} · {b.guide.name}
                  </span>
                  <span className="recent-order-meta">
                    {dateFormat.format(new Date(`${b.date}T00:00:00Z`))} {slotWithHours(t, b.timeSlot)} ·{' '}
                    {t('account.guide.people', { count: b.numberOfPeople })} · {money(b.totalPrice)}
                  </span>
                  <StatusPill status={b.status} />
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="dashboard-section" aria-labelledby="traveler-recommendations">
        <h2 id="traveler-recommendations">{t('discover.traveler.recommendations')}</h2>
        <p className="muted section-note">
          {recommendations.some((g) => g.reason !== 'top_rated') ? t('discover.traveler.recommendationsNote') : t('discover.traveler.topRatedNote')}
        </p>
        <div className="guide-grid" data-testid="recommendations">
          {recommendations.map((g) => (
            <div key={g.id} className="card-with-heart">
              <GuideCard guide={g} />
              <FavoriteButton guideId={g.id} guideName={g.name} favorited={favoriteSet.has(g.id)} redirectTo="/traveler" />
            </div>
          ))}
        </div>
      </section>
    </div>
  );
}
