import { useFetcher } from '@remix-run/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The heart (issue 9): a plain POST form to /favorites (`intent=toggle`, `guideId`, `redirectTo`) that works
 * with JS off (the action redirects back with a toast). With JS the first click brings a fetcher: the heart flips
 * at once (optimistic) and the action answers JSON (`respond=json`) instead of redirecting. A visitor who is not
 * logged in is sent to /login and comes back to `redirectTo`.
 * Until then no fetcher exists: a page of cards renders ten hearts and people click one at most, and a fetcher
 * per heart was a tenth of a busy /guides' server time (the router resolving each one's form action).
 * Its words are in common.json (the heart section under discover), so any page can show it.
 */
export function FavoriteButton({
  guideId,
  guideName,
  favorited,
  redirectTo,
  variant = 'icon',
}: {
  guideId: number;
  guideName: string;
  favorited: boolean;
  redirectTo: string;
  variant?: 'icon' | 'text';
}) {
  const { t } = useTranslation();
  // The latest click's fields (a new object per click) and what the fetcher reports back.
  const [request, setRequest] = useState<FormData | null>(null);
  const [reply, setReply] = useState<FetcherState>({ pending: false });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    formData.set('respond', 'json');
    setRequest(formData);
    setReply((r) => ({ ...r, pending: true }));
  };
  // Optimistic: while the toggle is on its way, show what it will be; afterwards what the server said.
  const shown = reply.pending ? !(reply.favorited ?? favorited) : (reply.favorited ?? favorited);
  const label = shown ? t('discover.heart.remove', { name: guideName }) : t('discover.heart.add', { name: guideName });
  return (
    <form
      method="post"
      action="/favorites"
      className={`favorite-form favorite-${variant}`}
      onSubmit={onSubmit}
    >
      {request && <FavoriteFetcher request={request} onChange={setReply} />}
      <input type="hidden" name="intent" value="toggle" />
      <input type="hidden" name="guideId" value={guideId} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        className={`favorite-button${shown ? ' is-favorite' : ''}`}
        aria-pressed={shown}
        aria-label={variant === 'icon' ? label : undefined}
        title={label}
        data-testid="favorite-toggle"
      >
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
          <path
            d="M12 20s-7.5-4.5-9-9.3C1.9 7.2 4.1 4.5 7.1 4.5c2 0 3.5 1.1 4.9 2.9 1.4-1.8 2.9-2.9 4.9-2.9 3 0 5.2 2.7 4.1 6.2C19.5 15.5 12 20 12 20z"
            fill={shown ? 'currentColor' : 'none'}
            stroke="currentColor"
            strokeWidth="2"
            strokeLinejoin="round"
          />
        </svg>
        {variant === 'text' ? <span>{shown ? t('discover.heart.saved') : t('discover.heart.save')}</span> : null}
      </button>
    </form>
  );
}

interface FetcherState {
  pending: boolean;
  favorited?: boolean;
}

/**
 * Sends each click's fields through a fetcher (so loaders revalidate) and tells the heart when the server has
 * answered. The heart marks itself pending at the click, so only the end of a submission is reported.
 */
function FavoriteFetcher({ request, onChange }: { request: FormData; onChange: (state: FetcherState) => void }) {
  const fetcher = useFetcher<{ favorited?: boolean }>();
  const { submit, state, data } = fetcher;
  const sawBusy = useRef(false);
  useEffect(() => {
    submit(request, { method: 'post', action: '/favorites', preventScrollReset: true });
  }, [request, submit]);
  useEffect(() => {
    if (state !== 'idle') sawBusy.current = true;
    else if (sawBusy.current) {
      sawBusy.current = false;
      onChange({ pending: false, favorited: data?.favorited });
    }
  }, [state, data, onChange]);
  return null;
}
