import { getFormProps } from '@conform-to/react';
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { SubmitButton } from '~/components/forms/form-fields';
import { PagedList } from '~/components/paged-list';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { requireUser } from '~/http/session.server';
import { attempt, parseForm } from '~/http/forms.server';
import { pageIdParam, readForm } from '~/http/page.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { safeRedirectPath } from '~/lib/safe-url';
import { notificationFormSchema, notificationListQuerySchema } from '~/schemas/notifications';
import { deleteNotification, listNotifications, markAllRead, markRead } from '~/services/messaging/notifications.server';

/** /notifications (SPEC §2, issue 10): the notification center; every change is a plain form. */
export const handle: I18nHandle = { i18n: ['notifications'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const parsed = notificationListQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  const query = parsed.success ? parsed.data : notificationListQuerySchema.parse({});
  const locale = await getLocale(request);
  // Worded in the reader's language now, also the notices written before they switched.
  const [list, t] = await Promise.all([listNotifications(user.id, query, locale), getFixedT(locale)]);
  return { ...list, title: t('notifications.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const formData = await readForm(request);
  const parsed = parseForm(formData, notificationFormSchema);
  if (!parsed.ok) return parsed.reply;
  const { intent, id } = parsed.value;
  const done = await attempt(async () => {
    if (intent === 'readAll') await markAllRead(user.id);
    else if (intent === 'read') await markRead(user.id, pageIdParam(id));
    else await deleteNotification(user.id, pageIdParam(id));
  });
  if (!done.ok) {
    const t = await getFixedT(request);
    return data({ result: parsed.submission.reply({ formErrors: [t(done.error.messageKey)] }) }, { status: done.error.status });
  }
  // "Open" marks read and goes to the link; the rest stay on this page.
  const go = formData.get('go');
  if (intent === 'read' && typeof go === 'string' && go) return redirect(safeRedirectPath(go, '/notifications'));
  const back = safeRedirectPath(formData.get('back'), '/notifications');
  return redirect(back.startsWith('/notifications') ? back : '/notifications');
}

export default function Notifications() {
  const { notifications, unreadCount, pagination } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const [form] = useSchemaForm<{ intent: string; id: string }>({ id: 'notifications', schema: notificationFormSchema, lastResult: actionData?.result });
  const back = pagination.page > 1 ? `/notifications?page=${pagination.page}` : '/notifications';
  const busy = (intent: string, id?: number) =>
    navigation.state === 'submitting' && navigation.formData?.get('intent') === intent && (id === undefined || navigation.formData?.get('id') === String(id));
  return (
    <div className="notifications-page">
      <h1>{t('notifications.title')}</h1>
      <div className="notifications-head">
        <p className="muted" role="status">
          {t('notifications.unread', { count: unreadCount })}
        </p>
        {unreadCount > 0 ? (
          <Form method="post" {...getFormProps(form)}>
            <input type="hidden" name="back" value={back} />
            <SubmitButton name="intent" value="readAll" busy={busy('readAll')} className="button button-small button-secondary" label={t('notifications.readAll')} />
          </Form>
        ) : null}
      </div>
      <FormErrors form={form} />
      <PagedList items={notifications} empty={t('notifications.empty')} className="notification-list" pagination={pagination} basePath="/notifications">
        {(n) => (
          <li key={n.id} className={n.isRead ? 'notification' : 'notification is-unread'}>
            <div className="notification-text">
              <p className="notification-title">
                {n.isRead ? null : <span className="visually-hidden">{t('notifications.unreadMark')} </span>}
                {n.isRead ? null : <span className="dot" aria-hidden="true" />}
                <strong>{n.title}</strong>
              </p>
              {n.body ? <p>{n.body}</p> : null}
              <p className="small muted">
                <time dateTime={n.createdAt}>{formatTaipeiDateTime(n.createdAt, i18n.language)}</time>
              </p>
            </div>
            <Form method="post" className="notification-actions">
              <input type="hidden" name="id" value={n.id} />
              <input type="hidden" name="back" value={back} />
              {n.link ? (
                n.isRead ? (
                  <Link to={n.link} className="button button-small">
                    {t('notifications.open')}
                  </Link>
                ) : (
                  <>
                    <input type="hidden" name="go" value={n.link} />
                    <SubmitButton name="intent" value="read" busy={busy('read', n.id)} className="button button-small" label={t('notifications.open')} />
                  </>
                )
              ) : null}
              {!n.isRead && !n.link ? (
                <SubmitButton name="intent" value="read" busy={busy('read', n.id)} className="button button-small button-secondary" label={t('notifications.markRead')} />
              ) : null}
              <SubmitButton name="intent" value="delete" busy={busy('delete', n.id)} className="button button-small button-secondary" label={t('notifications.delete')} />
            </Form>
          </li>
        )}
      </PagedList>
    </div>
  );
}
