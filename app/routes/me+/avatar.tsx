import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { getSession, requireUser } from '~/http/session.server';
import { pageMeta } from '~/lib/meta';
import { redirectWithToast } from '~/http/toast.server';
import { readUploadForm, removeAvatar, setAvatar, uploadedBytes } from '~/services/accounts/avatars.server';
import { attempt } from '~/http/forms.server';
import { AppError } from '~/services/platform/errors.server';

/**
 * POST /me/avatar: the avatar block's form (SPEC §2 Avatar block). Plain HTML first: intent=upload stores
 * the picture (the server centre-crops) and goes back to /me with a toast; intent=remove first answers the
 * confirmation page (GET /me/avatar?confirm=remove), and removes with confirmed=1. The JS crop dialog
 * posts through a fetcher with `_format=json` (or `Accept: application/json`) and gets `{ ok, avatarUrl }`
 * / `{ ok: false, message }` with the error's status instead of a redirect. Any other GET goes to /me.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  // The only page here is the JS-off question "remove the avatar?" (after POST → redirect → GET).
  if (new URL(request.url).searchParams.get('confirm') !== 'remove') return redirect('/me');
  const [, t] = await Promise.all([requireUser(request), getFixedT(request)]);
  return data({ confirmRemove: true as const, title: t('avatar.confirmRemoveTitle') });
}

type Intent = 'upload' | 'remove';

export async function action({ request }: ActionFunctionArgs) {
  const fields = new Map<string, string>();
  const acceptsJson = (request.headers.get('accept') ?? '').includes('application/json');
  const wantsJson = () => acceptsJson || fields.get('_format') === 'json';

  const session = await getSession(request);
  if (!session) {
    if (acceptsJson) return failure(request, new AppError('UNAUTHORIZED'), 'upload', true);
    await requireUser(request); // throws the redirect to /login
  }
  const user = session!.user;

  let intent: Intent = 'upload';
  const outcome = await attempt(async () => {
    const form = await readUploadForm(request, fields);
    const rawIntent = form.get('intent');
    if (rawIntent !== 'upload' && rawIntent !== 'remove') throw new AppError('VALIDATION_ERROR');
    intent = rawIntent;

    if (intent === 'upload') {
      const avatarUrl = await setAvatar(user, user.id, await uploadedBytes(form, 'avatar'));
      if (wantsJson()) return data({ ok: true as const, avatarUrl });
      return redirectWithToast('/me', { key: 'avatar.uploaded', type: 'success' });
    }

    // Without JS there is no window.confirm: ask on a page of our own first (a GET, so reloading it is safe).
    if (form.get('confirmed') !== '1') return redirect('/me/avatar?confirm=remove');
    await removeAvatar(user, user.id);
    if (wantsJson()) return data({ ok: true as const, avatarUrl: null });
    return redirectWithToast('/me', { key: 'avatar.removed', type: 'success' });
  });
  return outcome.ok ? outcome.value : failure(request, outcome.error, intent, wantsJson());
}

async function failure(request: Request, error: AppError, intent: Intent, json: boolean) {
  const t = await getFixedT(request);
  const message = t(error.messageKey, error.params);
  if (json) return data({ ok: false as const, message }, { status: error.status });
  return redirectWithToast('/me', {
    key: intent === 'remove' ? 'avatar.removeFailedWith' : 'avatar.uploadFailedWith',
    params: { reason: message },
    type: 'error',
  });
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) =>
  pageMeta(matches, data && 'title' in data ? data.title : undefined);

export const handle: I18nHandle = { i18n: ['avatar'] };

/** Seen without JS only: "Are you sure you want to remove the avatar?" with remove and cancel. */
export default function ConfirmAvatarRemoval() {
  const { t } = useTranslation();
  return (
    <section className="card avatar-confirm" aria-labelledby="avatar-confirm-title">
      <h1 id="avatar-confirm-title">{t('avatar.confirmRemoveTitle')}</h1>
      <p>{t('avatar.confirmRemove')}</p>
      <Form method="post" action="/me/avatar" className="avatar-confirm-actions">
        <input type="hidden" name="intent" value="remove" />
        <input type="hidden" name="confirmed" value="1" />
        <button type="submit" className="button button-danger">
          {t('avatar.confirmRemoveButton')}
        </button>
        <Link to="/me" className="button button-secondary">
          {t('avatar.cancel')}
        </Link>
      </Form>
    </section>
  );
}
