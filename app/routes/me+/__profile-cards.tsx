import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Stars } from '~/components/stars';
import { formatTaipeiDate, formatTaipeiDateTime } from '~/lib/dates';
import { formatNtd } from '~/lib/money';
import type { IdVerificationInfo, ProfileUser, UserStats } from './__profile-types';

/** The left column of /me (SPEC §2): verification cards, statistics, and for guides availability and photos. */

function Card({ id, title, children, className }: { id: string; title: string; children: ReactNode; className?: string }) {
  return (
    <section className={`card profile-card-box${className ? ` ${className}` : ''}`} aria-labelledby={id}>
      <h2 id={id} className="profile-card-title">
        {title}
      </h2>
      {children}
    </section>
  );
}

export function IdVerificationCard({ user, info }: { user: ProfileUser; info: IdVerificationInfo }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const isTraveler = user.type === 'traveler';
  let body: ReactNode;
  let action: { label: string; primary: boolean };
  switch (info.state) {
    case 'verified':
      body = (
        <>
          <p className="status-line status-ok">
            <span aria-hidden="true">✓ </span>
            {t('profile.cards.idVerification.verified')}
          </p>
          {info.verifiedAt && (
            <p className="small muted">{t('profile.cards.idVerification.verifiedAt', { date: formatTaipeiDate(info.verifiedAt, locale) })}</p>
          )}
        </>
      );
      action = { label: t('profile.cards.idVerification.details'), primary: false };
      break;
    case 'pending':
      body = (
        <>
          <p className="status-line status-wait">{t('profile.cards.idVerification.pending')}</p>
          {info.submittedAt && (
            <p className="small muted">
              {t('profile.cards.idVerification.submittedAt', { date: formatTaipeiDateTime(info.submittedAt, locale) })}
            </p>
          )}
        </>
      );
      action = { label: t('profile.cards.idVerification.details'), primary: false };
      break;
    case 'rejected':
      body = (
        <>
          <p className="status-line status-bad">{t('profile.cards.idVerification.rejected')}</p>
          {info.reviewNotes && <p className="small">{t('profile.cards.idVerification.notes', { notes: info.reviewNotes })}</p>}
        </>
      );
      action = { label: t('profile.cards.idVerification.reverify'), primary: true };
      break;
    default:
      // Travelers are only encouraged (SPEC §4); guides need it for photos and availability.
      body = (
        <p className={isTraveler ? 'small' : 'status-line status-warn'}>
          {t(isTraveler ? 'profile.cards.idVerification.suggested' : 'profile.cards.idVerification.not_verified')}
        </p>
      );
      action = { label: t('profile.cards.idVerification.start'), primary: !isTraveler };
  }
  return (
    <Card id="id-verification-card" title={t('profile.cards.idVerification.title')} className={`id-card id-${info.state}${isTraveler ? ' id-traveler' : ''}`}>
      {body}
      <Link to="/id-verification" className={`button button-small${action.primary ? '' : ' button-secondary'}`}>
        {action.label}
      </Link>
    </Card>
  );
}

export function EmailCard({ user }: { user: ProfileUser }) {
  const { t, i18n } = useTranslation();
  return (
    <Card id="email-card" title={t('profile.cards.email.title')}>
      {user.isEmailVerified ? (
        <>
          <p className="status-line status-ok">
            <span aria-hidden="true">✓ </span>
            {t('profile.cards.email.verified')}
          </p>
          {user.emailVerifiedAt && (
            <p className="small muted">
              {t('profile.cards.email.verifiedAt', { date: formatTaipeiDate(user.emailVerifiedAt, i18n.language) })}
            </p>
          )}
        </>
      ) : (
        <p className="status-line status-warn small">{t('profile.cards.email.unverified', { email: user.email })}</p>
      )}
    </Card>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

export function StatsCard({ user, stats }: { user: ProfileUser; stats: UserStats }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const n = (v: number) => new Intl.NumberFormat(locale).format(v);
  const rating =
    stats.totalReviews > 0 ? (
      <>
        <Stars rating={stats.averageRating} /> {stats.averageRating.toFixed(1)}
      </>
    ) : (
      <span className="muted">{t('profile.cards.stats.noRating')}</span>
    );
  let rows: ReactNode;
  if (user.type === 'guide') {
    rows = (
      <>
        <Row label={t('profile.cards.stats.totalOrders')}>{n(stats.totalOrders)}</Row>
        <Row label={t('profile.cards.stats.completedOrders')}>{n(stats.completedOrders)}</Row>
        <Row label={t('profile.cards.stats.averageRating')}>{rating}</Row>
        {/* Received and given, as the reviews tab lists them: the two add up to its count (issue 19). */}
        <Row label={t('profile.cards.stats.totalReviews')}>{n(stats.totalReviews)}</Row>
        <Row label={t('profile.cards.stats.reviewCount')}>{n(stats.travelerStats.reviewCount)}</Row>
        <Row label={t('profile.cards.stats.totalEarnings')}>{formatNtd(stats.totalEarnings, locale)}</Row>
        <Row label={t('profile.cards.stats.serviceHours')}>{t('profile.cards.stats.hours', { count: stats.guideStats.serviceHours })}</Row>
        <Row label={t('profile.cards.stats.totalFavorites')}>{n(stats.totalFavorites)}</Row>
        <Row label={t('profile.cards.stats.available')}>
          {stats.guideStats.isAvailable ? (
            <span className="status-ok">{t('profile.cards.stats.isAvailable')}</span>
          ) : (
            <span className="muted">{t('profile.cards.stats.notAvailable')}</span>
          )}
        </Row>
      </>
    );
  } else if (user.type === 'traveler') {
    rows = (
      <>
        <Row label={t('profile.cards.stats.bookingCount')}>{n(stats.travelerStats.bookingCount)}</Row>
        <Row label={t('profile.cards.stats.completedOrders')}>{n(stats.completedOrders)}</Row>
        <Row label={t('profile.cards.stats.totalSpent')}>{formatNtd(stats.totalSpent, locale)}</Row>
        <Row label={t('profile.cards.stats.currentMonthSpent')}>{formatNtd(stats.currentMonthSpent, locale)}</Row>
        <Row label={t('profile.cards.stats.favoriteGuides')}>{n(stats.travelerStats.favoriteGuides)}</Row>
        <Row label={t('profile.cards.stats.reviewCount')}>{n(stats.travelerStats.reviewCount)}</Row>
      </>
    );
  } else {
    rows = (
      <>
        <Row label={t('profile.cards.stats.totalOrders')}>{n(stats.totalOrders)}</Row>
        <Row label={t('profile.cards.stats.reviewCount')}>{n(stats.travelerStats.reviewCount)}</Row>
      </>
    );
  }
  return (
    <Card id="stats-card" title={t('profile.cards.stats.title')}>
      <dl className="stat-list">{rows}</dl>
      {user.type === 'admin' && (
        <p className="small">
          <Link to="/admin/stats">{t('profile.cards.stats.adminLink')}</Link>
        </p>
      )}
    </Card>
  );
}

export function AvailabilityCard({ count }: { count: number }) {
  const { t } = useTranslation();
  return (
    <Card id="availability-card" title={t('profile.cards.availability.title')}>
      <p className={count > 0 ? '' : 'muted'}>
        {count > 0 ? t('profile.cards.availability.count', { count }) : t('profile.cards.availability.none')}
      </p>
      <Link to="/guide-availability" className="button button-small button-secondary">
        {t('profile.cards.availability.manage')}
      </Link>
    </Card>
  );
}
