import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '~/components/avatar';
import { VerifiedMark } from '~/components/guide-card';
import { Stars } from '~/components/stars';
import { formatTourDayLong } from '~/lib/dates';
import { slotHoursText, type TimeSlot } from '~/lib/time-slots';

export interface SummaryGuide {
  name: string;
  photo: string | null;
  avatarUrl: string | null;
  averageRating: number | null;
  reviewCount: number;
  isIdVerified: boolean;
}

/**
 * The booking's summary beside the form (issue 19): the guide, the chosen slot and its hours, the people, the total
 * and the cancellation policy; live with JS, else what the server knows. Not a route (`__`).
 */
export function BookingSummary({
  guide,
  current,
  people,
  total,
}: {
  guide: SummaryGuide;
  current: { date: string; timeSlot: TimeSlot } | null;
  people: number | null;
  total: string;
}) {
  const { t, i18n } = useTranslation();
  return (
    <aside className="booking-summary card" aria-labelledby="booking-summary-title" data-testid="booking-summary">
      <h2 id="booking-summary-title" className="visually-hidden">
        {t('booking.form.summaryTitle')}
      </h2>
      <div className="summary-guide">
        {guide.photo ? (
          <img className="summary-photo" src={guide.photo} alt={t('guides.avatarAlt', { name: guide.name })} width={64} height={64} />
        ) : (
          <Avatar src={guide.avatarUrl} alt={t('guides.avatarAlt', { name: guide.name })} size={64} />
        )}
        <div className="summary-guide-text">
          <p className="summary-name">
            <strong>{guide.name}</strong> {guide.isIdVerified ? <VerifiedMark /> : null}
          </p>
          <p className="summary-rating small">
            {guide.averageRating !== null ? (
              <>
                <Stars rating={guide.averageRating} />{' '}
                <span>{t('guide.averageRating', { rating: guide.averageRating.toFixed(1), count: guide.reviewCount })}</span>
              </>
            ) : (
              <span className="muted">{t('guides.noReviews')}</span>
            )}
          </p>
        </div>
      </div>
      <dl className="summary-facts" aria-live="polite">
        <div>
          <dt>{t('booking.summary.when')}</dt>
          <dd data-testid="summary-when">
            {current ? (
              <>
                {formatTourDayLong(current.date, i18n.language)}
                <br />
                {t(`timeSlots.${current.timeSlot}`)} <span className="slot-hours">{slotHoursText(current.timeSlot)}</span>
              </>
            ) : (
              <span className="muted">{t('booking.form.chooseSlot')}</span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('booking.summary.people')}</dt>
          <dd data-testid="summary-people">{people ? t('booking.summary.peopleCount', { count: people }) : '—'}</dd>
        </div>
        <div className="summary-total">
          <dt>{t('booking.form.total')}</dt>
          <dd>
            <strong>{total}</strong> <span className="muted small">{t('booking.form.perGroup')}</span>
          </dd>
        </div>
      </dl>
      <p className="summary-policy small">
        {t('booking.form.cancellation')} <Link to="/booking-terms">{t('booking.form.termsLink')}</Link>
      </p>
    </aside>
  );
}
