import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { StatusPill } from '~/components/dashboard';
import { requireUser } from '~/http/auth.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { formatTourDayLong } from '~/lib/tour-dates';
import { AppError } from '~/services/errors.server';
import { getOrderFor } from '~/services/orders.server';

/** /booking-success?order= (issue 10): the booking's summary, a link to the order and "add to calendar". */
export const handle: I18nHandle = { i18n: ['booking', 'account'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const raw = new URL(request.url).searchParams.get('order') ?? '';
  const id = /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
  try {
    const order = await getOrderFor(user, id);
    const t = await getFixedT(request);
    return { order, title: t('booking.success.title') };
  } catch (error) {
    if (error instanceof AppError) throw new Response('Not Found', { status: 404 });
    throw error;
  }
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function BookingSuccess() {
  const { order } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  return (
    <div className="booking-success">
      <section className="card" aria-labelledby="success-title">
        <h1 id="success-title">{t('booking.success.heading')}</h1>
        <p>{t('booking.success.intro', { name: order.guideName })}</p>
        <dl className="facts">
          <div>
            <dt>{t('booking.summary.order')}</dt>
            <dd>#{order.id}</dd>
          </div>
          <div>
            <dt>{t('booking.summary.guide')}</dt>
            <dd>{order.guideName}</dd>
          </div>
          <div>
            <dt>{t('booking.summary.when')}</dt>
            <dd>
              {formatTourDayLong(order.date, i18n.language)} · {t(`timeSlots.${order.timeSlot}`)}
            </dd>
          </div>
          <div>
            <dt>{t('booking.summary.people')}</dt>
            <dd>{t('booking.summary.peopleCount', { count: order.numberOfPeople })}</dd>
          </div>
          <div>
            <dt>{t('booking.summary.total')}</dt>
            <dd>
              <strong>{formatNtd(order.totalPrice, i18n.language)}</strong> <span className="muted small">{t('booking.form.perGroup')}</span>
            </dd>
          </div>
          <div>
            <dt>{t('booking.summary.status')}</dt>
            <dd>
              <StatusPill status={order.status} />
            </dd>
          </div>
        </dl>
        <p className="muted small">{t('booking.success.next')}</p>
        <div className="form-actions">
          <Link to={`/orders/${order.id}`} className="button">
            {t('booking.success.viewOrder')}
          </Link>
          <a href={`/orders/${order.id}/calendar.ics`} className="button button-secondary" download={`order-${order.id}.ics`}>
            {t('booking.success.addToCalendar')}
          </a>
        </div>
      </section>
    </div>
  );
}
