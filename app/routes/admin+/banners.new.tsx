import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { BannerForm, type BannerFormAnswer } from '~/components/banner-form';
import { bannerFormAction } from '~/http/banner-form.server';
import { requireRole } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { createBanner } from '~/services/admin/banners.server';

/** /admin/banners/new (issue 22): a new home banner, previewed before it is saved; it goes last in the order. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const t = await getFixedT(request);
  return { title: t('banners.admin.new') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['banners', 'trust'] };

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  return bannerFormAction(request, user, (input) => createBanner(user, input), { key: 'banners.admin.created' });
}

export default function NewBanner() {
  const answer = useActionData<typeof action>() as BannerFormAnswer | undefined;
  const { t } = useTranslation();
  return (
    <div className="admin-page">
      <AdminPageHead title={t('banners.admin.new')} back={{ to: '/admin/banners', label: t('banners.admin.title') }} />
      <BannerForm id="banner-new" action="/admin/banners/new" defaultValue={{ isActive: 'on' }} currentImageUrl={null} answer={answer} saveLabel={t('banners.form.publish')} />
    </div>
  );
}
