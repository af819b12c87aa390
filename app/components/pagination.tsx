import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';

/** A page's link: `basePath` with the other parameters kept and the page set (page 1 needs none). */
export function pageHref(basePath: string, params: URLSearchParams | undefined, pageParam: string, page: number) {
  const q = new URLSearchParams(params);
  q.delete(pageParam);
  if (page !== 1) q.set(pageParam, String(page));
  const s = q.toString();
  return s ? `${basePath}?${s}` : basePath;
}

/** "Previous" or "Next": a link while there is such a page, otherwise the same word marked unavailable. */
export function PageStep({ to, rel, label }: { to: string | null; rel: 'prev' | 'next'; label: string }) {
  return to ? (
    <Link to={to} rel={rel}>
      {label}
    </Link>
  ) : (
    <span aria-disabled="true">{label}</span>
  );
}

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
  const href = (p: number) => pageHref(basePath, params, pageParam, p);
  const first = Math.max(1, Math.min(page - 2, totalPages - 4));
  const pages = Array.from({ length: Math.min(5, totalPages) }, (_, i) => first + i);
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <p className="pagination-status">{t('pagination.status', { page, totalPages })}</p>
      <ul>
        <li>
          <PageStep to={page > 1 ? href(page - 1) : null} rel="prev" label={t('pagination.previous')} />
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
          <PageStep to={page < totalPages ? href(page + 1) : null} rel="next" label={t('pagination.next')} />
        </li>
      </ul>
    </nav>
  );
}
