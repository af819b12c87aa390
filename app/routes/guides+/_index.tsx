import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { GuideCard } from '~/components/guide-card';
import { PaginationNav } from '~/components/pagination';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { listGuides } from '~/services/guides.server';

const querySchema = z.object({ page: z.coerce.number().int().min(1).max(10_000).catch(1) });

export async function loader({ request }: LoaderFunctionArgs) {
  const { page } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const [result, t] = await Promise.all([listGuides({ page }), getFixedT(request)]);
  return { ...result, title: t('guides.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function GuideList() {
  const { guides, pagination } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <section aria-labelledby="guides-title" className="section">
      <div className="section-head">
        <h1 id="guides-title">{t('guides.title')}</h1>
        <p className="muted">{t('guides.count', { count: pagination.total })}</p>
      </div>
      {guides.length === 0 ? (
        <p className="empty">{t('guides.empty')}</p>
      ) : (
        <div className="guide-list" data-testid="guide-list">
          {guides.map((g) => (
            <GuideCard key={g.id} guide={g} headingLevel={2} />
          ))}
        </div>
      )}
      <PaginationNav page={pagination.page} totalPages={pagination.totalPages} basePath="/guides" />
    </section>
  );
}
