import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageStep, pageHref } from './pagination';

/*
 * Lists read in order (/orders, /notifications): previous/next links and the list shell. Apart from
 * ./pagination so the pages that only jump through numbered pages (/guides) do not load them.
 */

/** The page position a list service answers with (orders, notifications, favorites…). */
export interface PageInfo {
  page: number;
  totalPages: number;
  hasPrev: boolean;
  hasNext: boolean;
}

/** "Previous · page n of m · Next" as plain anchors, for lists read in order rather than jumped through. */
export function PrevNextNav({ pagination, basePath, params }: { pagination: PageInfo; basePath: string; params?: URLSearchParams }) {
  const { t } = useTranslation();
  if (pagination.totalPages <= 1) return null;
  const href = (p: number) => pageHref(basePath, params, 'page', p);
  return (
    <nav className="pagination" aria-label={t('pagination.label')}>
      <p className="pagination-status">{t('pagination.status', { page: pagination.page, totalPages: pagination.totalPages })}</p>
      <ul>
        <li>
          <PageStep to={pagination.hasPrev ? href(pagination.page - 1) : null} rel="prev" label={t('pagination.previous')} />
        </li>
        <li>
          <PageStep to={pagination.hasNext ? href(pagination.page + 1) : null} rel="next" label={t('pagination.next')} />
        </li>
      </ul>
    </nav>
  );
}

/**
 * A page of a list with its empty state and its previous/next links: the shell the account lists share
 * (/orders, /notifications). Each item renders its own `<li>`.
 */
export function PagedList<Item>({
  items,
  empty,
  className,
  pagination,
  basePath,
  params,
  children,
}: {
  items: readonly Item[];
  empty: ReactNode;
  className: string;
  pagination: PageInfo;
  basePath: string;
  params?: URLSearchParams;
  children: (item: Item) => ReactNode;
}) {
  return (
    <>
      {items.length === 0 ? <p className="empty card">{empty}</p> : <ul className={className}>{items.map(children)}</ul>}
      <PrevNextNav pagination={pagination} basePath={basePath} params={params} />
    </>
  );
}
