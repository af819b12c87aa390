import type { TFunction } from 'i18next';
import { formatTourDay } from '~/lib/dates';
import type { FilterKey } from '~/lib/guide-search-params';

/** One filter's value as a reader sees it: "台北市", "Speaks English", "From NT$1,000". */
export function describeFilter(t: TFunction, key: FilterKey, value: string | number, locale: string): string {
  switch (key) {
    case 'city':
      return t('search.filters.city', { value: t(`cities.${value}`) });
    case 'language':
      return t('search.filters.language', { value: t(`languages.${value}`) });
    case 'minPrice':
    case 'maxPrice':
      return t(`search.filters.${key}`, { value: Number(value).toLocaleString(locale) });
    case 'date':
      return t('search.filters.date', { value: formatTourDay(String(value), locale) });
    case 'timeSlot':
      return t('search.filters.timeSlot', { value: t(`timeSlots.${value}`) });
    default:
      return t(`search.filters.${key}`, { value: String(value) });
  }
}

/** A whole search in a few words, for a history chip. */
export function describeSearch(
  t: TFunction,
  entry: { query: string; filters: Record<string, string | number> },
  locale: string,
): string {
  const parts = entry.query ? [entry.query] : [];
  for (const [key, value] of Object.entries(entry.filters)) parts.push(describeFilter(t, key as FilterKey, value, locale));
  return parts.join(' · ') || t('search.history.all');
}
