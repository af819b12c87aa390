import { useTranslation } from 'react-i18next';

/**
 * Five stars filled to the exact rating (4.5 shows four and a half), with the number for screen readers. The
 * stars themselves (empty ones, and the filled ones over them cut to the rating) are drawn by the stylesheet
 * (`.stars::before`, `.stars-fill::before`), not written twice into every card's HTML.
 */
export function Stars({ rating }: { rating: number }) {
  const { t } = useTranslation();
  const percent = Math.max(0, Math.min(100, (rating / 5) * 100));
  return (
    <span className="stars" role="img" aria-label={t('guide.ratingStars', { rating })}>
      <span className="stars-fill" style={{ width: `${percent}%` }} aria-hidden="true" />
    </span>
  );
}
