import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { BannerForm, type BannerFormAnswer } from '~/components/banner-form';
import { bannerFormAction } from '~/http/banner-form.server';
import { orErrorPage, pageIdParam } from '~/http/page.server';
import { requireRole } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { bannerMomentInput } from '~/schemas/banners';
import { getBanner, updateBanner } from '~/services/admin/banners.server';

/** /admin/banners/:id (issue 22): change a banner's text, link, picture, switch or window; preview before saving. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const id = pageIdParam(params.id);
  const [t, banner] = await Promise.all([getFixedT(request), orErrorPage(() => getBanner(user, id))]);
  return { title: t('banners.admin.editTitle', { title: banner.title }), banner };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['banners', 'trust'] };

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const id = pageIdParam(params.id);
  await orErrorPage(() => getBanner(user, id));
  return bannerFormAction(request, user, (input) => updateBanner(user, id, input), { key: 'banners.admin.updated' });
}

export default function EditBanner() {
  const { banner, title } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as BannerFormAnswer | undefined;
  const { t } = useTranslation();
  const text = (v: string | null) => v ?? '';
  return (
    <div className="admin-page">
      <AdminPageHead title={title} back={{ to: '/admin/banners', label: t('banners.admin.title') }} />
      <BannerForm
        id={`banner-${banner.id}`}
        action={`/admin/banners/${banner.id}`}
        defaultValue={{
          title: banner.title,
          titleEn: text(banner.titleEn),
          titleJa: text(banner.titleJa),
          subtitle: text(banner.subtitle),
          subtitleEn: text(banner.subtitleEn),
          subtitleJa: text(banner.subtitleJa),
          linkUrl: text(banner.linkUrl),
          isActive: banner.isActive ? 'on' : '',
          startsAt: bannerMomentInput(banner.startsAt),
          endsAt: bannerMomentInput(banner.endsAt),
          imageKey: text(banner.imageKey),
        }}
        currentImageUrl={banner.imageUrl}
        answer={answer}
        saveLabel={t('banners.form.save')}
      />
    </div>
  );
}
