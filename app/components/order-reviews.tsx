import { useTranslation } from 'react-i18next';
import { formatTaipeiDate } from '~/lib/dates';
import type { ReviewView } from '~/schemas/reviews';
import { Stars } from './stars';

/** An order's reviews, both sides, dated by their day in Taiwan (SPEC §2; no time, issue 19); a hidden one (its author or an admin sees it) is marked. */
export function OrderReviews({ reviews }: { reviews: ReviewView[] }) {
  const { t, i18n } = useTranslation();
  if (reviews.length === 0) return <p className="muted">{t('reviews.list.empty')}</p>;
  return (
    <ul className="order-reviews">
      {reviews.map((r) => (
        <li key={r.id}>
          <p>
            <strong>{t(r.role === 'traveler' ? 'reviews.list.byTraveler' : 'reviews.list.byGuide', { name: r.reviewerName, other: r.revieweeName })}</strong>{' '}
            <Stars rating={r.rating} />
          </p>
          {r.comment ? <p className="review-comment">{r.comment}</p> : null}
          {r.isHidden ? (
            <p className="small review-state-hidden">
              {t('reviews.list.hidden')}
              {r.hiddenReason ? ` · ${t('reviews.list.hiddenReason', { reason: r.hiddenReason })}` : ''}
            </p>
          ) : null}
          <p className="muted small">
            <time dateTime={r.createdAt}>{formatTaipeiDate(r.createdAt, i18n.language)}</time>
          </p>
        </li>
      ))}
    </ul>
  );
}
