import { useTranslation } from 'react-i18next';

/**
 * "Export CSV" on an admin list page (issue 22): a plain download link to the list's /api/v1 export, carrying the
 * filters on screen (not the page number) and the page's language for the column headers.
 */
export function ExportLink({ href, filters }: { href: string; filters: Record<string, string | number | null | undefined> }) {
  const { t, i18n } = useTranslation();
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value !== null && value !== undefined && value !== '' && key !== 'page') params.set(key, String(value));
  }
  params.set('lng', i18n.language);
  return (
    <p className="export-link">
      <a href={`${href}?${params}`} download className="button button-small button-secondary" aria-label={t('exports.linkLabel')} data-testid="export-csv">
        {t('exports.link')}
      </a>
    </p>
  );
}
