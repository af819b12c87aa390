import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { OrderSummary } from '~/components/order-summary';
import { requireUser } from '~/http/session.server';
import { orErrorPage, pageIdParam } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { getOrderFor } from '~/services/orders.server';

/** /booking-success?order= (issue 10): the booking's summary, a link to the order and "add to calendar". */
export const handle: I18nHandle = { i18n: ['booking', 'account', 'orders'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(new URL(request.url).searchParams.get('order'));
  // Someone else's order is not told apart from none.
  const order = await orErrorPage(() => getOrderFor(user, id), { existencePrivate: true });
  const t = await getFixedT(request);
  return { order, title: t('booking.success.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function BookingSuccess() {
  const { order } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  return (
    <div className="booking-success">
      <section className="card" aria-labelledby="success-title">
        <h1 id="success-title">{t('booking.success.heading')}</h1>
        <p>{t('booking.success.intro', { name: order.guideName })}</p>
        <OrderSummary order={order} show={{ number: true, status: true }} />
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
