import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { GuideCard } from '~/components/guide-card';
import type { I18nHandle } from '~/i18n/bundles';
import { getLocale } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { listActiveBanners } from '~/services/banners.server';
import { guideCoverage, listFeaturedGuides } from '~/services/guides.server';

// Guide cards say "ID verified" and the next open day (search.json).
export const handle: I18nHandle = { i18n: ['search'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = await getLocale(request);
  const [banners, featured, coverage] = await Promise.all([
    listActiveBanners(locale),
    listFeaturedGuides(6, locale),
    guideCoverage(),
  ]);
  return { banners, featured, coverage };
}

export const meta: MetaFunction = ({ matches }) => pageMeta(matches);

export default function Home() {
  const { banners, featured, coverage } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <>
      <section className="hero">
        <h1>{t('home.heroTitle')}</h1>
        <p>{t('home.heroText', { guides: coverage.guides, cities: coverage.cities })}</p>
        <Link to="/guides" className="button button-large">
          {t('home.browseGuides')}
        </Link>
      </section>

      {banners.length > 0 && (
        <section aria-label={t('home.banners')} className="banners">
          {banners.map((b, i) => (
            <Link key={b.id} to={b.linkUrl ?? '/guides'} className="banner">
              {b.imageUrl && (
                <img
                  src={b.imageUrl}
                  alt=""
                  width={1200}
                  height={400}
                  loading={i === 0 ? 'eager' : 'lazy'}
                  decoding="async"
                />
              )}
              <span className="banner-text">
                <strong>{b.title}</strong>
                {b.subtitle && <span>{b.subtitle}</span>}
              </span>
            </Link>
          ))}
        </section>
      )}

      <section aria-labelledby="featured-title" className="section">
        <div className="section-head">
          <h2 id="featured-title">{t('home.featuredGuides')}</h2>
          <Link to="/guides">{t('home.seeAll')}</Link>
        </div>
        <div className="guide-grid" data-testid="featured-guides">
          {featured.map((g) => (
            <GuideCard key={g.id} guide={g} />
          ))}
        </div>
      </section>
    </>
  );
}
