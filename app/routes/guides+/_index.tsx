import type { PageCacheHandle } from '~/http/contract';
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FavoriteButton } from '~/components/favorite-button';
import { GuideCard } from '~/components/guide-card';
import { PaginationNav } from '~/components/pagination';
import { describeFilter } from './__describe-search';
import { GuideSearchForm } from './__guide-search-form';
import { SearchHistory, type HistoryItem } from './__search-history';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { getUser, requireUser } from '~/http/session.server';
import { readForm } from '~/http/page.server';
import { pageMeta } from '~/lib/meta';
import { activeFilters, FILTER_KEYS, searchParamsOf, type FilterKey } from '~/lib/guide-search-params';
import { packGuideCards, unpackGuideCards } from '~/schemas/guide-card';
import { guideSearchSchema } from '~/schemas/guide-search';
import { favoriteGuideIds } from '~/services/catalogue/favorites.server';
import { clearSearchHistory, listSearchHistory, recordSearch } from '~/services/catalogue/search-history.server';
import { searchGuides } from '~/services/catalogue/search.server';

// Anonymous visitors' copies may be kept a minute by a shared cache (docs/decisions/043-conditional-requests.md).
export const handle: I18nHandle & PageCacheHandle = { i18n: ['search'], cache: 'shared' };

/** The URL's values as typed (first of repeated names), for re-showing them in the form. */
function rawValues(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (!(key in out)) out[key] = value;
  return out;
}

/**
 * /guides: the guide search (SPEC §2). Everything is in the URL; a value that cannot be used is left out
 * with a translated message next to its field (the reader's text stays in the box). A page past the end
 * redirects to the last page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const raw = rawValues(url);
  const [t, locale, user] = await Promise.all([getFixedT(request), getLocale(request), getUser(request)]);

  let parsed = guideSearchSchema.safeParse(raw);
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    const cleaned = { ...raw };
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (!key) continue;
      errors[key] ??= t(issue.message);
      delete cleaned[key];
    }
    parsed = guideSearchSchema.safeParse(cleaned);
  }
  const search = parsed.success ? parsed.data : guideSearchSchema.parse({});

  const result = await searchGuides(search, { locale });
  const { total, totalPages } = result.pagination;
  if (search.page > totalPages && Object.keys(errors).length === 0) {
    const params = searchParamsOf(search, { page: total > 0 ? totalPages : 1 });
    throw redirect(params.size ? `/guides?${params}` : '/guides');
  }

  // The search above is shared by every reader (the catalogue cache); which of its guides this reader keeps as
  // favorites is read here, for this reader only.
  let history: HistoryItem[] = [];
  let favorites: number[] = [];
  if (user) {
    if (search.page === 1) await recordSearch(user.id, search);
    const [list, kept] = await Promise.all([listSearchHistory(user.id), favoriteGuideIds(user.id, result.guides.map((g) => g.id))]);
    history = list;
    favorites = [...kept];
  }

  const values: Record<string, string> = {};
  for (const key of [...FILTER_KEYS, 'sort'] as const) {
    const value = errors[key] !== undefined ? raw[key] : search[key];
    if (value !== undefined && value !== '') values[key] = String(value);
  }
  if (values.sort === 'newest' && errors.sort === undefined) delete values.sort; // the default: the form shows it anyway
  if (search.limit !== 10) values.limit = String(search.limit);

  // Only what the page renders (a card shows the headline, not the bio; the list the page, the count and the
  // number of pages), the cards packed (packGuideCards: a third of the loader data in the HTML), and what is
  // empty left out (the page reads it as empty): every key is in the HTML.
  const params = searchParamsOf(search).toString();
  return {
    cards: packGuideCards(result.guides),
    pagination: { page: result.pagination.page, total, totalPages },
    ...(params && { params }),
    ...(Object.keys(values).length > 0 && { values }),
    ...(Object.keys(errors).length > 0 && { errors }),
    ...(history.length > 0 && { history }),
    ...(favorites.length > 0 && { favorites }),
    ...(user && { loggedIn: true, viewerId: user.id }),
    title: t('guides.title'),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const session = await requireUser(request);
  const form = await readForm(request);
  if (form.get('intent') === 'clearHistory') await clearSearchHistory(session.user.id);
  return redirect('/guides');
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

const NONE: Record<string, string> = {};
const NO_HISTORY: HistoryItem[] = [];
const NO_FAVORITES: number[] = [];

export default function GuideList() {
  const {
    cards,
    pagination,
    params = '',
    values = NONE,
    errors = NONE,
    history = NO_HISTORY,
    favorites = NO_FAVORITES,
    loggedIn = false,
    viewerId,
  } = useLoaderData<typeof loader>();
  const favoriteSet = useMemo(() => new Set(favorites), [favorites]);
  const guides = useMemo(() => unpackGuideCards(cards), [cards]);
  const { t, i18n } = useTranslation();
  const urlParams = useMemo(() => new URLSearchParams(params), [params]);
  // The filters in use, read from the loaded search's canonical query string (not sent a second time).
  const filters = useMemo(() => {
    const all = Object.fromEntries(urlParams) as Partial<Record<FilterKey, string>>;
    return Object.fromEntries(activeFilters(all).map((k) => [k, all[k]!])) as Partial<Record<FilterKey, string>>;
  }, [urlParams]);
  const filterKeys = Object.keys(filters) as FilterKey[];
  const current = useMemo<HistoryItem | null>(() => {
    if (filterKeys.length === 0) return null;
    const { keyword, ...rest } = filters;
    const key = new URLSearchParams(urlParams);
    for (const k of ['sort', 'page', 'limit']) key.delete(k);
    return { query: keyword ? String(keyword) : '', filters: rest as Record<string, string | number>, search: key.toString() };
  }, [params]); // eslint-disable-line react-hooks/exhaustive-deps
  const without = (key: FilterKey) => {
    const q = new URLSearchParams(urlParams);
    q.delete(key);
    if (key === 'date') q.delete('timeSlot');
    q.delete('page');
    const s = q.toString();
    return s ? `/guides?${s}` : '/guides';
  };
  const sortOnly = new URLSearchParams();
  if (values.sort && values.sort !== 'newest') sortOnly.set('sort', values.sort);
  const clearHref = sortOnly.size ? `/guides?${sortOnly}` : '/guides';
  const invalid = Object.keys(errors);
  // The filters start folded after a search, unless one of them needs correcting.
  const filtersOpen = filterKeys.length === 0 || invalid.some((k) => k !== 'keyword');
  const here = params ? `/guides?${params}` : '/guides';

  return (
    <section aria-labelledby="guides-title" className="section search-page">
      <h1 id="guides-title">{t('guides.title')}</h1>
      <GuideSearchForm values={values} errors={errors} params={params} filtersOpen={filtersOpen} />
      {invalid.length > 0 && (
        <p className="notice-card" role="alert">
          {t('search.validation.invalidFilters')} {invalid.map((k) => t(`search.filterNames.${k}`, { defaultValue: k })).join(t('languages.separator'))}
        </p>
      )}
      <SearchHistory server={history} current={current} loggedIn={loggedIn} />

      {filterKeys.length > 0 && (
        <nav className="active-filters" aria-label={t('search.filters.label')}>
          <ul className="chips">
            {filterKeys.map((key) => {
              const label = describeFilter(t, key, filters[key]!, i18n.language);
              return (
                <li key={key}>
                  <Link className="chip chip-remove" to={without(key)} aria-label={t('search.filters.remove', { filter: label })}>
                    {label} <span aria-hidden="true">×</span>
                  </Link>
                </li>
              );
            })}
            <li>
              <Link className="chip chip-clear" to={clearHref}>
                {t('search.filters.clear')}
              </Link>
            </li>
          </ul>
        </nav>
      )}

      <p className="muted search-count" role="status" data-testid="result-count">
        {t('search.results.count', { count: pagination.total })}
      </p>
      {guides.length === 0 ? (
        <div className="empty no-results">
          {filterKeys.length > 0 ? (
            <>
              <p>{t('search.results.none')}</p>
              <p>
                {t('search.results.loosen', {
                  filters: filterKeys.map((k) => t(`search.filterNames.${k}`)).join(t('languages.separator')),
                })}
              </p>
              <p>
                <Link to={clearHref}>{t('search.results.clear')}</Link>
              </p>
            </>
          ) : (
            <p>{t('search.results.noneAtAll')}</p>
          )}
        </div>
      ) : (
        <div className="guide-list" data-testid="guide-list">
          {guides.map((g) => (
            <div key={g.id} className="card-with-heart">
              <GuideCard guide={g} headingLevel={2} />
              {/* The same heart as on the home page; none on a guide's own card (the favorites service refuses it). */}
              {g.id !== viewerId && <FavoriteButton guideId={g.id} guideName={g.name} favorited={favoriteSet.has(g.id)} redirectTo={here} />}
            </div>
          ))}
        </div>
      )}
      <PaginationNav page={pagination.page} totalPages={pagination.totalPages} basePath="/guides" params={urlParams} />
    </section>
  );
}
