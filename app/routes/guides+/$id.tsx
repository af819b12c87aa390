import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '~/components/avatar';
import { useLanguageList, VerifiedMark } from '~/components/guide-card';
import { Stars } from '~/components/stars';
import { formatTaipeiDate, formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { parseIdParam } from '~/lib/ids';
import { formatNtd } from '~/lib/money';
import { AppError } from '~/services/errors.server';
import { getGuideDetail } from '~/services/guides.server';

export async function loader({ params }: LoaderFunctionArgs) {
  const id = parseIdParam(params.id);
  if (id === undefined) throw new Response('Not Found', { status: 404 });
  try {
    return await getGuideDetail(id);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw new Response('Not Found', { status: 404 });
    throw error;
  }
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.guide.name);

export default function GuideDetail() {
  const { guide, photos, reviews } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const languageList = useLanguageList();
  const locale = i18n.language;
  return (
    <article className="guide-detail" aria-labelledby="guide-name">
      <p>
        <Link to="/guides">← {t('guide.backToList')}</Link>
      </p>
      <header className="profile-card">
        <Avatar src={guide.avatarUrl} alt={t('guides.avatarAlt', { name: guide.name })} size={100} />
        <div>
          <h1 id="guide-name">{guide.name}</h1>
          {guide.isIdVerified && <VerifiedMark />}
          {guide.bio && <p className="muted">{guide.bio}</p>}
          <dl className="facts">
            {guide.city && (
              <div>
                <dt>{t('guides.city')}</dt>
                <dd>{t(`cities.${guide.city}`)}</dd>
              </div>
            )}
            <div>
              <dt>{t('guides.languages')}</dt>
              <dd>{languageList(guide.languages)}</dd>
            </div>
            {guide.price !== null && (
              <div>
                <dt>{t('guide.price')}</dt>
                <dd>
                  <strong>{formatNtd(guide.price, locale)}</strong>
                  {t('guides.perDay')}
                </dd>
              </div>
            )}
            <div>
              <dt>{t('guides.rating')}</dt>
              <dd>
                {guide.averageRating !== null ? (
                  <>
                    <Stars rating={guide.averageRating} />{' '}
                    {t('guide.averageRating', { rating: guide.averageRating.toFixed(1), count: guide.reviewCount })}
                  </>
                ) : (
                  t('guides.noReviews')
                )}
              </dd>
            </div>
          </dl>
          <p className="muted small">{t('guide.memberSince', { date: formatTaipeiDate(guide.registerDate, locale) })}</p>
        </div>
      </header>

      {guide.description && (
        <section className="section" aria-labelledby="about-title">
          <h2 id="about-title">{t('guide.about')}</h2>
          <p className="description">{guide.description}</p>
        </section>
      )}

      <section className="section" aria-labelledby="photos-title">
        <h2 id="photos-title">{t('guide.photos')}</h2>
        {photos.length === 0 ? (
          <p className="muted">{t('guide.noPhotos')}</p>
        ) : (
          <ul className="photo-grid">
            {photos.map((p, i) => (
              <li key={p.id}>
                <a href={p.url}>
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
        )}
      </section>

      <section className="section" aria-labelledby="reviews-title">
        <h2 id="reviews-title">{t('guide.reviews')}</h2>
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
                    {formatTaipeiDateTime(r.createdAt, locale)}
                  </time>
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}
