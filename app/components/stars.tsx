import { useTranslation } from 'react-i18next';

/** Five stars with the numeric rating for screen readers. */
export function Stars({ rating }: { rating: number }) {
  const { t } = useTranslation();
  const full = Math.round(rating);
  return (
    <span className="stars" role="img" aria-label={t('guide.ratingStars', { rating })}>
      {'★'.repeat(full)}
      <span className="stars-empty">{'★'.repeat(5 - full)}</span>
    </span>
  );
}
