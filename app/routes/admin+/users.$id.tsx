import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { UserFacts } from './__user-facts';
import { AuditTable } from '~/components/admin-audit';
import { AdminConfirmDialog, AdminReviewItem, useAdminConfirmation, type Asking } from '~/components/admin-detail';
import { SubmitButton } from '~/components/forms/form-fields';
import { useMessages } from '~/components/forms/messages';
import { requireRole } from '~/http/session.server';
import { replyWithError } from '~/http/forms.server';
import { orErrorPage, pageIdParam, readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';
import { formatNtd } from '~/lib/money';
import { ASSIGNABLE_ROLES, CONFIRMED_USER_INTENTS, adminUserActionSchema, type AdminUserIntent } from '~/schemas/user-admin';
import { archiveUser, blockUser, restoreUser, unblockUser } from '~/services/accounts/user-admin.server';
import { changeUserRole, endUserSessions, getUserForAdmin, resendVerificationFor } from '~/services/admin/admin-user-detail.server';

/**
 * /admin/users/:id (issue 22): one account — profile, verification, orders, reviews both ways, its audit trail —
 * and the admin's actions on it. Each action is a plain POST form; the ones that cannot be undone at a click ask
 * first (ConfirmDialog: a modal with JS, a confirmation step without). The services audit every change.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user: admin } = await requireRole(request, 'admin');
  const id = pageIdParam(params.id);
  const [t, detail] = await Promise.all([getFixedT(request), orErrorPage(() => getUserForAdmin(admin, id))]);
  return { title: `${t('admin.users.detail')}: ${detail.user.name}`, selfId: admin.id, ...detail };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['admin', 'trust', 'account'] };

export async function action({ request, params }: ActionFunctionArgs) {
  const { user: admin } = await requireRole(request, 'admin');
  const id = pageIdParam(params.id);
  const submission = parseWithZod(await readForm(request), { schema: adminUserActionSchema });
  if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 });
  const value = submission.value;
  // The first press of an action that asks first: without JS this answer is the confirmation step.
  if (CONFIRMED_USER_INTENTS.includes(value.intent) && value.confirmed !== 'yes') {
    return data({ confirm: { intent: value.intent, role: value.intent === 'changeRole' ? value.role : undefined } });
  }
  try {
    const { user } = await getUserForAdmin(admin, id);
    let count: number | undefined;
    switch (value.intent) {
      case 'block':
        await blockUser(admin, id);
        break;
      case 'unblock':
        await unblockUser(admin, id);
        break;
      case 'archive':
        await archiveUser(admin, id);
        break;
      case 'restore':
        await restoreUser(admin, id);
        break;
      case 'endSessions':
        count = await endUserSessions(admin, id);
        break;
      case 'resendVerification':
        await resendVerificationFor(admin, id);
        break;
      case 'changeRole':
        await changeUserRole(admin, id, value.role);
        break;
    }
    return redirectWithToast(`/admin/users/${id}`, {
      key: `admin.users.done.${value.intent}`,
      params: { name: user.name, count: count ?? 0 },
      type: 'success',
    });
  } catch (error) {
    return replyWithError(request, submission, error);
  }
}

export default function AdminUser() {
  const { user, orders, reviews, audit, liveSessions, selfId } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as
    | { confirm: Asking<AdminUserIntent> }
    | { result: { error?: Record<string, string[] | null> } }
    | undefined;
  const { confirm, asking, setAsking, busyIntent } = useAdminConfirmation<AdminUserIntent>(answer);
  const formError = answer && 'result' in answer ? (answer.result.error?.[''] ?? null) : null;
  const messages = useMessages();
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const archived = user.archivedAt !== null;
  const blocked = user.blockedAt !== null;
  const self = user.id === selfId;
  // Another admin's account is managed by ADMIN_EMAIL only (decision 037): no block, archive or role change here.
  const adminAccount = user.type === 'admin' && !self;

  /** With JS, a destructive button opens the dialog instead of posting (without JS the server asks). */
  const ask = (intent: AdminUserIntent) => (event: MouseEvent<HTMLButtonElement>) => {
    event.preventDefault();
    const role = event.currentTarget.form?.querySelector<HTMLSelectElement>('select[name="role"]')?.value;
    setAsking({ intent, role });
  };

  const actionButton = (intent: AdminUserIntent, danger = false) => (
    <Form method="post" key={intent}>
      <SubmitButton
        name="intent"
        value={intent}
        busy={busyIntent === intent}
        className={danger ? 'button button-danger' : 'button button-secondary'}
        label={t(`admin.users.actions.${intent}`)}
        onClick={CONFIRMED_USER_INTENTS.includes(intent) ? ask(intent) : undefined}
      />
    </Form>
  );

  return (
    <div className="admin-page">
      <AdminPageHead
        title={user.name}
        back={archived ? { to: '/admin/users/archived', label: t('admin.users.archivedTitle') } : { to: '/admin/users', label: t('admin.users.title') }}
      />
      {confirm ? (
        <AdminConfirmDialog
          title={t(`admin.users.confirm.${confirm.intent}.title`, { name: user.name })}
          intent={confirm.intent}
          hidden={confirm.role ? { role: confirm.role } : {}}
          action={`/admin/users/${user.id}`}
          confirmLabel={t(`admin.users.actions.${confirm.intent}`)}
          busyIntent={busyIntent}
          onKeep={asking ? () => setAsking(null) : undefined}
          testId="confirm-user-action"
        >
          <p>
            {t(`admin.users.confirm.${confirm.intent}.body`, {
              name: user.name,
              count: liveSessions,
              role: confirm.role ? t(`admin.roles.${confirm.role}`) : '',
            })}
          </p>
        </AdminConfirmDialog>
      ) : null}
      {formError ? (
        <p className="form-error" role="alert">
          {messages(formError)}
        </p>
      ) : null}

      <UserFacts user={user} liveSessions={liveSessions} />

      <section className="card" aria-labelledby="user-actions">
        <h2 id="user-actions">{t('admin.users.actionsTitle')}</h2>
        {self ? <p className="small muted">{t('admin.users.selfNote')}</p> : null}
        {adminAccount ? (
          <p className="small muted" data-testid="admin-account-note">
            {t('admin.users.adminNote')}
          </p>
        ) : null}
        <div className="admin-actions">
          {!self && !archived ? (blocked ? actionButton('unblock') : adminAccount ? null : actionButton('block', true)) : null}
          {!self && blocked && archived ? actionButton('unblock') : null}
          {archived ? actionButton('restore') : !self && !adminAccount ? actionButton('archive', true) : null}
          {liveSessions > 0 && !self ? actionButton('endSessions', true) : null}
          {!user.isEmailVerified && !archived && !blocked ? actionButton('resendVerification') : null}
        </div>
        {user.type !== 'admin' && !archived ? (
          <Form method="post" className="admin-role-form">
            <div className="field">
              <label htmlFor="user-new-role">{t('admin.users.newRole')}</label>
              <select id="user-new-role" name="role" defaultValue={user.type === 'guide' ? 'traveler' : 'guide'}>
                {ASSIGNABLE_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {t(`admin.roles.${r}`)}
                  </option>
                ))}
              </select>
            </div>
            <SubmitButton
              name="intent"
              value="changeRole"
              busy={busyIntent === 'changeRole'}
              className="button button-secondary"
              label={t('admin.users.actions.changeRole')}
              onClick={ask('changeRole')}
            />
          </Form>
        ) : null}
      </section>

      <section className="card" aria-labelledby="user-orders">
        <h2 id="user-orders">{t('admin.users.ordersTitle', { count: orders.length })}</h2>
        {orders.length === 0 ? (
          <p className="muted">{t('admin.users.noOrders')}</p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table">
              <thead>
                <tr>
                  <th scope="col">{t('admin.orders.number')}</th>
                  <th scope="col">{t('admin.users.side')}</th>
                  <th scope="col">{t('admin.users.otherParty')}</th>
                  <th scope="col">{t('admin.orders.tourDate')}</th>
                  <th scope="col">{t('admin.orders.status')}</th>
                  <th scope="col">{t('admin.orders.amount')}</th>
                </tr>
              </thead>
              <tbody>
                {orders.map((o) => (
                  <tr key={o.id}>
                    <th scope="row">
                      <Link to={`/admin/orders/${o.id}`}>#{o.id}</Link>
                    </th>
                    <td>{t(`admin.roles.${o.role}`)}</td>
                    <td>
                      <Link to={`/admin/users/${o.otherPartyId}`}>{o.otherPartyName}</Link>
                    </td>
                    <td>{o.date}</td>
                    <td>{t(`account.orderStatus.${o.status}`)}</td>
                    <td>{formatNtd(o.totalPrice, lang)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <div className="admin-columns">
        {(['received', 'given'] as const).map((side) => (
          <section className="card" aria-labelledby={`user-reviews-${side}`} key={side}>
            <h2 id={`user-reviews-${side}`}>{t(`admin.users.reviews.${side}`, { count: reviews[side].length })}</h2>
            {reviews[side].length === 0 ? (
              <p className="muted">{t('admin.users.reviews.none')}</p>
            ) : (
              <ul className="admin-plain-list">
                {reviews[side].map((r) => (
                  <AdminReviewItem key={r.id} review={r} show={side === 'received' ? 'reviewer' : 'reviewee'} />
                ))}
              </ul>
            )}
          </section>
        ))}
      </div>

      <section className="card" aria-labelledby="user-audit">
        <h2 id="user-audit">{t('admin.users.audit')}</h2>
        <AuditTable entries={audit} empty={t('admin.logs.empty')} />
        <p className="small">
          <Link to={`/admin/logs?targetType=user&targetId=${user.id}`}>{t('admin.users.fullAudit')}</Link>
        </p>
      </section>
    </div>
  );
}
