import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useFetcher, useLoaderData, useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { GuideCard } from '~/components/guide-card';
import { submitWithJsonReply } from '~/components/json-reply-submit';
import { PaginationNav } from '~/components/pagination';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { getSession, requireUser } from '~/http/session.server';
import { redirectWithToast } from '~/http/toast.server';
import { readForm } from '~/http/page.server';
import { attempt, errorMessage, formValue } from '~/http/forms.server';
import { pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-url';
import { favoriteFormSchema } from '~/schemas/discover';
import { addFavorite, listFavorites, removeFavoriteGuide, toggleFavorite } from '~/services/catalogue/favorites.server';

/**
 * /favorites (SPEC §2, issue 9): the guides a person keeps, each with a remove button, and the action every
 * heart posts to: `intent=toggle|remove|add`, `guideId`, `redirectTo` (a path on this site). Without JS the
 * action redirects back to `redirectTo` with a toast; a fetcher adds `respond=json` and gets
 * `{ favorited }` (or `{ error }` with the failure's status). Visitors go to /login and come back.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  const page = Math.max(1, Math.min(100_000, Math.trunc(Number(url.searchParams.get('page') ?? '1')) || 1));
  const [locale, t] = await Promise.all([getLocale(request), getFixedT(request)]);
  const list = await listFavorites(user, user.id, { page, locale });
  if (page > list.pagination.totalPages) throw redirect(list.pagination.totalPages > 1 ? `/favorites?page=${list.pagination.totalPages}` : '/favorites');
  return { ...list, title: t('discover.favorites.title') };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const wantsJson = form.get('respond') === 'json';
  const back = safeRedirectPath(form.get('redirectTo'), '/favorites');
  const session = await getSession(request);
  // A visitor logs in first and comes back (a fetcher follows the redirect as a navigation too).
  if (!session) return redirect(`/login?${new URLSearchParams({ redirectTo: back })}`);
  const outcome = await attempt(async () => {
    const input = formValue(favoriteFormSchema, form);
    if (input.intent === 'toggle') return (await toggleFavorite(session.user, input.guideId)).favorited;
    if (input.intent === 'add') return Boolean(await addFavorite(session.user, input.guideId));
    await removeFavoriteGuide(session.user, input.guideId);
    return false;
  });
  if (outcome.ok) {
    const favorited = outcome.value;
    if (wantsJson) return data({ favorited });
    return redirectWithToast(back, { key: favorited ? 'discover.favorites.added' : 'discover.favorites.removed', type: 'success' });
  }
  const { error } = outcome;
  if (wantsJson) return data({ error: error.code, message: await errorMessage(request, error) }, { status: error.status });
  return redirectWithToast(back, { key: error.messageKey, params: error.params, type: 'error' });
}

export const handle: I18nHandle = { i18n: ['discover', 'search'] };

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function Favorites() {
  const { favorites, pagination } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="favorites-page">
      <header className="page-head">
        <h1>{t('discover.favorites.title')}</h1>
        <p className="muted">{t('discover.favorites.count', { count: pagination.total })}</p>
      </header>
      {favorites.length === 0 ? (
        <div className="empty-state" data-testid="favorites-empty">
          <p>{t('discover.favorites.empty')}</p>
          <Link to="/guides" className="button">
            {t('discover.favorites.findGuides')}
          </Link>
        </div>
      ) : (
        <ul className="favorite-list" data-testid="favorite-list">
          {favorites.map((f) => (
            <FavoriteItem key={f.id} favorite={f} />
          ))}
        </ul>
      )}
      <PaginationNav page={pagination.page} totalPages={pagination.totalPages} basePath="/favorites" />
    </div>
  );
}

type Item = ReturnType<typeof useLoaderData<typeof loader>>['favorites'][number];

function FavoriteItem({ favorite }: { favorite: Item }) {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ favorited?: boolean }>();
  const location = useLocation();
  // Optimistic: the card leaves as soon as the remove is on its way (it comes back if the server refuses).
  if (fetcher.state !== 'idle' || fetcher.data?.favorited === false) return null;
  const name = favorite.guide?.name ?? t('discover.favorites.unavailableName', { id: favorite.targetId });
  return (
    <li className="favorite-item" data-testid="favorite-item" data-guide-id={favorite.targetId}>
      {favorite.guide ? (
        <GuideCard guide={favorite.guide} headingLevel={2} />
      ) : (
        <article className="guide-card guide-card-unavailable">
          <h2 className="guide-name">{name}</h2>
          <p className="muted">{t('discover.favorites.unavailable')}</p>
        </article>
      )}
      <form method="post" action="/favorites" className="favorite-remove" onSubmit={submitWithJsonReply(fetcher)}>
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="guideId" value={favorite.targetId} />
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <button type="submit" className="button button-small button-secondary" aria-label={t('discover.favorites.removeNamed', { name })}>
          {t('discover.favorites.remove')}
        </button>
      </form>
    </li>
  );
}
