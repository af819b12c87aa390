import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { formatTourDay } from '~/lib/dates';
import { formatNtd } from '~/lib/money';
import type { ListedGuideCard } from '~/schemas/guide-card';
import { Avatar } from './avatar';
import { Stars } from './stars';

export function useLanguageList() {
  const { t } = useTranslation();
  return (codes: string[]) => codes.map((c) => t(`languages.${c}`)).join(t('languages.separator'));
}

/**
 * `headingLevel`: the card's name is one level below the heading of the list it sits in (2 right under a
 * page's h1, 3 under a section's h2), so headings never skip a level.
 */
export function GuideCard({ guide, headingLevel = 3 }: { guide: ListedGuideCard; headingLevel?: 2 | 3 }) {
  const { t, i18n } = useTranslation();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const languageList = useLanguageList();
  return (
    <article className="guide-card">
      <Link to={`/guides/${guide.id}`} className="guide-card-link" aria-label={t('guides.viewProfile', { name: guide.name })}>
        <Avatar src={guide.avatarUrl} alt={t('guides.avatarAlt', { name: guide.name })} size={72} />
        <div className="guide-card-body">
          <Heading className="guide-name">{guide.name}</Heading>
          {guide.isIdVerified && <VerifiedMark />}
          {/* The map pin before the city is drawn by the stylesheet (.guide-city::before). Text beside text is
              one template string: separate children would be separated by <!-- --> in the HTML. */}
          {guide.city && <p className="guide-city">{t(`cities.${guide.city}`)}</p>}
          <p className="guide-languages">
            <span className="label">{t('guides.languages')}</span>
            {` ${languageList(guide.languages)}`}
          </p>
          {guide.headline && (
            <p className="guide-headline">
              <span lang={guide.writtenIn ?? undefined}>{guide.headline}</span>
              {guide.writtenIn && <WrittenIn locale={guide.writtenIn} />}
            </p>
          )}
          <p className="guide-rating">
            {guide.averageRating !== null ? (
              <>
                <Stars rating={guide.averageRating} /> <strong>{guide.averageRating.toFixed(1)}</strong>{' '}
                {/* One piece that never breaks inside ("(4 則評 / 價)" on a phone): it moves to the next line whole. */}
                <span className="muted nowrap">{`(${t('guides.reviewCount', { count: guide.reviewCount })})`}</span>
              </>
            ) : (
              <span className="muted">{t('guides.noReviews')}</span>
            )}
          </p>
          <p className={guide.nextAvailable ? 'guide-next' : 'guide-next muted'}>
            {guide.nextAvailable ? (
              // The day is one unbreakable piece ("週 / 四" split over two lines on a phone otherwise). The words come
              // first in every language, so a label and the day beside it (a <Trans> per card cost 2 % of a busy /guides).
              <>
                {t('search.card.nextAvailable')}
                <span className="nowrap">{formatTourDay(guide.nextAvailable, i18n.language)}</span>
              </>
            ) : (
              t('search.card.notBookable')
            )}
          </p>
        </div>
        {guide.price !== null && (
          <p className="guide-price">
            <strong>{formatNtd(guide.price, i18n.language)}</strong>
            <PriceUnit maxGroupSize={guide.maxGroupSize} />
          </p>
        )}
      </Link>
    </article>
  );
}

/** "written in 中文": the text shown is not in the reader's language. */
export function WrittenIn({ locale }: { locale: string }) {
  const { t } = useTranslation();
  return <span className="written-in">{` (${t('search.card.writtenIn', { language: t(`search.writtenIn.${locale}`) })})`}</span>;
}

/**
 * The 'verified' mark of an ID-verified guide (issue 11), on cards and the guide page: "✓ verified", with the
 * longer explanation as its title (a span's title is its accessible description, so screen readers get it too;
 * the same words as hidden text as well were said twice).
 */
/**
 * "／時段（每團最多 8 人）" after a price: the bracketed group limit stays whole on one line (a narrow card cut it
 * as "（每團最 / 多 8 人）", issue 19); the words before it wrap as usual.
 */
export function PriceUnit({ maxGroupSize }: { maxGroupSize: number }) {
  const { t } = useTranslation();
  const text = t('guides.pricePerSlot', { count: maxGroupSize });
  const open = text.search(/[（(]/);
  if (open < 0) return <span className="muted">{text}</span>;
  return (
    <span className="muted">
      {text.slice(0, open)}
      <span className="nowrap">{text.slice(open)}</span>
    </span>
  );
}

export function VerifiedMark() {
  const { t } = useTranslation();
  return (
    <span className="verified-mark" title={t('guides.verifiedTitle')}>
      <span aria-hidden="true">✓</span>
      {` ${t('guides.verified')}`}
    </span>
  );
}
