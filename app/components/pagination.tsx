import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

/** Page links as plain anchors (work without JS); shows a window of pages around the current one. */
export function PaginationNav({
  page,
  totalPages,
  basePath,
  params,
  pageParam = 'page',
}: {
  page: number;
  totalPages: number;
  basePath: string;
  /** Other search parameters the links keep (filters, sort); `page` is set per link. */
  params?: URLSearchParams;
  /** The search parameter that carries the page number. */
  pageParam?: string;
}) {
  const { t } = useTranslation();
  if (totalPages <= 1) return null;
  const href = (p: number) => {
    const q = new URLSearchParams(params);
    q.delete(pageParam);
    if (p !== 1) q.set(pageParam, String(p));
    const s = q.toString();
    return s ? `${basePath}?${s}` : basePath;
  };
  const first = Math.max(1, Math.min(page - 2, totalPages - 4));
  const pages = Array.from({ length: Math.min(5, totalPages) }, (_, i) => first + i);
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <p className="pagination-status">{t('pagination.status', { page, totalPages })}</p>
      <ul>
        <li>
          {page > 1 ? (
            <Link to={href(page - 1)} rel="prev">
              {t('pagination.previous')}
            </Link>
          ) : (
            <span aria-disabled="true">{t('pagination.previous')}</span>
          )}
        </li>
        {pages.map((p) => (
          // On phones only the current page and its neighbours show (discover.css), so "Next" stays on the row.
          <li key={p} className={Math.abs(p - page) > 1 ? 'page-far' : undefined}>
            <Link to={href(p)} aria-current={p === page ? 'page' : undefined} aria-label={t('pagination.page', { page: p })}>
              {p}
            </Link>
          </li>
        ))}
        <li>
          {page < totalPages ? (
            <Link to={href(page + 1)} rel="next">
              {t('pagination.next')}
            </Link>
          ) : (
            <span aria-disabled="true">{t('pagination.next')}</span>
          )}
        </li>
      </ul>
    </nav>
  );
}
