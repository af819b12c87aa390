import { useTranslation } from 'react-i18next';
import { photoStatusLabelKey } from '~/schemas/trust';

/** A photo's review state as a coloured label (trust.css): under review, approved or not passed. */
export function PhotoStatus({ status }: { status: string }) {
  const { t } = useTranslation();
  const tone = status === 'approved' ? 'approved' : status === 'pending_review' || status === 'pending' ? 'pending' : 'rejected';
  return <span className={`photo-status photo-status-${tone}`}>{t(photoStatusLabelKey(status))}</span>;
}
