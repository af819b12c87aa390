import { getFormProps, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, type SerializeFrom } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { StatusPill } from '~/components/dashboard';
import { StarRatingField, SubmitButton, TextareaField } from '~/components/forms/fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { OrderReviews } from '~/components/order-reviews';
import { OrderSummary } from '~/components/order-summary';
import { requireUser } from '~/http/auth.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { orderActionFormSchema, type OrderAction } from '~/schemas/orders';
import { REVIEW_COMMENT_MAX, reviewCreateSchema } from '~/schemas/reviews';
import { AppError } from '~/services/errors.server';
import { getOrderDetail, orderIdParam, transitionOrder } from '~/services/orders.server';
import { createReview, orderReviewState } from '~/services/reviews.server';

/**
 * /orders/:id (issue 10): the order, its timeline, the actions the viewer may take now as form buttons, and the
 * order's reviews with the review form once both sides marked it completed.
 */
export const handle: I18nHandle = { i18n: ['orders', 'booking', 'account', 'reviews'] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  try {
    const id = orderIdParam(params.id);
    const [detail, reviewState, t] = await Promise.all([getOrderDetail(user, id), orderReviewState(user, id), getFixedT(request)]);
    return { ...detail, reviewState, viewer: { id: user.id, type: user.type }, title: t('orders.detail.title', { id: detail.order.id }) };
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
  const formData = await request.formData();
  if (formData.get('intent') === 'review') return reviewAction(request, user, id, formData);
  const submission = parseWithZod(formData, { schema: orderActionFormSchema });
  if (submission.status !== 'success') return data({ form: 'actions' as const, result: submission.reply() }, { status: 400 });
  try {
    await transitionOrder(user, id, submission.value.intent);
    return redirectWithToast(`/orders/${id}`, { key: `orders.done.${submission.value.intent}`, type: 'success' });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const t = await getFixedT(request);
    return data({ form: 'actions' as const, result: submission.reply({ formErrors: [t(error.messageKey, error.params)] }) }, { status: error.status });
  }
}

/** The review form: the same service as POST /api/v1/orders/{id}/reviews; SPEC §8 wording for its failures. */
async function reviewAction(request: Request, user: { id: number }, orderId: number, formData: FormData) {
  const submission = parseWithZod(formData, { schema: reviewCreateSchema });
  if (submission.status !== 'success') return data({ form: 'review' as const, result: submission.reply() }, { status: 400 });
  const t = await getFixedT(request);
  try {
    await createReview({ rating: submission.value.rating, comment: submission.value.comment, orderId, reviewerId: user.id });
    return redirectWithToast(`/orders/${orderId}#order-reviews-title`, { key: 'reviews.form.done', type: 'success' });
  } catch (error) {
    if (!(error instanceof AppError)) {
      console.error('review failed', error);
      return data({ form: 'review' as const, result: submission.reply({ formErrors: [t('reviews.form.failed')] }) }, { status: 500 });
    }
    const message = error.code === 'VALIDATION_ERROR' ? t('reviews.form.failed') : t(error.messageKey, error.params);
    return data({ form: 'review' as const, result: submission.reply({ formErrors: [message] }) }, { status: error.status });
  }
}

export default function OrderDetail() {
  const { order, events, actions, viewer, reviewState } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [form] = useSchemaForm<{ intent: OrderAction }>({ id: 'order-actions', schema: orderActionFormSchema, lastResult: actionData?.form === 'actions' ? actionData.result : null });
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
        <OrderSummary order={order} show={{ traveler: true, note: true, completion: true }} />
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

      <ReviewSection order={order} reviewState={reviewState} lastResult={actionData?.form === 'review' ? actionData.result : null} busy={busyIntent === 'review'} />

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

function ReviewSection({
  order,
  reviewState,
  lastResult,
  busy,
}: {
  order: { travelerName: string; guideName: string; travelerCompleted: boolean; guideCompleted: boolean };
  reviewState: SerializeFrom<typeof loader>['reviewState'];
  lastResult: SubmissionResult<string[]> | null;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm<{ rating: string; comment: string; intent: string }>({ id: 'order-review', schema: reviewCreateSchema, lastResult });
  const { canReview, party } = reviewState;
  const bothDone = order.travelerCompleted && order.guideCompleted;
  return (
    <section className="card" aria-labelledby="order-reviews-title">
      <h2 id="order-reviews-title">{t('reviews.list.title')}</h2>
      <OrderReviews reviews={reviewState.reviews} />
      {canReview && party ? (
        <Form method="post" className="review-form" {...getFormProps(form)}>
          <h3>{t('reviews.form.title')}</h3>
          <p className="muted small">{t(`reviews.form.intro.${party}`, { name: party === 'traveler' ? order.guideName : order.travelerName })}</p>
          <input type="hidden" name="intent" value="review" />
          <StarRatingField field={fields.rating} legend={t('reviews.form.legend')} starLabel={(n) => t('reviews.form.star', { count: n })} />
          <TextareaField field={fields.comment} label={t('reviews.form.comment')} hint={t('reviews.form.commentHint', { max: REVIEW_COMMENT_MAX })} rows={4} />
          <FormErrors form={form} />
          <div className="form-actions">
            <SubmitButton busy={busy} label={t('reviews.form.submit')} busyLabel={t('reviews.form.working')} />
          </div>
        </Form>
      ) : party && !bothDone ? (
        <p className="muted small">{t('reviews.form.waiting')}</p>
      ) : (
        <FormErrors form={form} />
      )}
    </section>
  );
}
