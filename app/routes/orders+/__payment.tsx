import { Link } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '~/components/confirm-dialog';
import { formatTaipeiDateTime } from '~/lib/dates';
import { formatNtd } from '~/lib/money';
import type { OrderAction } from '~/schemas/orders';
import type { OrderPaymentView } from '~/schemas/payments';

/**
 * The money parts of the order page (issue 32): the payment card with its timeline, and the cancel dialog that says
 * what cancelling does to the money. Not a route (the `__` prefix): app/routes/orders+/$id.tsx renders them.
 */
export interface PaymentHistoryEntry {
  kind: 'declined' | 'authorised' | 'captured' | 'voided' | 'refunded' | 'expired';
  at: string;
  amount: number;
}

export function PaymentCard({
  orderId,
  payment,
  history,
  role,
}: {
  orderId: number;
  payment: OrderPaymentView;
  history: readonly PaymentHistoryEntry[];
  role: 'traveler' | 'guide' | 'admin';
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const ntd = (n: number) => formatNtd(n, locale);
  const paid = payment.authorisedAt !== null;
  return (
    <section className="card" aria-labelledby="payment-title" data-testid="order-payment">
      <h2 id="payment-title">{t('payments.order.title')}</h2>
      <dl className="facts">
        <div>
          <dt>{t('payments.order.status')}</dt>
          <dd data-testid="payment-status">{t(`payments.order.statuses.${payment.status}`)}</dd>
        </div>
        <div>
          <dt>{t('payments.order.amount')}</dt>
          <dd>{ntd(payment.amount)}</dd>
        </div>
        <div>
          <dt>{t('payments.order.charged')}</dt>
          <dd>{ntd(payment.captured)}</dd>
        </div>
        <div>
          <dt>{t('payments.order.refunded')}</dt>
          <dd>{ntd(payment.refunded)}</dd>
        </div>
        <div>
          <dt>{t('payments.order.provider')}</dt>
          <dd>{t(`payments.order.providers.${payment.provider}`)}</dd>
        </div>
        <div>
          <dt>{t('payments.order.reference')}</dt>
          <dd className="payment-reference">{payment.providerReference ?? t('payments.order.none')}</dd>
        </div>
      </dl>
      {payment.checkoutUrl && role === 'traveler' ? (
        <>
          {payment.payBy ? <p className="muted small">{t('payments.checkout.payBy', { time: formatTaipeiDateTime(payment.payBy, locale) })}</p> : null}
          <p>
            <a className="button" href={`/orders/${orderId}/pay`}>
              {t('payments.order.payNow')}
            </a>
          </p>
        </>
      ) : null}
      <h3 id="payment-timeline-title">{t('payments.timeline.title')}</h3>
      {history.length === 0 ? (
        <p className="muted small">{t('payments.timeline.empty')}</p>
      ) : (
        <ol className="timeline" aria-labelledby="payment-timeline-title" data-testid="payment-timeline">
          {history.map((h, i) => (
            <li key={i}>
              <time dateTime={h.at}>{formatTaipeiDateTime(h.at, locale)}</time> <span>{t(`payments.timeline.${h.kind}`, { amount: ntd(h.amount) })}</span>
            </li>
          ))}
        </ol>
      )}
      {paid && role !== 'guide' ? (
        <p>
          <Link to={`/orders/${orderId}/receipt`} data-testid="receipt-link">
            {t('payments.order.receipt')}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

/** "Cancel this booking?" with what cancelling does to the traveler's money (booking terms, or the card's hold). */
export function ConfirmCancel({
  intent,
  role,
  refund,
  total,
  busy,
  onKeep,
}: {
  intent: OrderAction;
  role: 'traveler' | 'guide' | 'admin';
  refund: { share: number; amount: number; basis: 'refund' | 'authorisation' | 'unpaid'; grace?: boolean };
  total: number;
  busy: boolean;
  onKeep?: () => void;
}) {
  const { t, i18n } = useTranslation();
  const money = { amount: formatNtd(refund.amount, i18n.language), total: formatNtd(total, i18n.language) };
  const who = role === 'traveler' ? 'you' : 'traveler';
  const refundText =
    refund.basis === 'authorisation'
      ? t(`orders.confirm.refund.authorisation.${who}`, money)
      : refund.basis === 'unpaid'
        ? t(`orders.confirm.refund.unpaid.${who}`, money)
        : refund.grace
          ? t(`orders.confirm.refund.grace.${who}`, money)
          : refund.share === 100
          ? t(`orders.confirm.refund.full.${who}`, money)
          : refund.share === 50
            ? t('orders.confirm.refund.half', money)
            : t('orders.confirm.refund.none', money);
  const declining = intent === 'decline';
  return (
    <ConfirmDialog
      title={t(`orders.confirm.${declining ? 'declineTitle' : 'cancelTitle'}`)}
      intent={intent}
      confirmLabel={t(`orders.confirm.${declining ? 'declineYes' : 'cancelYes'}`)}
      keepLabel={t('orders.confirm.keep')}
      busyLabel={t('orders.actions.working')}
      busy={busy}
      onKeep={onKeep}
      testId="confirm-cancel"
    >
      <p>{refundText}</p>
      <p className="muted small">
        <Link to="/booking-terms" target="_blank" rel="noopener">
          {t('orders.confirm.terms')}
        </Link>
      </p>
    </ConfirmDialog>
  );
}
