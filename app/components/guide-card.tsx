import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { formatNtd } from '~/lib/money';
import { Avatar } from './avatar';
import { Stars } from './stars';

export interface GuideCardData {
  id: number;
  name: string;
  avatarUrl: string | null;
  city: string | null;
  languages: string[];
  price: number | null;
  bio: string | null;
  averageRating: number | null;
  reviewCount: number;
}

export function useLanguageList() {
  const { t } = useTranslation();
  return (codes: string[]) => codes.map((c) => t(`languages.${c}`)).join(t('languages.separator'));
}

export function GuideCard({ guide }: { guide: GuideCardData }) {
  const { t, i18n } = useTranslation();
  const languageList = useLanguageList();
  return (
    <article className="guide-card">
      <Link to={`/guides/${guide.id}`} className="guide-card-link" aria-label={t('guides.viewProfile', { name: guide.name })}>
        <Avatar src={guide.avatarUrl} alt={t('guides.avatarAlt', { name: guide.name })} size={72} />
        <div className="guide-card-body">
          <h3 className="guide-name">{guide.name}</h3>
          {guide.city && <p className="guide-city">📍 {t(`cities.${guide.city}`)}</p>}
          <p className="guide-languages">
            <span className="label">{t('guides.languages')}</span> {languageList(guide.languages)}
          </p>
          <p className="guide-rating">
            {guide.averageRating !== null ? (
              <>
                <Stars rating={guide.averageRating} /> <strong>{guide.averageRating.toFixed(1)}</strong>{' '}
                <span className="muted">({t('guides.reviewCount', { count: guide.reviewCount })})</span>
              </>
            ) : (
              <span className="muted">{t('guides.noReviews')}</span>
            )}
          </p>
        </div>
        {guide.price !== null && (
          <p className="guide-price">
            <strong>{formatNtd(guide.price, i18n.language)}</strong>
            <span className="muted">{t('guides.perDay')}</span>
          </p>
        )}
      </Link>
    </article>
  );
}
