import { getFormProps, type Submission, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, type SerializeFrom } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusPill } from '~/components/dashboard';
import { StarRatingField, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { OrderReviews } from '~/components/order-reviews';
import { OrderSummary } from '~/components/order-summary';
import { requireUser } from '~/http/session.server';
import { replyWithError } from '~/http/forms.server';
import { freshFormKey, keyedFormSubmit } from '~/http/form-keys.server';
import { orErrorPage, pageIdParam, readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { FORM_KEY_FIELD } from '~/lib/form-key';
import { pageMeta } from '~/lib/meta';
import { orderActionFormSchema, orderConfirmFormSchema, type OrderAction } from '~/schemas/orders';
import { REVIEW_COMMENT_MAX, reviewCreateSchema } from '~/schemas/reviews';
import type { Viewer } from '~/services/platform/access.server';
import { changeOrder, getOrderDetail, getOrderFor, lastMeetingDetails } from '~/services/booking/orders.server';
import { createReview, orderReviewState } from '~/services/booking/reviews.server';
import { ConfirmWithMeeting, MeetingFacts } from './__meeting';
import { ConfirmCancel, PaymentCard } from './__payment';

/**
 * /orders/:id (issue 10): the order, its timeline, the actions the viewer may take now as form buttons, and the
 * order's reviews with the review form once both sides marked it completed.
 */
/** Actions that are asked about before they are done: they end the booking. */
const ASKS_FIRST: readonly OrderAction[] = ['cancel', 'decline'];

export const handle: I18nHandle = { i18n: ['orders', 'booking', 'account', 'reviews', 'chat', 'payments'] };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(params.id);
  const [detail, reviewState, t] = await orErrorPage(() => Promise.all([getOrderDetail(user, id), orderReviewState(user, id), getFixedT(request)]));
  return {
    ...detail,
    reviewState,
    viewer: { id: user.id, type: user.type },
    // The review form's one-time key (docs/decisions/042): a double submit stores one review and lands on it.
    reviewFormKey: reviewState.canReview ? freshFormKey() : null,
    // The confirmation asks where to meet (issue 35): it starts from what this guide gave last time.
    meetingDefaults: detail.actions.includes('confirm') ? await lastMeetingDetails(user.id) : null,
    title: t('orders.detail.title', { id: detail.order.id }),
  };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const id = pageIdParam(params.id);
  // Who may touch the order first (403/404 page), only then what the form says.
  await orErrorPage(() => getOrderFor(user, id));
  const formData = await readForm(request);
  if (formData.get('intent') === 'review') return reviewAction(request, user, id, formData);
  const submission = parseWithZod(formData, { schema: orderActionFormSchema });
  if (submission.status !== 'success') return data({ form: 'actions' as const, result: submission.reply() }, { status: 400 });
  if (submission.value.intent === 'confirm') return confirmAction(request, user, id, formData, submission);
  // Cancelling and declining ask first (issue 19): without JS this answer is the confirmation step.
  if (ASKS_FIRST.includes(submission.value.intent) && formData.get('confirmed') !== 'yes') {
    return data({ form: 'confirm' as const, intent: submission.value.intent });
  }
  try {
    const { action } = await changeOrder(user, id, { action: submission.value.intent });
    return redirectWithToast(`/orders/${id}`, { key: `orders.done.${action}`, type: 'success' });
  } catch (error) {
    return replyWithError(request, submission, error, { extra: { form: 'actions' as const } });
  }
}

/**
 * Accepting a booking (issue 35): the guide says where to meet and gives a phone first. Without JS the button's
 * answer is that step; its form confirms with the details, as PUT /api/v1/orders/{id} does with them.
 */
async function confirmAction(request: Request, user: Viewer, orderId: number, formData: FormData, asked: Submission<{ intent: OrderAction }>) {
  if (!formData.has('meetingPoint')) {
    // The step only for whom may accept now; anyone else gets the state machine's answer (403, 409) as before.
    if ((await getOrderDetail(user, orderId)).actions.includes('confirm')) return data({ form: 'meeting' as const, result: null });
    try {
      await changeOrder(user, orderId, { action: 'confirm' });
      return redirectWithToast(`/orders/${orderId}`, { key: 'orders.done.confirm', type: 'success' });
    } catch (error) {
      return replyWithError(request, asked, error, { extra: { form: 'actions' as const } });
    }
  }
  const submission = parseWithZod(formData, { schema: orderConfirmFormSchema });
  if (submission.status !== 'success') return data({ form: 'meeting' as const, result: submission.reply() }, { status: 400 });
  try {
    const { meetingPoint, guidePhone } = submission.value;
    await changeOrder(user, orderId, { action: 'confirm', meetingPoint, guidePhone });
    return redirectWithToast(`/orders/${orderId}`, { key: 'orders.done.confirm', type: 'success' });
  } catch (error) {
    return replyWithError(request, submission, error, { extra: { form: 'meeting' as const } });
  }
}

/** The review form: the same service as POST /api/v1/orders/{id}/reviews; SPEC §8 wording for its failures. */
async function reviewAction(request: Request, user: { id: number }, orderId: number, formData: FormData) {
  const submission = parseWithZod(formData, { schema: reviewCreateSchema });
  if (submission.status !== 'success') return data({ form: 'review' as const, result: submission.reply() }, { status: 400 });
  try {
    const { rating, comment } = submission.value;
    // A second submit with the form's key (a double tap) gets the first one's redirect, not "already reviewed".
    return await keyedFormSubmit(formData, { userId: user.id, path: `/orders/${orderId}/review` }, { rating, comment }, async () => {
      await createReview({ rating, comment, orderId, reviewerId: user.id });
      return redirectWithToast(`/orders/${orderId}#order-reviews-title`, { key: 'reviews.form.done', type: 'success' });
    });
  } catch (error) {
    return replyWithError(request, submission, error, { extra: { form: 'review' as const } });
  }
}

export default function OrderDetail() {
  const { order, events, actions, viewer, reviewState, refund, payment, paymentHistory, meetingDefaults } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const locale = i18n.language;
  const [form] = useSchemaForm<{ intent: OrderAction }>({ id: 'order-actions', schema: orderActionFormSchema, lastResult: actionData?.form === 'actions' ? actionData.result : null });
  const busyIntent = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;
  const role = viewer.id === order.travelerId ? 'traveler' : viewer.id === order.guideId ? 'guide' : 'admin';
  // The confirmation step: the server's answer without JS, the button's click with JS.
  const [asking, setAsking] = useState<OrderAction | null>(null);
  const confirming = asking ?? (actionData?.form === 'confirm' ? actionData.intent : null);
  // Only while the order can still be accepted: after the confirmation (JS on: the same page) the step is gone.
  const meetingStep = actions.includes('confirm') && (confirming === 'confirm' || actionData?.form === 'meeting');
  // A booking still ahead: the calendar file and the completion marks belong to it; a cancelled one has neither.
  const live = order.status === 'pending' || order.status === 'confirmed';
  const ownMarkDone = role === 'traveler' ? order.travelerCompleted : role === 'guide' ? order.guideCompleted : false;
  return (
    <div className="order-page">
      <p>
        <Link to="/orders">← {t('orders.detail.back')}</Link>
      </p>
      {/* First on the page: without JS the confirmation step opens on the first screen. */}
      {meetingStep ? (
        <ConfirmWithMeeting
          defaults={meetingDefaults}
          lastResult={actionData?.form === 'meeting' ? actionData.result : null}
          busy={busyIntent === 'confirm'}
          onBack={asking ? () => setAsking(null) : undefined}
        />
      ) : confirming && refund ? (
        <ConfirmCancel
          intent={confirming}
          role={role}
          refund={refund}
          total={order.totalPrice}
          busy={busyIntent === confirming}
          onKeep={asking ? () => setAsking(null) : undefined}
        />
      ) : null}
      <section className="card" aria-labelledby="order-title">
        <h1 id="order-title">
          {t('orders.detail.title', { id: order.id })} <StatusPill status={order.status} />
        </h1>
        <OrderSummary order={order} show={{ traveler: true, note: true, completion: order.status === 'confirmed' || order.status === 'completed' }} />
        <MeetingFacts meetingPoint={order.meetingPoint} guidePhone={order.guidePhone} />
        {role !== 'admin' ? (
          <p>
            {/* Issues 23 and 35: both parties reach their one conversation from the order (opened if none yet). */}
            <Link to={`/chat/new?orderId=${order.id}`} className="button button-secondary" data-testid="order-chat-link">
              {t(role === 'guide' ? 'chat.ask.messageTraveler' : 'chat.ask.messageGuide')}
            </Link>
          </p>
        ) : null}
        {live ? (
          <p>
            <a href={`/orders/${order.id}/calendar.ics`} download={`order-${order.id}.ics`}>
              {t('booking.success.addToCalendar')}
            </a>
          </p>
        ) : null}
      </section>

      {payment ? <PaymentCard orderId={order.id} payment={payment} history={paymentHistory} role={role} /> : null}

      <section className="card" aria-labelledby="order-actions-title">
        <h2 id="order-actions-title">{t('orders.detail.actions')}</h2>
        {actions.length === 0 ? (
          <p className="muted">
            {order.status === 'confirmed' && role !== 'admin'
              ? ownMarkDone
                ? t('orders.detail.noActions.markedDone', { name: role === 'traveler' ? order.guideName : order.travelerName })
                : t('orders.detail.noActions.waiting')
              : t('orders.detail.noActions.none')}
          </p>
        ) : (
          <Form method="post" className="order-actions" {...getFormProps(form)}>
            {actions.map((a) => (
              <SubmitButton
                key={a}
                name="intent"
                value={a}
                busy={busyIntent === a}
                className={ASKS_FIRST.includes(a) ? 'button button-secondary' : 'button'}
                label={t(`orders.actions.${a}`)}
                busyLabel={t('orders.actions.working')}
                onClick={
                  ASKS_FIRST.includes(a) || a === 'confirm'
                    ? (event) => {
                        event.preventDefault();
                        setAsking(a);
                      }
                    : undefined
                }
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
  order: { status: string; travelerName: string; guideName: string; travelerCompleted: boolean; guideCompleted: boolean };
  reviewState: SerializeFrom<typeof loader>['reviewState'];
  lastResult: SubmissionResult<string[]> | null;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm<{ rating: string; comment: string; intent: string }>({ id: 'order-review', schema: reviewCreateSchema, lastResult });
  const { canReview, party } = reviewState;
  const { reviewFormKey } = useLoaderData<typeof loader>();
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
          {reviewFormKey ? <input type="hidden" name={FORM_KEY_FIELD} value={reviewFormKey} /> : null}
          <StarRatingField field={fields.rating} legend={t('reviews.form.legend')} starLabel={(n) => t('reviews.form.star', { count: n })} />
          <TextareaField field={fields.comment} label={t('reviews.form.comment')} hint={t('reviews.form.commentHint', { max: REVIEW_COMMENT_MAX })} rows={4} />
          <FormErrors form={form} />
          <div className="form-actions">
            <SubmitButton busy={busy} label={t('reviews.form.submit')} busyLabel={t('reviews.form.working')} />
          </div>
        </Form>
      ) : party && !bothDone && order.status === 'confirmed' ? (
        <p className="muted small">{t('reviews.form.waiting')}</p>
      ) : (
        <FormErrors form={form} />
      )}
    </section>
  );
}
