import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { StatusPill } from '~/components/dashboard';
import { SubmitButton } from '~/components/forms/fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { requireUser } from '~/http/auth.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { formatTourDayLong } from '~/lib/tour-dates';
import { orderActionFormSchema, type OrderAction } from '~/schemas/orders';
import { AppError } from '~/services/errors.server';
import { getOrderDetail, orderIdParam, transitionOrder } from '~/services/orders.server';

/** /orders/:id (issue 10): the order, its timeline, and the actions the viewer may take now, as form buttons. */
export const handle: I18nHandle = { i18n: ['orders', 'booking', 'account'] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  try {
    const detail = await getOrderDetail(user, orderIdParam(params.id));
    const t = await getFixedT(request);
    return { ...detail, viewer: { id: user.id, type: user.type }, title: t('orders.detail.title', { id: detail.order.id }) };
  } catch (error) {
    if (error instanceof AppError && error.code === 'FORBIDDEN') throw new Response('Forbidden', { status: 403 });
    if (error instanceof AppError) throw new Response('Not Found', { status: 404 });
    throw error;
  }
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const id = orderIdParam(params.id);
  const submission = parseWithZod(await request.formData(), { schema: orderActionFormSchema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  try {
    await transitionOrder(user, id, submission.value.intent);
    return redirectWithToast(`/orders/${id}`, { key: `orders.done.${submission.value.intent}`, type: 'success' });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const t = await getFixedT(request);
    return data({ result: submission.reply({ formErrors: [t(error.messageKey, error.params)] }) }, { status: error.status });
  }
}

export default function OrderDetail() {
  const { order, events, actions, viewer } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [form] = useSchemaForm<{ intent: OrderAction }>({ id: 'order-actions', schema: orderActionFormSchema, lastResult: actionData?.result });
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const role = viewer.id === order.travelerId ? 'traveler' : viewer.id === order.guideId ? 'guide' : 'admin';
  return (
    <div className="order-page">
      <p>
        <Link to="/orders">← {t('orders.detail.back')}</Link>
      </p>
      <section className="card" aria-labelledby="order-title">
        <h1 id="order-title">
          {t('orders.detail.title', { id: order.id })} <StatusPill status={order.status} />
        </h1>
        <dl className="facts">
          <div>
            <dt>{t('booking.summary.guide')}</dt>
            <dd>{order.guideName}</dd>
          </div>
          <div>
            <dt>{t('orders.detail.traveler')}</dt>
            <dd>{order.travelerName}</dd>
          </div>
          <div>
            <dt>{t('booking.summary.when')}</dt>
            <dd>
              {formatTourDayLong(order.date, locale)} · {t(`timeSlots.${order.timeSlot}`)}
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
          {order.note ? (
            <div>
              <dt>{t('orders.detail.note')}</dt>
              <dd className="description">{order.note}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t('orders.detail.completion')}</dt>
            <dd>
              {t('orders.detail.travelerDone', { state: t(order.travelerCompleted ? 'orders.detail.yes' : 'orders.detail.no') })} ·{' '}
              {t('orders.detail.guideDone', { state: t(order.guideCompleted ? 'orders.detail.yes' : 'orders.detail.no') })}
            </dd>
          </div>
        </dl>
        <p>
          <a href={`/orders/${order.id}/calendar.ics`} download={`order-${order.id}.ics`}>
            {t('booking.success.addToCalendar')}
          </a>
        </p>
      </section>

      <section className="card" aria-labelledby="order-actions-title">
        <h2 id="order-actions-title">{t('orders.detail.actions')}</h2>
        {actions.length === 0 ? (
          <p className="muted">{t(`orders.detail.noActions.${order.status === 'confirmed' && role !== 'admin' ? 'waiting' : 'none'}`)}</p>
        ) : (
          <Form method="post" className="order-actions" {...getFormProps(form)}>
            {actions.map((a) => (
              <SubmitButton
                key={a}
                name="intent"
                value={a}
                busy={busyIntent === a}
                className={a === 'decline' || a === 'cancel' ? 'button button-secondary' : 'button'}
                label={t(`orders.actions.${a}`)}
                busyLabel={t('orders.actions.working')}
              />
            ))}
          </Form>
        )}
        <FormErrors form={form} />
      </section>

      <section className="card" aria-labelledby="timeline-title">
        <h2 id="timeline-title">{t('orders.detail.timeline')}</h2>
        <ol className="timeline">
          {events.map((e, i) => (
            <li key={i}>
              <time dateTime={e.at}>{formatTaipeiDateTime(e.at, locale)}</time>{' '}
              <span>
                {t(`orders.events.${e.action}`, { defaultValue: e.action })}
                {e.actorName ? ` · ${e.actorName}` : ''} ({t(`orders.roles.${e.actorRole}`)})
              </span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
