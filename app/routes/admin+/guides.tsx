import { getFormProps } from '@conform-to/react';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, SelectField, SubmitButton } from '~/components/forms/form-fields';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { AdminPageHead, profileCompleteness, ratingSummary } from '~/components/admin';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/session.server';
import { pageMeta } from '~/lib/meta';
import { GUIDE_STATUSES } from '~/lib/trust-statuses';
import { adminGuideQuerySchema } from '~/schemas/trust';
import { listGuidesForAdmin } from '~/services/trust/guide-standing.server';

/**
 * /admin/guides (issue 11): every guide that is not archived, with email and ID state, profile
 * completeness, photos, orders and rating, filtered by standing and a search term (a GET form).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const parsed = adminGuideQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const filter = parsed.success ? parsed.data : {};
  const [t, guides] = await Promise.all([getFixedT(request), listGuidesForAdmin(filter)]);
  return { title: t('trust.admin.guides.title'), guides, filter: { standing: filter.standing ?? '', search: filter.search ?? '' } };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['trust', 'account'] };

export default function AdminGuides() {
  const { guides, filter } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm<typeof filter>({ id: 'guide-filter', schema: adminGuideQuerySchema, defaultValue: filter });
  return (
    <div className="admin-page">
      <AdminPageHead title={t('trust.admin.guides.title')} />
      <Form method="get" className="card filter-form" {...getFormProps(form)}>
        <Field field={fields.search} type="search" label={t('trust.admin.guides.search')} />
        <SelectField
          field={fields.standing}
          label={t('trust.admin.guides.standing')}
          placeholder={t('trust.admin.guides.any')}
          options={GUIDE_STATUSES.map((s) => ({ value: s, label: t(`trust.admin.guides.standings.${s}`) }))}
        />
        <SubmitButton busy={false} label={t('trust.admin.guides.filter')} />
      </Form>
      {guides.length === 0 ? (
        <p className="card empty">{t('trust.admin.guides.empty')}</p>
      ) : (
        <div className="card admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">{t('trust.admin.guides.name')}</th>
                <th scope="col">{t('trust.admin.guides.standing')}</th>
                <th scope="col">{t('trust.admin.guides.emailState')}</th>
                <th scope="col">{t('trust.admin.guides.idState')}</th>
                <th scope="col">{t('trust.admin.guides.profile')}</th>
                <th scope="col">{t('trust.admin.guides.photos')}</th>
                <th scope="col">{t('trust.admin.guides.orders')}</th>
                <th scope="col">{t('trust.admin.guides.rating')}</th>
              </tr>
            </thead>
            <tbody>
              {guides.map((g) => (
                <tr key={g.id} data-testid={`admin-guide-${g.id}`}>
                  <th scope="row">
                    <Link to={`/admin/guides/${g.id}`}>{g.name}</Link>
                    <div className="small muted">{g.email}</div>
                  </th>
                  <td>
                    {t(`trust.admin.guides.standings.${g.standing}`)}
                    <div className="small muted">{t(g.publishable ? 'trust.admin.guides.listed' : 'trust.admin.guides.notListed')}</div>
                  </td>
                  <td>{t(g.isEmailVerified ? 'trust.admin.guides.yes' : 'trust.admin.guides.no')}</td>
                  <td>{t(g.isIdVerified ? 'trust.admin.guides.yes' : 'trust.admin.guides.no')}</td>
                  <td>
                    {profileCompleteness(t, g.missing)}
                  </td>
                  <td>{t('trust.admin.guides.photoCounts', { approved: g.approvedPhotos, pending: g.pendingPhotos })}</td>
                  <td>{g.orders}</td>
                  <td>{ratingSummary(t, g.rating, g.reviewCount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
