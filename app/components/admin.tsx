/* Pieces the admin pages share: the page head and the words for a guide's facts. */
import { Link } from '@remix-run/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The top of an admin page: the way back (to /admin unless `back` names another page), an optional
 * neighbouring page, the title and an optional introduction.
 */
export function AdminPageHead({
  title,
  intro,
  back,
  also,
}: {
  title: ReactNode;
  intro?: ReactNode;
  back?: { to: string; label: string };
  also?: { to: string; label: string };
}) {
  const { t } = useTranslation();
  const up = back ?? { to: '/admin', label: t('trust.admin.back') };
  return (
    <>
      <p className="small">
        <Link to={up.to}>← {up.label}</Link>
        {also ? (
          <>
            {' · '}
            <Link to={also.to}>{also.label}</Link>
          </>
        ) : null}
      </p>
      <h1>{title}</h1>
      {intro ? <p className="muted">{intro}</p> : null}
    </>
  );
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** The admin guide list's and guide page's words for a guide's profile: complete, or what is missing. */
export function profileCompleteness(t: Translate, missing: readonly string[]): string {
  return missing.length === 0
    ? t('trust.admin.guides.complete')
    : t('trust.admin.guides.missing', { fields: missing.map((f) => t(`trust.admin.guides.fields.${f}`)).join(', ') });
}

/** "4.8 (12)", or "no rating yet". */
export function ratingSummary(t: Translate, rating: number | null, reviewCount: number): string {
  return rating === null ? t('trust.admin.guides.noRating') : `${rating.toFixed(1)} (${reviewCount})`;
}
