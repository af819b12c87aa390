import { useTranslation } from 'react-i18next';
import { formatNtd } from '~/lib/money';
import { formatTourDayLong } from '~/lib/dates';
import type { OrderView } from '~/schemas/orders';
import { StatusPill } from './dashboard';
import { slotWithHours } from '~/lib/time-slots';

/**
 * An order's facts as /booking-success and /orders/:id show them: guide, day and slot, people and the total
 * for the group (docs/decisions/010), so both pages say the same thing the same way. Each page picks the rows it adds.
 */
export function OrderSummary({
  order,
  show = {},
}: {
  order: Pick<OrderView, 'id' | 'guideName' | 'travelerName' | 'date' | 'timeSlot' | 'numberOfPeople' | 'totalPrice' | 'status' | 'note' | 'noteMasked' | 'travelerCompleted' | 'guideCompleted'>;
  show?: { number?: boolean; traveler?: boolean; status?: boolean; note?: boolean; completion?: boolean };
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const done = (flag: boolean) => t(flag ? 'orders.detail.yes' : 'orders.detail.no');
  return (
    <dl className="facts">
      {show.number ? (
        <div>
          <dt>{t('booking.summary.order')}</dt>
          <dd>#{order.id}</dd>
        </div>
      ) : null}
      <div>
        <dt>{t('booking.summary.guide')}</dt>
        <dd>{order.guideName}</dd>
      </div>
      {show.traveler ? (
        <div>
          <dt>{t('orders.detail.traveler')}</dt>
          <dd>{order.travelerName}</dd>
        </div>
      ) : null}
      <div>
        <dt>{t('booking.summary.when')}</dt>
        <dd>
          {formatTourDayLong(order.date, locale)} · {slotWithHours(t, order.timeSlot)}
        </dd>
      </div>
      <div>
        <dt>{t('booking.summary.people')}</dt>
        <dd>{t('booking.summary.peopleCount', { count: order.numberOfPeople })}</dd>
      </div>
      <div>
        <dt>{t('booking.summary.total')}</dt>
        <dd>
          <strong>{formatNtd(order.totalPrice, locale)}</strong> <span className="muted small">{t('booking.form.perGroup')}</span>
        </dd>
      </div>
      {show.status ? (
        <div>
          <dt>{t('booking.summary.status')}</dt>
          <dd>
            <StatusPill status={order.status} />
          </dd>
        </div>
      ) : null}
      {show.note && order.note ? (
        <div>
          <dt>{t('orders.detail.note')}</dt>
          <dd className="description">
            {order.note}
            {order.noteMasked ? <span className="small muted" data-testid="note-masked"> ({t('orders.detail.noteMasked')})</span> : null}
          </dd>
        </div>
      ) : null}
      {show.completion ? (
        <div>
          <dt>{t('orders.detail.completion')}</dt>
          <dd>
            {t('orders.detail.travelerDone', { state: done(order.travelerCompleted) })} · {t('orders.detail.guideDone', { state: done(order.guideCompleted) })}
          </dd>
        </div>
      ) : null}
    </dl>
  );
}
