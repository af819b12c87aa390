import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { PhotoStatus } from '~/components/photo-status';
import { AdminPageHead, profileCompleteness, ratingSummary } from '~/components/admin';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/session.server';
import { orErrorPage, pageIdParam, readForm } from '~/http/page.server';
import { replyWithError } from '~/http/forms.server';
import { redirectWithToast } from '~/http/toast.server';
import { formatTaipeiDate } from '~/lib/dates';
import { parseIdParam } from '~/lib/ids';
import { formatNtd } from '~/lib/money';
import { pageMeta } from '~/lib/meta';
import { guideStatusSchema } from '~/schemas/trust';
import { AppError } from '~/services/platform/errors.server';
import { getGuideForAdmin, setGuideStanding } from '~/services/trust/guide-standing.server';
import { listAllGuidePhotos } from '~/services/trust/photos.server';

/** /admin/guides/:id (issue 11): one guide's standing and facts; suspend or reinstate with a reason. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const id = pageIdParam(params.id);
  const t = await getFixedT(request);
  const guide = await orErrorPage(() => getGuideForAdmin(id), { existencePrivate: true });
  const photos = await listAllGuidePhotos(guide.id);
  return { title: `${t('trust.admin.guides.detail')}: ${guide.name}`, guide, photos };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['trust', 'account'] };

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const submission = parseWithZod(await readForm(request), { schema: guideStatusSchema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  try {
    const id = parseIdParam(params.id);
    if (id === undefined) throw new AppError('GUIDE_NOT_FOUND');
    const guide = await getGuideForAdmin(id);
    await setGuideStanding(user, id, submission.value);
    return redirectWithToast(`/admin/guides/${id}`, {
      key: submission.value.status === 'suspended' ? 'trust.admin.guides.suspended' : 'trust.admin.guides.reinstated',
      params: { name: guide.name },
      type: 'success',
    });
  } catch (error) {
    return replyWithError(request, submission, error);
  }
}

export default function AdminGuide() {
  const { guide, photos } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm<{ status: string; reason: string }>({ id: 'guide-standing', schema: guideStatusSchema, lastResult: actionData?.result });
  const { t, i18n } = useTranslation();
  const suspended = guide.standing === 'suspended';
  return (
    <div className="admin-page">
      <AdminPageHead title={guide.name} back={{ to: '/admin/guides', label: t('trust.admin.guides.title') }} />
      <section className="card" aria-labelledby="guide-facts">
        <h2 id="guide-facts">{t('trust.admin.guides.detail')}</h2>
        <dl className="stat-list">
          <div>
            <dt>{t('trust.admin.guides.email')}</dt>
            <dd>
              {guide.email} ({t(guide.isEmailVerified ? 'trust.admin.guides.yes' : 'trust.admin.guides.no')})
            </dd>
          </div>
          <div>
            <dt>{t('trust.admin.guides.idState')}</dt>
            <dd>{t(guide.isIdVerified ? 'trust.admin.guides.yes' : 'trust.admin.guides.no')}</dd>
          </div>
          <div>
            <dt>{t('trust.admin.guides.standing')}</dt>
            <dd data-testid="guide-standing">
              {t(`trust.admin.guides.standings.${guide.standing}`)} · {t(guide.publishable ? 'trust.admin.guides.listed' : 'trust.admin.guides.notListed')}
              {guide.blocked && <> · {t('trust.admin.guides.blocked')}</>}
            </dd>
          </div>
          <div>
            <dt>{t('trust.admin.guides.profile')}</dt>
            <dd>
              {profileCompleteness(t, guide.missing)}
            </dd>
          </div>
          <div>
            <dt>{t('trust.admin.guides.price')}</dt>
            <dd>{guide.price ? formatNtd(guide.price, i18n.language) : '—'}</dd>
          </div>
          <div>
            <dt>{t('trust.admin.guides.orders')}</dt>
            <dd>{guide.orders}</dd>
          </div>
          <div>
            <dt>{t('trust.admin.guides.rating')}</dt>
            <dd>{ratingSummary(t, guide.rating, guide.reviewCount)}</dd>
          </div>
          <div>
            <dt>{t('trust.admin.guides.registered')}</dt>
            <dd>{formatTaipeiDate(guide.registerDate, i18n.language)}</dd>
          </div>
        </dl>
        {guide.publishable && (
          <p className="small">
            <Link to={`/guides/${guide.id}`}>{t('trust.admin.guides.publicPage')}</Link>
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="guide-standing-title">
        <h2 id="guide-standing-title">{t(suspended ? 'trust.admin.guides.reinstate' : 'trust.admin.guides.suspend')}</h2>
        <p className="small muted">{t('trust.admin.guides.suspendedNote')}</p>
        <Form method="post" className="form" {...getFormProps(form)}>
          <FormErrors form={form} />
          <input type="hidden" name="status" value={suspended ? 'active' : 'suspended'} />
          <TextareaField field={fields.reason} label={t('trust.admin.guides.reason')} rows={2} />
          <div className="form-actions">
            <SubmitButton
              busy={navigation.state === 'submitting'}
              className={suspended ? 'button' : 'button button-danger'}
              label={t(suspended ? 'trust.admin.guides.reinstate' : 'trust.admin.guides.suspend')}
            />
          </div>
        </Form>
      </section>

      <section className="card" aria-labelledby="guide-photos-title">
        <h2 id="guide-photos-title">{t('trust.admin.guides.photos')}</h2>
        {photos.length === 0 ? (
          <p className="muted">{t('trust.photos.empty')}</p>
        ) : (
          <ul className="admin-photo-grid">
            {photos.map((p) => (
              <li key={p.id}>
                <img src={p.url} alt={t('trust.admin.photoQueue.photoAlt', { name: guide.name, id: p.id })} width={240} height={180} loading="lazy" />
                <PhotoStatus status={p.status} />
              </li>
            ))}
          </ul>
        )}
        <p className="small">
          <Link to={`/admin/photos?guideId=${guide.id}`}>{t('trust.admin.guides.viewPhotos')}</Link>
        </p>
      </section>
    </div>
  );
}
