import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { requireUser } from '~/http/session.server';
import { orErrorPage, pageIdParam } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime, formatTourDayLong } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { now } from '~/services/platform/clock.server';
import { checkoutFor, retryPayment } from '~/services/payments/order-payments.server';
import { slotWithHours } from '~/lib/time-slots';

/**
 * /orders/:id/pay (issue 32): the booking's payment step. Sends the traveler's browser to the provider's card page
 * with a form of signed fields (with JS it submits itself; without JS the button does it); after a declined card,
 * another attempt; once paid, the booking's outcome page.
 */
export const handle: I18nHandle = { i18n: ['payments', 'booking', 'orders'] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(params.id);
  const { order, payment, checkout } = await orErrorPage(() => checkoutFor(user, id, now()), { existencePrivate: true });
  if (checkout.state === 'paid') throw redirect(`/booking-success?order=${id}`);
  const t = await getFixedT(request);
  return {
    order: { id: order.id, guideName: order.guideName, date: order.date, timeSlot: order.timeSlot, numberOfPeople: order.numberOfPeople },
    amount: payment?.amount ?? order.totalPrice,
    checkout,
    title: t('payments.checkout.title'),
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(params.id);
  // Another attempt after a declined card (or nothing, when the last one is still open): the page shows its form.
  await orErrorPage(() => retryPayment(user, id, now()), { existencePrivate: true });
  return redirect(`/orders/${id}/pay`, 303);
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [...pageMeta(matches, data?.title), { name: 'robots', content: 'noindex' }];

export default function CheckoutPage() {
  const { order, amount, checkout } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const money = formatNtd(amount, i18n.language);
  const providerForm = useRef<HTMLFormElement>(null);
  // With JS the provider's page opens by itself; the button stays for a browser that blocks it.
  useEffect(() => {
    if (checkout.state === 'pay' && checkout.start.kind === 'form') providerForm.current?.submit();
    else if (checkout.state === 'pay' && checkout.start.kind === 'redirect') window.location.assign(checkout.start.url);
  }, [checkout]);
  const payBy = 'payBy' in checkout ? formatTaipeiDateTime(checkout.payBy, i18n.language) : null;
  return (
    <section className="card checkout" aria-labelledby="checkout-title">
      <h1 id="checkout-title">{t('payments.checkout.heading')}</h1>
      <dl className="checkout-facts">
        <dt>{t('payments.checkout.tour')}</dt>
        <dd>{t('payments.checkout.tourWith', { guide: order.guideName, date: formatTourDayLong(order.date, i18n.language), slot: slotWithHours(t, order.timeSlot), count: order.numberOfPeople })}</dd>
        <dt>{t('payments.checkout.amount')}</dt>
        <dd>
          <strong>{money}</strong>
        </dd>
      </dl>
      {checkout.state === 'pay' ? (
        <>
          <p>{t('payments.checkout.explain', { amount: money })}</p>
          <p className="muted small">{t('payments.checkout.payBy', { time: payBy })}</p>
          {checkout.start.kind === 'form' ? (
            <form ref={providerForm} method="post" action={checkout.start.action} data-testid="checkout-form">
              {Object.entries(checkout.start.fields).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              <button type="submit" className="button">
                {t('payments.checkout.continue')}
              </button>
            </form>
          ) : (
            <a className="button" href={checkout.start.url}>
              {t('payments.checkout.continue')}
            </a>
          )}
        </>
      ) : checkout.state === 'declined' ? (
        <>
          <p role="alert">{t('payments.checkout.declined')}</p>
          <p className="muted small">{t('payments.checkout.heldUntil', { time: payBy })}</p>
          <Form method="post">
            <button type="submit" className="button">
              {t('payments.checkout.tryAgain')}
            </button>
          </Form>
        </>
      ) : (
        <p role="status">{t('payments.checkout.closed')}</p>
      )}
      <p>
        <Link to={`/orders/${order.id}`}>{t('payments.checkout.viewOrder')}</Link>
      </p>
    </section>
  );
}
