import { Form, useNavigation, useSubmit } from '@remix-run/react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldFrame, fieldErrorId } from '~/components/forms/field-frame';
import { CITY_CODES } from '~/lib/city-codes';
import { LANGUAGE_CODES } from '~/lib/language-codes';
import { GUIDE_SORTS, SEARCH_TIME_SLOTS, searchParamsOf } from '~/lib/guide-search-params';

/** With JS, results follow the form this long after the last change (SPEC §9). */
export const SEARCH_DEBOUNCE_MS = 300;
const RATINGS = ['3', '3.5', '4', '4.5'] as const;
/** The filters inside the folding part (the keyword box stays outside it); its summary counts the ones in use. */
const FOLDED_FILTERS = ['city', 'language', 'minPrice', 'maxPrice', 'minRating', 'date', 'timeSlot'] as const;
/** Where the filters sit beside the results instead of folding (search.css uses the same width). */
const WIDE_QUERY = '(min-width: 900px)';

export type SearchFormValues = Partial<Record<string, string>>;

/**
 * The /guides search: one GET form, so with JS off it submits and the URL carries every filter. With JS the
 * results update 300 ms after the last change (the URL is replaced, not pushed, while typing), and the keyword
 * box offers guide names and cities from GET /api/v1/guides/suggestions.
 */
export function GuideSearchForm({
  values,
  errors,
  params,
  filtersOpen,
}: {
  values: SearchFormValues;
  errors: Partial<Record<string, string>>;
  /** The loaded search as its canonical query string. */
  params: string;
  /**
   * Whether the filters start unfolded (no search yet, or a filter to correct). After a search they start
   * folded, so on a phone the count and the first card are on the first screen; from 900 px the stylesheet
   * shows them anyway.
   */
  filtersOpen: boolean;
}) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  // The search this form last sent, at first the one the page was rendered with: when it comes back, the fields
  // already show it (and may have moved on). Starting from the rendered search also keeps what a visitor chose on
  // a slow phone before the page hydrated (the sync below used to put every field back at hydration).
  const sent = useRef<string | null>(params);
  const suggestTimer = useRef<ReturnType<typeof setTimeout>>();
  const [suggestions, setSuggestions] = useState<{ id: string | number; value: string; label: string }[]>([]);
  const filtersRef = useRef<HTMLDetailsElement>(null);
  // Read once: later searches do not fold or unfold the filters under the reader's fingers.
  const [filtersStartOpen] = useState(filtersOpen);
  const filterCount = FOLDED_FILTERS.filter((key) => values[key]).length;
  const moreOpen = Boolean(values.minRating || values.date || values.timeSlot || errors.minRating || errors.date);

  // A chip or a "remove filter" link loads another search: show its values, but never under the reader's
  // cursor (the field being typed in keeps what is typed).
  useEffect(() => {
    const form = formRef.current;
    if (!form || sent.current === params) return;
    for (const element of Array.from(form.elements)) {
      if (!(element instanceof HTMLInputElement || element instanceof HTMLSelectElement)) continue;
      if (!element.name || element.type === 'hidden' || element === document.activeElement) continue;
      element.value = values[element.name] ?? (element.name === 'sort' ? 'newest' : '');
    }
  }, [values, params]);

  // Browsers whose stylesheet cannot show a folded <details> (no ::details-content) unfold it on wide screens.
  useEffect(() => {
    if (filtersRef.current && window.matchMedia(WIDE_QUERY).matches) filtersRef.current.open = true;
  }, []);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      clearTimeout(suggestTimer.current);
    },
    [],
  );

  /** The form's values without the empty ones, in the canonical order (the same search, the same link). */
  const currentParams = () => {
    const raw: Record<string, string> = {};
    for (const [key, value] of new FormData(formRef.current!)) if (typeof value === 'string' && value.trim()) raw[key] = value;
    return searchParamsOf(raw);
  };
  const send = (replace: boolean) => {
    clearTimeout(timer.current);
    const query = currentParams();
    sent.current = query.toString();
    submit(query, {
      method: 'get',
      action: '/guides',
      replace,
      preventScrollReset: true,
    });
  };
  const scheduleSubmit = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => send(true), SEARCH_DEBOUNCE_MS);
  };

  const loadSuggestions = (query: string) => {
    clearTimeout(suggestTimer.current);
    if (!query.trim()) return setSuggestions([]);
    suggestTimer.current = setTimeout(async () => {
      try {
        const response = await fetch(
          `/api/v1/guides/suggestions?${new URLSearchParams({
            query,
            limit: '8',
          })}`,
          {
            headers: { Accept: 'application/json' },
          },
        );
        if (!response.ok) return;
        const body = (await response.json()) as {
          data?: { suggestions?: typeof suggestions };
        };
        setSuggestions(body.data?.suggestions ?? []);
      } catch {
        // Suggestions are a convenience: without them the box still searches.
      }
    }, 150);
  };

  const field = (name: string) => ({
    name,
    id: `search-${name}`,
    // Nothing when empty: a select then starts at its first option ("any ..."), an input empty, with no
    // selected=""/value="" written into the HTML.
    defaultValue: values[name],
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? fieldErrorId(`search-${name}`) : undefined,
  });
  /** The form kit's frame around one control: its label above, its error (already translated) below. */
  const frame = (name: string, label: string, control: ReactNode, className?: string) => (
    <FieldFrame id={`search-${name}`} label={label} error={errors[name]} className={className}>
      {control}
    </FieldFrame>
  );
  // A new search starts at page 1; a larger page size the link asked for is kept.
  const searching = navigation.state === 'loading' && navigation.location?.pathname === '/guides';

  return (
    <Form
      ref={formRef}
      method="get"
      action="/guides"
      role="search"
      aria-label={t('search.form.label')}
      className="search-form"
      onChange={scheduleSubmit}
      onSubmit={(event) => {
        event.preventDefault();
        // A phone reader who pressed 搜尋 wants the results: the filters fold, as they do after a search without JS.
        if (filtersRef.current && !window.matchMedia(WIDE_QUERY).matches) filtersRef.current.open = false;
        send(false);
      }}
    >
      <div className="search-bar">
        {frame(
          'keyword',
          t('search.form.keyword'),
          <>
            <input
              {...field('keyword')}
              type="search"
              maxLength={100}
              autoComplete="off"
              list="search-keyword-suggestions"
              placeholder={t('search.form.keywordPlaceholder')}
              onInput={(e) => loadSuggestions(e.currentTarget.value)}
            />
            <datalist id="search-keyword-suggestions">
              {suggestions.map((s) => (
                <option key={`${s.id}`} value={s.value}>
                  {s.label}
                </option>
              ))}
            </datalist>
          </>,
          'search-keyword',
        )}
        <button type="submit" className="button search-submit">
          {t('search.form.submit')}
        </button>
      </div>
      <span className="search-status muted" aria-hidden={!searching}>
        {searching ? t('search.form.updating') : ''}
      </span>
      <details ref={filtersRef} className="search-filters" open={filtersStartOpen || undefined}>
        <summary data-testid="search-filters-summary">
          {filterCount > 0 ? t('search.form.filtersCount', { count: filterCount }) : t('search.form.filters')}
        </summary>
        <div className="search-filters-body">
          <div className="search-row">
            {frame(
              'city',
              t('search.form.city'),
              <select {...field('city')}>
                <option value="">{t('search.form.anyCity')}</option>
                {CITY_CODES.map((code) => (
                  <option key={code} value={code}>
                    {t(`cities.${code}`)}
                  </option>
                ))}
              </select>,
            )}
            {frame(
              'language',
              t('search.form.language'),
              <select {...field('language')}>
                <option value="">{t('search.form.anyLanguage')}</option>
                {LANGUAGE_CODES.map((code) => (
                  <option key={code} value={code}>
                    {t(`languages.${code}`)}
                  </option>
                ))}
              </select>,
            )}
          </div>
          <div className="search-row">
            {frame('minPrice', t('search.form.minPrice'), <input {...field('minPrice')} type="number" min={0} step={100} />)}
            {frame('maxPrice', t('search.form.maxPrice'), <input {...field('maxPrice')} type="number" min={0} step={100} />)}
          </div>
          <details className="search-more" open={moreOpen || undefined}>
            <summary>{t('search.form.more')}</summary>
            <div className="search-row search-row-3">
              {frame(
                'minRating',
                t('search.form.minRating'),
                <select {...field('minRating')}>
                  <option value="">{t('search.form.anyRating')}</option>
                  {RATINGS.map((r) => (
                    <option key={r} value={r}>
                      {t('search.form.ratingAtLeast', { rating: r })}
                    </option>
                  ))}
                </select>,
              )}
              {frame('date', t('search.form.date'), <input {...field('date')} type="date" />)}
              {frame(
                'timeSlot',
                t('search.form.timeSlot'),
                <select {...field('timeSlot')}>
                  <option value="">{t('search.form.anyTimeSlot')}</option>
                  {SEARCH_TIME_SLOTS.map((slot) => (
                    <option key={slot} value={slot}>
                      {t(`timeSlots.${slot}`)}
                    </option>
                  ))}
                </select>,
              )}
            </div>
          </details>
          <div className="search-actions">
            {frame(
              'sort',
              t('search.form.sort'),
              <select {...field('sort')}>
                {GUIDE_SORTS.map((sort) => (
                  <option key={sort} value={sort}>
                    {t(`search.sort.${sort}`)}
                  </option>
                ))}
              </select>,
              'search-sort',
            )}
          </div>
        </div>
      </details>
      {values.limit ? <input type="hidden" name="limit" value={values.limit} /> : null}
    </Form>
  );
}
