import { getFormProps } from '@conform-to/react';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, SelectField, SubmitButton } from '~/components/forms/form-fields';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { PhotoStatus } from '~/components/photo-status';
import { AdminPageHead } from '~/components/admin';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/session.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { PHOTO_STATUSES } from '~/lib/trust-statuses';
import { adminPhotoQuerySchema, photoStatusLabelKey } from '~/schemas/trust';
import { listPhotosForAdmin } from '~/services/trust/photos.server';

/** /admin/photos (issue 11): every photo, filtered by status and guide (a GET form: bookmarkable, JS optional). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = adminPhotoQuerySchema.safeParse(params);
  const filter = parsed.success ? parsed.data : {};
  const [t, photos] = await Promise.all([getFixedT(request), listPhotosForAdmin(filter)]);
  return { title: t('trust.admin.photos.title'), photos, filter: { status: filter.status ?? '', guideId: filter.guideId ? String(filter.guideId) : '' } };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['trust', 'account'] };

export default function AdminPhotos() {
  const { photos, filter } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const [form, fields] = useSchemaForm<typeof filter>({ id: 'photo-filter', schema: adminPhotoQuerySchema, defaultValue: filter });
  return (
    <div className="admin-page">
      <AdminPageHead title={t('trust.admin.photos.title')} also={{ to: '/admin/photo-review', label: t('trust.admin.photoQueue.title') }} />
      <Form method="get" className="card filter-form" {...getFormProps(form)}>
        <SelectField
          field={fields.status}
          label={t('trust.admin.photos.status')}
          placeholder={t('trust.admin.photos.anyStatus')}
          options={PHOTO_STATUSES.map((s) => ({ value: s, label: t(photoStatusLabelKey(s)) }))}
        />
        <Field field={fields.guideId} label={t('trust.admin.photos.guide')} inputMode="numeric" />
        <SubmitButton busy={false} label={t('trust.admin.photos.filter')} />
      </Form>
      {photos.length === 0 ? (
        <p className="card empty">{t('trust.admin.photos.empty')}</p>
      ) : (
        <ul className="admin-photo-grid">
          {photos.map((p) => (
            <li key={p.id} className="card">
              <a href={p.url} target="_blank" rel="noreferrer">
                <img src={p.url} alt={t('trust.admin.photoQueue.photoAlt', { name: p.guideName, id: p.id })} width={240} height={180} loading="lazy" />
              </a>
              <p className="small">
                <PhotoStatus status={p.status} />{' '}
                <Link to={`/admin/guides/${p.guideId}`}>{p.guideName}</Link>
              </p>
              <p className="small muted">{formatTaipeiDateTime(p.createdAt, i18n.language)}</p>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
