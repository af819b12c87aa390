import { Form, Link } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { describeSearch } from './__describe-search';

export interface HistoryItem {
  query: string;
  filters: Record<string, string | number>;
  /** The search as a /guides query string. */
  search: string;
}

const STORAGE_KEY = 'lvyou.search-history';
const SIZE = 20;

function readStored(): HistoryItem[] {
  try {
    const parsed = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as HistoryItem[]).filter((i) => i && typeof i.search === 'string').slice(0, SIZE) : [];
  } catch {
    return [];
  }
}

/**
 * A visitor's history lives in this browser (localStorage): the current search goes on top, an older copy
 * of it is dropped, 20 are kept. Logged-in people's history is kept on the server instead.
 */
function useVisitorHistory(current: HistoryItem | null, enabled: boolean) {
  const [items, setItems] = useState<HistoryItem[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let list = readStored();
    if (current?.search) {
      list = [current, ...list.filter((i) => i.search !== current.search)].slice(0, SIZE);
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(list));
      } catch {
        // Private mode or full storage: the chips simply are not kept.
      }
    }
    setItems(list);
  }, [current?.search, enabled]); // eslint-disable-line react-hooks/exhaustive-deps
  const clear = () => {
    try {
      localStorage.removeItem(STORAGE_KEY);
    } catch {
      // nothing kept, nothing to clear
    }
    setItems([]);
  };
  return { items, clear };
}

/** The last searches as chips that run them again (SPEC §4 search history). */
export function SearchHistory({
  server,
  current,
  loggedIn,
}: {
  server: HistoryItem[];
  current: HistoryItem | null;
  loggedIn: boolean;
}) {
  const { t, i18n } = useTranslation();
  const visitor = useVisitorHistory(current, !loggedIn);
  const items = loggedIn ? server : visitor.items;
  if (items.length === 0) return null;
  return (
    <section className="search-history" aria-labelledby="search-history-title">
      <h2 id="search-history-title" className="search-history-title">
        {t('search.history.title')}
      </h2>
      <ul className="chips">
        {items.map((item) => {
          const label = describeSearch(t, item, i18n.language);
          return (
            <li key={item.search}>
              <Link className="chip" to={`/guides?${item.search}`} title={t('search.history.runAgain', { search: label })} data-testid="history-chip">
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
      {loggedIn ? (
        <Form method="post" action="/guides" className="inline-form">
          <input type="hidden" name="intent" value="clearHistory" />
          <button type="submit" className="link-button">
            {t('search.history.clear')}
          </button>
        </Form>
      ) : (
        <button type="button" className="link-button" onClick={visitor.clear}>
          {t('search.history.clear')}
        </button>
      )}
    </section>
  );
}
