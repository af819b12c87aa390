import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { BannerCard } from '~/components/banner-card';
import { FavoriteButton } from '~/components/favorite-button';
import { GuideCard } from '~/components/guide-card';
import type { I18nHandle } from '~/i18n/bundles';
import { getLocale } from '~/i18n/i18n.server';
import { getUser } from '~/http/session.server';
import { pageMeta } from '~/lib/meta';
import type { GuideCard as GuideCardData } from '~/schemas/guide-card';
import { listActiveBanners } from '~/services/admin/banners.server';
import { favoriteGuideIds } from '~/services/catalogue/favorites.server';
import { guideCoverage } from '~/services/catalogue/guides.server';
import { topRatedGuides, trendingCities, trendingGuides } from '~/services/catalogue/trending.server';

/**
 * Home (SPEC §2; issue 9): a search box that goes to /guides, the banners that are active and inside their
 * dates in the reader's language (in the admin's order, read fresh on every request: /admin/banners), featured guides ranked by the Bayesian average rating, and what is
 * trending (cities and guides from the last 30 days of bookings and favorites). Hearts post to /favorites.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const [locale, user] = await Promise.all([getLocale(request), getUser(request)]);
  const [banners, featured, cities, trending, coverage] = await Promise.all([
    listActiveBanners(locale),
    topRatedGuides(6, { locale }),
    trendingCities(6),
    trendingGuides(6, { locale }),
    guideCoverage(),
  ]);
  const shown = [...featured, ...trending].map((g) => g.id);
  const favorites = user ? [...(await favoriteGuideIds(user.id, shown))] : [];
  // A guide's own card carries no heart (the favorites service refuses it).
  return { banners, featured, cities, trending, coverage, favorites, ...(user && { viewerId: user.id }) };
}

// Guide cards say "ID verified" and the next open day (search.json).
export const handle: I18nHandle = { i18n: ['discover', 'search'] };

export const meta: MetaFunction = ({ matches }) => pageMeta(matches);

export default function Home() {
  const { banners, featured, cities, trending, coverage, favorites, viewerId } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const favoriteSet = new Set(favorites);
  return (
    <>
      <section className="hero">
        <h1>{t('home.heroTitle')}</h1>
        <p>{t('home.heroText', { guides: coverage.guides, cities: coverage.cities })}</p>
        <Form method="get" action="/guides" className="home-search" role="search">
          <label htmlFor="home-keyword" className="visually-hidden">
            {t('discover.home.searchLabel')}
          </label>
          <input
            id="home-keyword"
            type="search"
            name="keyword"
            placeholder={t('discover.home.searchPlaceholder')}
            autoComplete="off"
            enterKeyHint="search"
            maxLength={100}
          />
          <button type="submit" className="button">
            {t('discover.home.search')}
          </button>
        </Form>
        <Link to="/guides" className="hero-browse">
          {t('home.browseGuides')}
        </Link>
      </section>

      {banners.length > 0 && (
        <section aria-label={t('home.banners')} className="banners">
          {banners.map((b, i) => (
            <BannerCard key={b.id} banner={b} eager={i < 3} />
          ))}
        </section>
      )}

      <section aria-labelledby="featured-title" className="section">
        <div className="section-head">
          <h2 id="featured-title">{t('home.featuredGuides')}</h2>
          <Link to="/guides?sort=rating_desc">{t('home.seeAll')}</Link>
        </div>
        <p className="muted section-note">{t('discover.home.featuredNote')}</p>
        <GuideGrid guides={featured} favorites={favoriteSet} viewerId={viewerId} testId="featured-guides" />
      </section>

      {cities.length > 0 && (
        <section aria-labelledby="trending-cities-title" className="section">
          <h2 id="trending-cities-title">{t('discover.home.trendingCities')}</h2>
          <ol className="trending-cities" data-testid="trending-cities">
            {cities.map((c, i) => (
              <li key={c.city}>
                <Link to={`/guides?city=${encodeURIComponent(c.city)}`} className="trending-city">
                  <span className="trending-rank" aria-hidden="true">
                    {i + 1}
                  </span>
                  <span className="trending-city-name">{t(`cities.${c.city}`)}</span>
                  <span className="muted trending-city-meta">{t('discover.home.cityGuides', { count: c.guideCount })}</span>
                </Link>
              </li>
            ))}
          </ol>
        </section>
      )}

      {trending.length > 0 && (
        <section aria-labelledby="trending-guides-title" className="section">
          <h2 id="trending-guides-title">{t('discover.home.trendingGuides')}</h2>
          <GuideGrid guides={trending} favorites={favoriteSet} viewerId={viewerId} testId="trending-guides" />
        </section>
      )}
    </>
  );
}

function GuideGrid({ guides, favorites, viewerId, testId }: { guides: GuideCardData[]; favorites: Set<number>; viewerId?: number; testId: string }) {
  return (
    <div className="guide-grid" data-testid={testId}>
      {guides.map((g) => (
        <div key={g.id} className="card-with-heart">
          <GuideCard guide={g} />
          {g.id !== viewerId && <FavoriteButton guideId={g.id} guideName={g.name} favorited={favorites.has(g.id)} redirectTo="/" />}
        </div>
      ))}
    </div>
  );
}
