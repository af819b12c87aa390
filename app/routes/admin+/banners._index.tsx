import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { ConfirmDialog } from '~/components/confirm-dialog';
import { SubmitButton } from '~/components/forms/form-fields';
import { useMessages } from '~/components/forms/messages';
import { attempt, errorMessage } from '~/http/forms.server';
import { pageIdParam, readForm } from '~/http/page.server';
import { requireRole } from '~/http/session.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import type { Banner } from '~/schemas/banners';
import { deleteBanner, getBanner, listBanners, moveBanner } from '~/services/admin/banners.server';

/**
 * /admin/banners (issue 22): the home banners in the order the home page shows them, whether each is shown now,
 * and what an admin does to them with plain forms: move one up or down, edit it, delete it (asked first: a modal
 * with JS, a confirmation step without). New and edit forms: ./banners.new.tsx, ./banners.$id.tsx.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const [t, banners] = await Promise.all([getFixedT(request), listBanners(user)]);
  return { title: t('banners.admin.title'), banners };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['banners', 'trust'] };

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const form = await readForm(request);
  const intent = form.get('intent');
  if (intent !== 'up' && intent !== 'down' && intent !== 'delete') {
    const t = await getFixedT(request);
    return data({ error: t('validation.invalid') }, { status: 400 });
  }
  const id = pageIdParam(form.get('id') as string | null);
  if (intent === 'up' || intent === 'down') {
    const outcome = await attempt(() => moveBanner(user, id, intent));
    if (!outcome.ok) return data({ error: await errorMessage(request, outcome.error) }, { status: outcome.error.status });
    return redirectWithToast('/admin/banners', { key: 'banners.admin.moved', type: 'success' });
  }
  if (form.get('confirmed') !== 'yes') {
    const asked = await attempt(() => getBanner(user, id));
    if (!asked.ok) return data({ error: await errorMessage(request, asked.error) }, { status: asked.error.status });
    return data({ confirm: { id, title: asked.value.title } });
  }
  const outcome = await attempt(() => deleteBanner(user, id));
  if (!outcome.ok) return data({ error: await errorMessage(request, outcome.error) }, { status: outcome.error.status });
  return redirectWithToast('/admin/banners', { key: 'banners.admin.deleted', type: 'success' });
}

type Asking = { id: number; title: string };

/** A button whose visible label is a sign; screen readers hear the words. */
function Named({ visible, hidden }: { visible: string; hidden: string }) {
  return (
    <>
      <span aria-hidden="true">{visible}</span>
      <span className="visually-hidden">{hidden}</span>
    </>
  );
}

/** Shown on the home page now, waiting for its start, past its end, or switched off. */
function stateOf(banner: Banner, now: number): 'live' | 'scheduled' | 'ended' | 'off' {
  if (!banner.isActive) return 'off';
  if (banner.live) return 'live';
  if (banner.endsAt && Date.parse(banner.endsAt) <= now) return 'ended';
  return 'scheduled';
}

export default function AdminBanners() {
  const { banners } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as { confirm: Asking } | { error: string } | undefined;
  const [asking, setAsking] = useState<Asking | null>(null);
  const confirm = asking ?? (answer && 'confirm' in answer ? answer.confirm : null);
  const navigation = useNavigation();
  useEffect(() => {
    if (navigation.state === 'idle') setAsking(null);
  }, [navigation.state]);
  const pending = navigation.state === 'submitting' ? `${navigation.formData?.get('intent')}:${navigation.formData?.get('id')}` : null;
  const messages = useMessages();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  // The states come from the server's clock (`live`); "ended" vs "scheduled" only needs a rough now.
  const [now] = useState(() => Date.now());

  const ask = (banner: Banner) => (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    setAsking({ id: banner.id, title: banner.title });
  };

  return (
    <div className="admin-page admin-banners">
      <AdminPageHead title={t('banners.admin.title')} intro={t('banners.admin.lead')} />
      <p>
        <Link to="/admin/banners/new" className="button">
          {t('banners.admin.new')}
        </Link>
      </p>
      {confirm ? (
        <ConfirmDialog
          title={t('banners.admin.confirmDelete.title')}
          intent="delete"
          hidden={{ id: confirm.id }}
          action="/admin/banners"
          confirmLabel={t('banners.admin.delete')}
          keepLabel={t('banners.admin.keep')}
          busyLabel={t('banners.form.working')}
          busy={pending === `delete:${confirm.id}`}
          onKeep={asking ? () => setAsking(null) : undefined}
          testId="confirm-banner-delete"
        >
          <p>{t('banners.admin.confirmDelete.body', { title: confirm.title })}</p>
        </ConfirmDialog>
      ) : null}
      {answer && 'error' in answer ? (
        <p className="form-error" role="alert">
          {messages([answer.error])}
        </p>
      ) : null}

      {banners.length === 0 ? (
        <p className="muted">{t('banners.admin.empty')}</p>
      ) : (
        <ol className="banner-admin-list" data-testid="banner-list">
          {banners.map((banner, i) => {
            const state = stateOf(banner, now);
            return (
              <li key={banner.id} className="card banner-admin-item" data-testid="banner-row">
                <div className="banner-admin-thumb">
                  {banner.imageUrl ? <img src={banner.imageUrl} alt="" width={180} height={60} loading="lazy" decoding="async" /> : <span className="muted small">{t('banners.admin.noImage')}</span>}
                </div>
                <div className="banner-admin-facts">
                  <p className="banner-admin-title">
                    <span className="muted">{t('banners.admin.position', { position: banner.position })}</span> <strong>{banner.title}</strong>
                  </p>
                  <p className="small">
                    <span className={`state-label banner-state-${state}`} data-testid="banner-state">
                      {t(`banners.admin.state.${state}`)}
                    </span>{' '}
                    {banner.startsAt || banner.endsAt ? (
                      <span className="muted">
                        {t('banners.admin.window', {
                          from: banner.startsAt ? formatTaipeiDateTime(banner.startsAt, lang) : '—',
                          until: banner.endsAt ? formatTaipeiDateTime(banner.endsAt, lang) : '—',
                        })}
                      </span>
                    ) : null}
                  </p>
                  {banner.linkUrl ? <p className="small muted admin-details">{banner.linkUrl}</p> : null}
                </div>
                <div className="admin-actions banner-admin-actions">
                  <Form method="post" action="/admin/banners">
                    <input type="hidden" name="id" value={banner.id} />
                    <SubmitButton
                      busy={pending === `up:${banner.id}`}
                      name="intent"
                      value="up"
                      disabled={i === 0}
                      className="button button-secondary"
                      label={<Named visible="↑" hidden={t('banners.admin.moveUp', { title: banner.title })} />}
                    />
                  </Form>
                  <Form method="post" action="/admin/banners">
                    <input type="hidden" name="id" value={banner.id} />
                    <SubmitButton
                      busy={pending === `down:${banner.id}`}
                      name="intent"
                      value="down"
                      disabled={i === banners.length - 1}
                      className="button button-secondary"
                      label={<Named visible="↓" hidden={t('banners.admin.moveDown', { title: banner.title })} />}
                    />
                  </Form>
                  <Link to={`/admin/banners/${banner.id}`} className="button button-secondary">
                    {t('banners.admin.edit')}
                    <span className="visually-hidden"> {banner.title}</span>
                  </Link>
                  <Form method="post" action="/admin/banners">
                    <input type="hidden" name="id" value={banner.id} />
                    <SubmitButton
                      busy={pending === `delete:${banner.id}`}
                      name="intent"
                      value="delete"
                      className="button button-danger"
                      onClick={ask(banner)}
                      label={
                        <>
                          {t('banners.admin.delete')}
                          <span className="visually-hidden"> {banner.title}</span>
                        </>
                      }
                    />
                  </Form>
                </div>
              </li>
            );
          })}
        </ol>
      )}
      <p className="small">
        <Link to="/">{t('banners.admin.seeHome')}</Link>
      </p>
    </div>
  );
}
