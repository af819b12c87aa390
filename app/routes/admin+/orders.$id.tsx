import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { AdminConfirmDialog, AdminReviewItem, AdminTextarea, useAdminConfirmation, type Asking } from '~/components/admin-detail';
import { SubmitButton } from '~/components/forms/form-fields';
import { useMessages } from '~/components/forms/messages';
import { requireRole } from '~/http/session.server';
import { replyWithError } from '~/http/forms.server';
import { orErrorPage, pageIdParam, readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { slotWithHours } from '~/lib/time-slots';
import { ORDER_NOTE_MAX, ORDER_REASON_MAX, adminOrderActionSchema, type AdminOrderIntent } from '~/schemas/admin-orders';
import {
  addOrderNote,
  adminCancelOrder,
  adminDeleteOrder,
  adminRefundOrder,
  adminRestoreOrder,
  getOrderForAdmin,
} from '~/services/admin/admin-orders.server';

/**
 * /admin/orders/:id (issue 22): the order, both parties, its timeline and reviews, the admins' internal notes, and
 * the actions open now (cancel with a reason, refund, delete, restore). Each action asks first (a modal with JS,
 * a confirmation step without) and notifies both parties; the service audits it in the same transaction.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const id = pageIdParam(params.id);
  const [t, detail] = await Promise.all([getFixedT(request), orErrorPage(() => getOrderForAdmin(user, id))]);
  return { title: t('admin.orders.detail', { id }), ...detail };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust', 'account', 'reviews'] };

export async function action({ request, params }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const id = pageIdParam(params.id);
  const submission = parseWithZod(await readForm(request), { schema: adminOrderActionSchema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const value = submission.value;
  if (value.intent !== 'note' && value.confirmed !== 'yes') {
    return data({ confirm: { intent: value.intent, reason: 'reason' in value ? value.reason : undefined } });
  }
  try {
    if (value.intent === 'note') await addOrderNote(user, id, value.body);
    else if (value.intent === 'cancel') await adminCancelOrder(user, id, value.reason);
    else if (value.intent === 'refund') await adminRefundOrder(user, id, value.reason);
    else if (value.intent === 'delete') await adminDeleteOrder(user, id);
    else await adminRestoreOrder(user, id);
    return redirectWithToast(`/admin/orders/${id}`, { key: `admin.orders.done.${value.intent}`, params: { id }, type: 'success' });
  } catch (error) {
    return replyWithError(request, submission, error);
  }
}

const REASONED: readonly AdminOrderIntent[] = ['cancel', 'refund'];

export default function AdminOrder() {
  const { order, events, reviews, notes, actions, refund } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as
    | { confirm: Asking<AdminOrderIntent> }
    | { result: { error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> | null } }
    | undefined;
  const { confirm, asking, setAsking, busyIntent } = useAdminConfirmation<AdminOrderIntent>(answer);
  const result = answer && 'result' in answer ? answer.result : null;
  const messages = useMessages();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const amount = formatNtd(order.totalPrice, lang);
  const reasonError = result?.error?.reason ?? null;
  // The actions that move money ask for a reason, in one form.
  const withReason = actions.filter((a) => REASONED.includes(a));
  const noteError = result?.error?.body ?? null;
  const typed = (name: string) => (typeof result?.initialValue?.[name] === 'string' ? (result.initialValue[name] as string) : '');

  const ask = (intent: AdminOrderIntent) => (event: MouseEvent<HTMLButtonElement>) => {
    const form = event.currentTarget.form;
    // An empty reason is the browser's to point out (required); the dialog opens once the form is valid.
    if (form && !form.checkValidity()) return;
    event.preventDefault();
    const reason = form?.querySelector<HTMLTextAreaElement>('textarea[name="reason"]')?.value;
    setAsking({ intent, reason });
  };

  return (
    <div className="admin-page">
      <AdminPageHead title={t('admin.orders.detail', { id: order.id })} back={{ to: '/admin/orders', label: t('admin.orders.title') }} />
      {confirm ? (
        <AdminConfirmDialog
          title={t(`admin.orders.confirm.${confirm.intent}.title`, { id: order.id })}
          intent={confirm.intent}
          hidden={confirm.reason ? { reason: confirm.reason } : {}}
          action={`/admin/orders/${order.id}`}
          confirmLabel={t(`admin.orders.actions.${confirm.intent}`)}
          busyIntent={busyIntent}
          onKeep={asking ? () => setAsking(null) : undefined}
          testId="confirm-order-action"
        >
          <p>{t(`admin.orders.confirm.${confirm.intent}.body`, { id: order.id, amount: formatNtd(refund.amount, lang) })}</p>
          {confirm.reason ? <p className="small">{confirm.reason}</p> : null}
        </AdminConfirmDialog>
      ) : null}
      {result?.error?.[''] ? (
        <p className="form-error" role="alert">
          {messages(result.error[''])}
        </p>
      ) : null}

      <section className="card" aria-labelledby="order-facts">
        <h2 id="order-facts">{t('admin.orders.facts')}</h2>
        <dl className="stat-list">
          <div>
            <dt>{t('admin.orders.status')}</dt>
            <dd data-testid="order-status">
              {t(`account.orderStatus.${order.status}`)}
              {order.deletedAt ? <> · {t('admin.orders.deleted')}</> : null}
            </dd>
          </div>
          <div>
            <dt>{t('admin.orders.tourDate')}</dt>
            <dd>
              {order.date} {slotWithHours(t, order.timeSlot)}
            </dd>
          </div>
          <div>
            <dt>{t('admin.orders.people')}</dt>
            <dd>{order.numberOfPeople}</dd>
          </div>
          <div>
            <dt>{t('admin.orders.amount')}</dt>
            <dd>{amount}</dd>
          </div>
          <div>
            <dt>{t('admin.orders.created')}</dt>
            <dd>{formatTaipeiDateTime(order.createdAt, lang)}</dd>
          </div>
          <div>
            <dt>{t('admin.orders.completion')}</dt>
            <dd>{t('admin.orders.completionBy', { traveler: t(order.travelerCompleted ? 'admin.yes' : 'admin.no'), guide: t(order.guideCompleted ? 'admin.yes' : 'admin.no') })}</dd>
          </div>
          <div>
            <dt>{t('admin.orders.traveler')}</dt>
            <dd>
              <Link to={`/admin/users/${order.travelerId}`}>{order.travelerName}</Link>
            </dd>
          </div>
          <div>
            <dt>{t('admin.orders.guide')}</dt>
            <dd>
              <Link to={`/admin/users/${order.guideId}`}>{order.guideName}</Link>
            </dd>
          </div>
          {order.note ? (
            <div>
              <dt>{t('admin.orders.note')}</dt>
              <dd className="admin-email">{order.note}</dd>
            </div>
          ) : null}
        </dl>
      </section>

      <section className="card" aria-labelledby="order-actions">
        <h2 id="order-actions">{t('admin.orders.actionsTitle')}</h2>
        {actions.length === 0 ? <p className="muted">{t('admin.orders.noActions')}</p> : null}
        {withReason.length > 0 ? (
          <Form method="post" className="admin-note-form">
            <AdminTextarea id="cancel-reason" name="reason" label={t('admin.orders.reason')} rows={2} maxLength={ORDER_REASON_MAX} defaultValue={typed('reason')} errors={reasonError} />
            <div className="admin-actions">
              {withReason.map((intent) => (
                <SubmitButton
                  key={intent}
                  name="intent"
                  value={intent}
                  busy={busyIntent === intent}
                  className="button button-danger"
                  label={t(`admin.orders.actions.${intent}`)}
                  onClick={ask(intent)}
                />
              ))}
            </div>
          </Form>
        ) : null}
        <div className="admin-actions">
          {actions
            .filter((a) => !REASONED.includes(a))
            .map((intent) => (
              <Form method="post" key={intent}>
                <SubmitButton
                  name="intent"
                  value={intent}
                  busy={busyIntent === intent}
                  className={intent === 'delete' ? 'button button-danger' : 'button button-secondary'}
                  label={t(`admin.orders.actions.${intent}`)}
                  onClick={ask(intent)}
                />
              </Form>
            ))}
        </div>
      </section>

      <section className="card" aria-labelledby="order-timeline">
        <h2 id="order-timeline">{t('admin.orders.timeline')}</h2>
        {events.length === 0 ? (
          <p className="muted">{t('admin.orders.noEvents')}</p>
        ) : (
          <ol className="admin-timeline" data-testid="order-timeline">
            {events.map((e, i) => (
              <li key={`${e.at}-${i}`}>
                <strong>{t(`admin.orders.events.${e.action}`, { defaultValue: e.action })}</strong> ·{' '}
                <time dateTime={e.at}>{formatTaipeiDateTime(e.at, lang)}</time>
                <div className="small muted">
                  {t('admin.orders.by', { name: e.actorName ?? '—', role: t(`admin.orders.actorRoles.${e.actorRole}`) })}
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section className="card" aria-labelledby="order-reviews">
        <h2 id="order-reviews">{t('admin.orders.reviews')}</h2>
        {reviews.length === 0 ? (
          <p className="muted">{t('admin.orders.noReviews')}</p>
        ) : (
          <ul className="admin-plain-list">
            {reviews.map((r) => (
              <AdminReviewItem key={r.id} review={r} show="both" />
            ))}
          </ul>
        )}
      </section>

      <section className="card" aria-labelledby="order-notes">
        <h2 id="order-notes">{t('admin.orders.notes')}</h2>
        <p className="small muted">{t('admin.orders.notesIntro')}</p>
        {notes.length === 0 ? (
          <p className="muted">{t('admin.orders.noNotes')}</p>
        ) : (
          <ul className="admin-plain-list" data-testid="order-notes">
            {notes.map((n) => (
              <li key={n.id}>
                <span className="small muted">
                  {n.authorName ?? '—'} · <time dateTime={n.createdAt}>{formatTaipeiDateTime(n.createdAt, lang)}</time>
                </span>
                <p>{n.body}</p>
              </li>
            ))}
          </ul>
        )}
        <Form method="post" className="admin-note-form">
          <AdminTextarea id="order-note" name="body" label={t('admin.orders.newNote')} rows={3} maxLength={ORDER_NOTE_MAX} defaultValue={typed('body')} errors={noteError} />
          <div>
            <SubmitButton name="intent" value="note" busy={busyIntent === 'note'} className="button button-secondary" label={t('admin.orders.addNote')} />
          </div>
        </Form>
      </section>
    </div>
  );
}
