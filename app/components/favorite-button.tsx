import { useFetcher } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { submitWithJsonReply } from './json-reply-submit';

/**
 * The heart (issue 9): a plain POST form to /favorites (`intent=toggle`, `guideId`, `redirectTo`) that works
 * with JS off (the action redirects back with a toast). With JS it is a fetcher: the heart flips at once
 * (optimistic) and the action answers JSON instead of redirecting (submitWithJsonReply). A visitor who is not
 * logged in is sent to /login and comes back to `redirectTo`.
 * Its words are in common.json (`discover.heart`), so any page can show it.
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
  const fetcher = useFetcher<{ favorited?: boolean }>();
  // Optimistic: while the toggle is on its way, show what it will be; afterwards what the server said.
  const pending = fetcher.formData?.get('intent') === 'toggle';
  const shown = pending ? !favorited : (fetcher.data?.favorited ?? favorited);
  const label = shown ? t('discover.heart.remove', { name: guideName }) : t('discover.heart.add', { name: guideName });
  return (
    <form
      method="post"
      action="/favorites"
      className={`favorite-form favorite-${variant}`}
      onSubmit={submitWithJsonReply(fetcher)}
    >
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
