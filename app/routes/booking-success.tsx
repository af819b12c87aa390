import { type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { OrderSummary } from '~/components/order-summary';
import { requireUser } from '~/http/session.server';
import { orErrorPage, pageIdParam } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { formatTaipeiDateTime } from '~/lib/dates';
import { formatNtd } from '~/lib/money';
import type { OrderPaymentView } from '~/schemas/payments';
import { getOrderDetail } from '~/services/booking/orders.server';

/** /booking-success?order= (issue 10): the booking's summary, a link to the order and "add to calendar". */
export const handle: I18nHandle = { i18n: ['booking', 'account', 'orders', 'payments'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(new URL(request.url).searchParams.get('order'));
  // Someone else's order is not told apart from none.
  const { order, payment } = await orErrorPage(() => getOrderDetail(user, id), { existencePrivate: true });
  const t = await getFixedT(request);
  return { order, payment, title: t('booking.success.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function BookingSuccess() {
  const { order, payment } = useLoaderData<typeof loader>();
  const { t } = useTranslation();
  const paidOrFree = !payment || !['unpaid', 'failed', 'expired'].includes(payment.status);
  return (
    <div className="booking-success">
      <section className="card" aria-labelledby="success-title">
        <h1 id="success-title">{t(paidOrFree ? 'booking.success.heading' : 'payments.outcome.notPaidHeading')}</h1>
        {paidOrFree ? <p>{t('booking.success.intro', { name: order.guideName })}</p> : null}
        {payment ? <PaymentOutcome orderId={order.id} payment={payment} /> : null}
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

/** What happened to the payment (issue 32): authorised and when it is charged, declined, still waiting, expired. */
function PaymentOutcome({ orderId, payment }: { orderId: number; payment: OrderPaymentView }) {
  const { t, i18n } = useTranslation();
  const amount = formatNtd(payment.amount, i18n.language);
  const time = payment.payBy ? formatTaipeiDateTime(payment.payBy, i18n.language) : '';
  const retry = payment.checkoutUrl ? (
    <p>
      <a className="button" href={`/orders/${orderId}/pay`}>
        {t(payment.status === 'failed' ? 'payments.checkout.tryAgain' : 'payments.checkout.continue')}
      </a>
    </p>
  ) : null;
  switch (payment.status) {
    case 'unpaid':
      return (
        <>
          <p role="status">{t('payments.outcome.waiting', { amount, time })}</p>
          {retry}
        </>
      );
    case 'failed':
      return (
        <>
          <p role="alert">{t('payments.outcome.declined', { time })}</p>
          {retry}
        </>
      );
    case 'expired':
      return <p role="status">{t('payments.outcome.expired')}</p>;
    case 'authorised':
      return <p role="status" data-testid="payment-outcome">{t('payments.outcome.authorised', { amount })}</p>;
    default:
      return <p role="status" data-testid="payment-outcome">{t('payments.outcome.charged', { amount: formatNtd(payment.captured, i18n.language) })}</p>;
  }
}
