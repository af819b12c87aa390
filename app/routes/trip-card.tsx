import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Avatar } from '~/components/avatar';
import { requireUser } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { telHref } from '~/lib/phone';
import { slotWithHours } from '~/lib/time-slots';
import { formatTourDayLong } from '~/lib/dates';
import { now } from '~/services/platform/clock.server';
import { tripCard } from '~/services/booking/trip-card.server';

/**
 * /trip-card (issue 24): the traveler's upcoming confirmed tours on one page. The service worker keeps the
 * latest copy whenever /orders or an order is opened (app/pwa/service-worker.ts), so it opens in a tunnel.
 */
export const handle: I18nHandle = { i18n: ['pwa'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const [entries, t] = await Promise.all([tripCard(user.id), getFixedT(request)]);
  return { entries, savedAt: now().toISOString(), title: t('pwa.tripCard.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function TripCard() {
  const { entries, savedAt } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  return (
    <section className="trip-card" aria-labelledby="trip-card-title">
      <h1 id="trip-card-title">{t('pwa.tripCard.title')}</h1>
      <p className="muted">{t('pwa.tripCard.lead')}</p>
      <p className="muted small">{t('pwa.tripCard.savedAt', { time: formatTaipeiDateTime(savedAt, i18n.language) })}</p>
      {entries.length === 0 ? (
        <p className="empty">{t('pwa.tripCard.empty')}</p>
      ) : (
        <ol className="trip-card-list">
          {entries.map((entry) => (
            <li key={entry.orderId} className="card trip-card-entry" data-testid="trip-card-entry">
              <div className="trip-card-guide">
                <Avatar src={entry.guide.avatar} alt="" size={56} />
                <div>
                  <h2>{entry.guide.name}</h2>
                  <p className="muted small">{t('pwa.tripCard.reference', { id: entry.orderId })}</p>
                </div>
              </div>
              <dl className="trip-card-facts">
                <dt>{t('pwa.tripCard.date')}</dt>
                <dd>{formatTourDayLong(entry.date, i18n.language)}</dd>
                <dt>{t('pwa.tripCard.slot')}</dt>
                <dd>
                  {slotWithHours(t, entry.timeSlot)}
                </dd>
                <dt>{t('pwa.tripCard.people')}</dt>
                <dd>{entry.numberOfPeople}</dd>
                <dt>{t('pwa.tripCard.meetingPoint')}</dt>
                <dd className="meeting-point">{entry.meetingPoint ?? t('pwa.tripCard.noMeetingPoint')}</dd>
                <dt>{t('pwa.tripCard.price')}</dt>
                <dd>
                  {formatNtd(entry.totalPrice, i18n.language)}
                  {entry.paid === null ? null : (
                    <>
                      {' · '}
                      <span className={entry.paid ? 'paid' : 'unpaid'}>{t(entry.paid ? 'pwa.tripCard.paid' : 'pwa.tripCard.unpaid')}</span>
                    </>
                  )}
                </dd>
                <dt>{t('pwa.tripCard.note')}</dt>
                <dd>{entry.note || t('pwa.tripCard.noNote')}</dd>
              </dl>
              <h3 className="trip-card-contact-title">{t('pwa.tripCard.contact')}</h3>
              <p className="trip-card-contact">
                {entry.guidePhone ? (
                  <a className="button" href={telHref(entry.guidePhone)} data-testid="trip-card-phone">
                    {t('pwa.tripCard.call')} <span className="nowrap">{entry.guidePhone}</span>
                  </a>
                ) : null}
                <a className="button button-secondary" href={`mailto:${entry.guide.email}`}>
                  {t('pwa.tripCard.mail')}
                </a>
              </p>
              <p className="trip-card-links">
                <a href={entry.calendarUrl} download={`order-${entry.orderId}.ics`}>
                  {t('pwa.tripCard.ics')}
                </a>
                <Link to={`/orders/${entry.orderId}`}>{t('pwa.tripCard.openOrder')}</Link>
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
