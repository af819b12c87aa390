import type { PageCacheHandle } from '~/http/contract';
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData, useLocation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '~/components/avatar';
import { FavoriteButton } from '~/components/favorite-button';
import { PriceUnit, useLanguageList, VerifiedMark, WrittenIn } from '~/components/guide-card';
import { PaginationNav } from '~/components/pagination';
import { Stars } from '~/components/stars';
import { useRootData } from '~/lib/root-data';
import { getConfig } from '~/env.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getLocale } from '~/i18n/i18n.server';
import { getUser } from '~/http/session.server';
import { orErrorPage, pageIdParam } from '~/http/page.server';
import { formatTourDay, formatTaipeiDate } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { slotHoursText } from '~/lib/time-slots';
import { favoriteGuideIds } from '~/services/catalogue/favorites.server';
import { getGuideDetail } from '~/services/catalogue/guides.server';
import { countGuideView } from '~/http/views.server';

// Anonymous visitors' copies may be kept a minute by a shared cache (docs/decisions/043-conditional-requests.md).
export const handle: I18nHandle & PageCacheHandle = { i18n: ['search', 'chat'], cache: 'shared' };

/** /guides/:id and /guide/:id (SPEC §2): a publishable guide's page; anything else is 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const id = pageIdParam(params.id);
  const url = new URL(request.url);
  const reviewPage = Number(url.searchParams.get('reviewPage')) || 1;
  const [locale, user] = await Promise.all([getLocale(request), getUser(request)]);
  const [detail, favorites] = await Promise.all([
    orErrorPage(() => getGuideDetail(id, { locale, reviewPage })),
    user ? favoriteGuideIds(user.id, [id]) : new Set<number>(),
    // The statistics' funnel (docs/decisions/025): one upsert beside the reads; never fails the page.
    countGuideView(request, user, id, 'guide_page'),
  ]);
  const origin = getConfig().PUBLIC_URL;
  return {
    ...detail,
    loggedIn: Boolean(user),
    // The heart shows the viewer's own state (issue 19).
    favorited: favorites.has(id),
    // A guide looking at their own page is offered no heart (the favorites service refuses it).
    isOwnProfile: user?.id === id,
    canonical: `${origin}/guides/${id}`,
    ogImage: `${origin}${detail.photos[0]?.url ?? detail.guide.avatarUrl ?? '/icons/icon-512.png'}`,
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return pageMeta(matches);
  const base = pageMeta(matches, data.guide.name);
  const description = (data.guide.headline ?? data.guide.description ?? '').slice(0, 200);
  const title = (base.find((m) => 'title' in m) as { title?: string } | undefined)?.title ?? data.guide.name;
  return [
    ...base.filter((m) => !('name' in m && m.name === 'description')),
    { name: 'description', content: description },
    { property: 'og:type', content: 'profile' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:image', content: data.ogImage },
    { property: 'og:url', content: data.canonical },
    { tagName: 'link', rel: 'canonical', href: data.canonical },
  ];
};

export default function GuideDetail() {
  const { guide, photos, reviews, reviewPagination, ratingDistribution, openDays, favorited, isOwnProfile } = useLoaderData<typeof loader>();
  const viewerType = useRootData()?.user?.type;
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const languageList = useLanguageList();
  const locale = i18n.language;
  const heroPhoto = photos[0];
  const maxCount = Math.max(1, ...ratingDistribution.map((d) => d.count));
  return (
    <article className="guide-detail" aria-labelledby="guide-name">
      <p>
        <Link to="/guides">← {t('guide.backToList')}</Link>
      </p>
      <header className="detail-hero">
        {heroPhoto && (
          <img
            className="detail-hero-photo"
            src={heroPhoto.url}
            alt={t('guide.photoAlt', { name: guide.name, index: 1 })}
            width={600}
            height={400}
            // React 18 knows no fetchPriority prop (it warns and writes it as typed); the attribute itself is fine.
            {...{ fetchpriority: 'high' }}
          />
        )}
        <div className="detail-hero-head">
          <Avatar src={guide.avatarUrl} alt={t('guides.avatarAlt', { name: guide.name })} size={64} />
          <div>
            <h1 id="guide-name">{guide.name}</h1>
            {guide.isIdVerified && <VerifiedMark />}
          </div>
        </div>
        {guide.headline && (
          <p className="guide-headline">
            <span lang={guide.writtenIn ?? undefined}>{guide.headline}</span>
          </p>
        )}
        <ul className="detail-facts">
          <li className="muted">{t('guide.memberSince', { date: formatTaipeiDate(guide.registerDate, locale) })}</li>
          {guide.city && (
            <li>
              <span className="label">{t('guides.city')}</span> {t(`cities.${guide.city}`)}
            </li>
          )}
          <li>
            <span className="label">{t('guides.languages')}</span> {languageList(guide.languages)}
          </li>
          <li>
            {guide.averageRating !== null ? (
              <>
                <Stars rating={guide.averageRating} />{' '}
                <a href="#reviews-title">
                  {t('guide.averageRating', { rating: guide.averageRating.toFixed(1), count: guide.reviewCount })}
                </a>
              </>
            ) : (
              <span className="muted">{t('guides.noReviews')}</span>
            )}
          </li>
        </ul>
        <div className="detail-actions">
          {guide.price !== null && (
            <p className="detail-price">
              <strong>{formatNtd(guide.price, locale)}</strong>
              <PriceUnit maxGroupSize={guide.maxGroupSize} />
            </p>
          )}
          <Link to={`/booking/${guide.id}`} className="button" data-testid="book-link">
            {t('search.detail.book')}
          </Link>
          {/* Ask before booking (issue 23): travelers and visitors (who log in first). */}
          {!isOwnProfile && (viewerType === undefined || viewerType === 'traveler') && (
            <Link to={`/chat/new?guideId=${guide.id}`} className="button button-secondary" data-testid="ask-link">
              {t('chat.ask.button')}
            </Link>
          )}
          {!isOwnProfile && (
            <FavoriteButton
              guideId={guide.id}
              guideName={guide.name}
              favorited={favorited}
              redirectTo={location.pathname + location.search}
              variant="text"
            />
          )}
        </div>
      </header>

      <section className="section" aria-labelledby="slots-title">
        <h2 id="slots-title">{t('search.detail.openSlots')}</h2>
        {openDays.length === 0 ? (
          <p className="muted">{t('search.detail.noOpenSlots')}</p>
        ) : (
          <ul className="slot-days" data-testid="open-days">
            {openDays.map((day) => (
              <li key={day.date} className="slot-day">
                <h3>
                  <time dateTime={day.date}>{formatTourDay(day.date, locale)}</time>
                </h3>
                <ul>
                  {day.slots.map((slot) => (
                    <li key={slot.id}>
                      <Link
                        className="chip"
                        to={`/booking/${guide.id}?${new URLSearchParams({ slot: `${day.date}|${slot.timeSlot}` })}`}
                        aria-label={t('search.detail.slot', {
                          timeSlot: t(`timeSlots.${slot.timeSlot}`),
                          hours: slotHoursText(slot.timeSlot),
                          price: slot.price.toLocaleString(locale),
                        })}
                      >
                        {t(`timeSlots.${slot.timeSlot}`)} <span className="slot-hours">{slotHoursText(slot.timeSlot)}</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </section>

      {guide.description && (
        <section className="section" aria-labelledby="about-title">
          <h2 id="about-title">{t('guide.about')}</h2>
          <p className="description" lang={guide.writtenIn ?? undefined}>
            {guide.description}
          </p>
          {guide.writtenIn && (
            <small className="muted">
              <WrittenIn locale={guide.writtenIn} />
            </small>
          )}
        </section>
      )}

      <section className="section" aria-labelledby="photos-title">
        <h2 id="photos-title">{t('guide.photos')}</h2>
        {photos.length === 0 ? (
          <p className="muted">{t('guide.noPhotos')}</p>
        ) : (
          <>
            <ul className="photo-grid">
              {photos.map((p, i) => (
                <li key={p.id}>
                  <a href={`#photo-${p.id}`} aria-label={t('search.detail.viewPhoto', { index: i + 1 })}>
                    <img
                      src={p.url}
                      alt={t('guide.photoAlt', { name: guide.name, index: i + 1 })}
                      width={600}
                      height={400}
                      loading="lazy"
                      decoding="async"
                    />
                  </a>
                </li>
              ))}
            </ul>
            {photos.map((p, i) => (
              <div key={p.id} id={`photo-${p.id}`} className="photo-full" role="dialog" aria-label={t('guide.photoAlt', { name: guide.name, index: i + 1 })}>
                <img src={p.url} alt="" width={1200} height={800} loading="lazy" />
                <a href="#photos-title">{t('search.detail.closePhoto')}</a>
              </div>
            ))}
          </>
        )}
      </section>

      <section className="section" aria-labelledby="reviews-title">
        <h2 id="reviews-title">{t('guide.reviews')}</h2>
        {guide.reviewCount > 0 && (
          <>
            <table className="rating-bars" data-testid="rating-distribution">
              <caption>{t('search.detail.ratingDistribution')}</caption>
              <tbody>
                {ratingDistribution.map((d) => (
                  <tr key={d.stars}>
                    <th scope="row">{t('search.detail.starsRow', { stars: d.stars })}</th>
                    <td className="rating-bar-cell" aria-hidden="true">
                      <span className="rating-bar">
                        <span style={{ width: `${(d.count / maxCount) * 100}%` }} />
                      </span>
                    </td>
                    <td className="muted">{t('search.detail.starsCount', { count: d.count })}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
        {reviews.length === 0 ? (
          <p className="muted">{t('guide.noReviews')}</p>
        ) : (
          <ul className="review-list">
            {reviews.map((r) => (
              <li key={r.id} className="review">
                <p className="review-head">
                  <strong>{r.reviewerName}</strong> <Stars rating={r.rating} />
                </p>
                {r.comment && <p>{r.comment}</p>}
                <p className="muted small">
                  <time dateTime={r.createdAt} title={t('guide.reviewedOn')}>
                    {formatTaipeiDate(r.createdAt, locale)}
                  </time>
                </p>
              </li>
            ))}
          </ul>
        )}
        <PaginationNav
          page={reviewPagination.page}
          totalPages={reviewPagination.totalPages}
          basePath={location.pathname}
          pageParam="reviewPage"
        />
      </section>
    </article>
  );
}
