import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, Link, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { attempt, parseForm } from '~/http/forms.server';
import { notFound, pageErrorResponse, readForm } from '~/http/page.server';
import { requireRole } from '~/http/session.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { reportDecisionSchema } from '~/schemas/chat-reports';
import { listOpenReports, resolveReport } from '~/services/messaging/chat-reports.server';

/**
 * /admin/reports (issue 23 "Abuse"): reported chat messages waiting for a decision, each with the message as
 * sent, the conversation around it and the sender's history; dismiss, or hide the message (audited). Plain POST
 * forms: works without JS. Blocking the sender is on the sender's account page, linked from each report.
 */
export const handle: I18nHandle = { i18n: ['reports', 'account', 'chat'] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const [t, queue] = await Promise.all([getFixedT(request), listOpenReports(user)]);
  return { title: t('reports.title'), ...queue };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const parsed = parseForm(await readForm(request), reportDecisionSchema);
  // The form is two buttons and a hidden id: anything else did not come from this page.
  if (!parsed.ok) throw notFound();
  const { intent, reportId } = parsed.value;
  const done = await attempt(() => resolveReport(user, reportId, intent));
  if (!done.ok) throw pageErrorResponse(done.error);
  return redirectWithToast('/admin/reports', { key: done.value.changed ? `reports.done.${intent}` : 'reports.done.already', type: done.value.changed ? 'success' : 'info' });
}

export default function AdminReports() {
  const { reports, total } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation();
  const when = (iso: string) => formatTaipeiDateTime(iso, i18n.language);
  return (
    <div className="admin-page report-queue">
      <p className="small">
        <Link to="/admin">{t('account.admin.title')}</Link>
      </p>
      <h1>{t('reports.title')}</h1>
      <p className="muted">{t('reports.intro')}</p>
      {reports.length === 0 ? (
        <p data-testid="reports-empty">{t('reports.empty')}</p>
      ) : (
        <>
          <p role="status">{t('reports.total', { count: total })}</p>
          <ol className="report-list">
            {reports.map((r) => (
              <li key={r.reportId} className="card report-item" data-testid="report">
                <h2 className="h4" id={`report-${r.reportId}`}>
                  {t('reports.message')} · {r.sender.name}
                </h2>
                <p className="small muted">
                  {t('reports.reportedBy', { name: r.reporter.name })} · {t('reports.reportedAt', { when: when(r.reportedAt) })}
                  <br />
                  {/* The reporter's reason from the fixed list, then their own words (issue 35: "no reason given" although one was). */}
                  <span data-testid="report-reason">
                    {r.reasonCode
                      ? t('reports.reason', { reason: t(`chat.reportReasons.${r.reasonCode}`) })
                      : r.reason
                        ? t('reports.reason', { reason: r.reason })
                        : t('reports.noReason')}
                    {r.reasonCode && r.reason ? ` · ${t('reports.reasonNote', { note: r.reason })}` : null}
                  </span>
                </p>
                <h3 className="h5">{t('reports.context')}</h3>
                <ol className="report-context">
                  {r.context.map((m) => (
                    <li key={m.id} className={m.reported ? 'is-reported' : undefined} data-testid={m.reported ? 'reported-message' : undefined}>
                      <span className="small muted">
                        {m.senderName} · <time dateTime={m.createdAt}>{when(m.createdAt)}</time>
                        {m.reported ? <strong className="report-mark"> · {t('reports.reportedMark')}</strong> : null}
                      </span>
                      <p className="report-text">{m.text}</p>
                    </li>
                  ))}
                </ol>
                <p className="small">
                  <Link to={`/chat/${r.message.chatId}`}>{t('reports.openChat')}</Link>
                </p>
                <h3 className="h5">{t('reports.sender')}</h3>
                <p className="small">
                  {r.sender.name} ({r.sender.email}){r.sender.blocked ? ` · ${t('reports.senderBlocked')}` : null}
                  <br />
                  {t('reports.senderHistory', { messages: r.sender.messages, reports: r.sender.reportsAgainst, hidden: r.sender.hiddenMessages })}
                  <br />
                  <Link to={`/admin/users/${r.sender.id}`}>{t('reports.openSender')}</Link>
                </p>
                <Form method="post" className="report-actions">
                  <input type="hidden" name="reportId" value={r.reportId} />
                  <button type="submit" name="intent" value="dismiss" className="button button-secondary" aria-describedby={`report-${r.reportId}`}>
                    {t('reports.dismiss')}
                  </button>
                  {r.message.hidden ? (
                    <span className="muted">{t('reports.hiddenAlready')}</span>
                  ) : (
                    <button type="submit" name="intent" value="hide" className="button button-danger" aria-describedby={`report-${r.reportId}`}>
                      {t('reports.hide')}
                    </button>
                  )}
                </Form>
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
