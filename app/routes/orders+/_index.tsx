import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { StatusPill } from '~/components/dashboard';
import { PagedList } from '~/components/paged-list';
import { requireUser } from '~/http/session.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { formatTourDay } from '~/lib/dates';
import { ORDER_STATUS_VALUES, orderListQuerySchema } from '~/schemas/orders';
import { listOrders } from '~/services/booking/orders.server';
import { slotWithHours } from '~/lib/time-slots';

/** /orders (issue 10): a traveler's bookings, a guide's tours, every order for an admin; status filter, newest first. */
export const handle: I18nHandle = { i18n: ['orders', 'account', 'chat'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const parsed = orderListQuerySchema.safeParse(params);
  const query = parsed.success ? parsed.data : orderListQuerySchema.parse({});
  const [list, t] = await Promise.all([listOrders(user, query), getFixedT(request)]);
  return { ...list, status: query.status ?? '', viewer: { id: user.id, type: user.type }, title: t(`orders.list.title.${user.type}`) };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export default function Orders() {
  const { orders, pagination, status, viewer } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  return (
    <div className="orders-page">
      <h1>{t(`orders.list.title.${viewer.type}`)}</h1>
      <p className="muted">{t(`orders.list.intro.${viewer.type}`)}</p>
      <Form method="get" className="orders-filter">
        <label htmlFor="status-filter">{t('orders.list.filter')}</label>
        <select id="status-filter" name="status" defaultValue={status}>
          <option value="">{t('orders.list.all')}</option>
          {ORDER_STATUS_VALUES.map((s) => (
            <option key={s} value={s}>
              {t(`account.orderStatus.${s}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="button button-small">
          {t('orders.list.apply')}
        </button>
      </Form>
      <PagedList
        items={orders}
        empty={t('orders.list.empty')}
        className="recent-orders order-list"
        pagination={pagination}
        basePath="/orders"
        params={new URLSearchParams(status ? { status } : {})}
      >
        {(o) => {
          const other = viewer.id === o.guideId ? o.travelerName : o.guideName;
          return (
            <li key={o.id}>
              <Link to={`/orders/${o.id}`} className="recent-order">
                <span className="recent-order-title">
                  #{o.id} · {viewer.type === 'admin' ? `${o.travelerName} → ${o.guideName}` : other}
                </span>
                <span className="recent-order-meta">
                  {formatTourDay(o.date, locale)} · {slotWithHours(t, o.timeSlot)} · {formatNtd(o.totalPrice, locale)}
                </span>
                <StatusPill status={o.status} />
              </Link>
              {/* Issue 35: the guide writes to the traveler of a booking straight from the list (and the traveler back). */}
              {viewer.type !== 'admin' && (o.status === 'pending' || o.status === 'confirmed') ? (
                <Link to={`/chat/new?orderId=${o.id}`} className="button button-small button-secondary order-list-chat" data-testid="order-list-chat">
                  {t(viewer.type === 'guide' ? 'chat.ask.messageTraveler' : 'chat.ask.messageGuide')}
                </Link>
              ) : null}
            </li>
          );
        }}
      </PagedList>
    </div>
  );
}
