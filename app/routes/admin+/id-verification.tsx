import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { IdDocuments } from '~/components/id-documents';
import { ReviewDecision } from '~/components/review-decision';
import { AdminPageHead } from '~/components/admin';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/session.server';
import { reviewDecision } from '~/http/review-decision.server';
import { redirectWithToast } from '~/http/toast.server';
import { readForm } from '~/http/page.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { idRejectSchema } from '~/schemas/trust';
import { approveIdApplication, listIdApplications, rejectIdApplication } from '~/services/trust/id-verification.server';

/**
 * /admin/id-verification (issue 11): pending applications, oldest first, each with its documents side by
 * side, an approve button and a reject form whose notes are required; plain forms, JS optional.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const [t, applications] = await Promise.all([getFixedT(request), listIdApplications('pending')]);
  return { title: t('trust.admin.idQueue.title'), applications };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['trust', 'account'] };

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const applicantName = async (id: number) => (await listIdApplications('pending')).find((a) => a.id === id)?.applicant.name ?? '';
  return reviewDecision(request, await readForm(request), {
    rejectSchema: idRejectSchema,
    approve: async (id) => {
      const name = await applicantName(id);
      await approveIdApplication(user, id);
      return redirectWithToast('/admin/id-verification', { key: 'trust.admin.idQueue.approved', params: { name }, type: 'success' });
    },
    reject: async (id, { reviewNotes }) => {
      const name = await applicantName(id);
      await rejectIdApplication(user, id, reviewNotes);
      return redirectWithToast('/admin/id-verification', { key: 'trust.admin.idQueue.rejected', params: { name }, type: 'success' });
    },
  });
}

export default function IdVerificationQueue() {
  const { applications } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t, i18n } = useTranslation();
  return (
    <div className="admin-page">
      <AdminPageHead title={t('trust.admin.idQueue.title')} intro={t('trust.admin.idQueue.intro')} />
      {applications.length === 0 ? (
        <p className="card empty">{t('trust.admin.idQueue.empty')}</p>
      ) : (
        <ol className="queue-list">
          {applications.map((a) => {
            return (
              <li key={a.id} className="card queue-item" data-testid={`id-application-${a.id}`}>
                <h2 id={`app-${a.id}`}>
                  {a.applicant.name} <span className="muted small">{a.applicant.email}</span>
                </h2>
                <p className="small muted">
                  {t(`trust.idv.types.${a.type}`, { defaultValue: a.type })} ·{' '}
                  {t('trust.idv.submittedAt', { date: formatTaipeiDateTime(a.submittedAt, i18n.language) })} · {t(`account.types.${a.applicant.type}`)}
                </p>
                <IdDocuments applicationId={a.id} documents={a.documents} className="doc-pair" width={400} height={250} linked />
                <ReviewDecision
                  itemId={a.id}
                  reasonName="reviewNotes"
                  schema={idRejectSchema}
                  lastResult={answer?.id === a.id ? answer.result : undefined}
                  multiline
                  maxLength={1000}
                  labels={{ approve: t('trust.admin.idQueue.approve'), reject: t('trust.admin.idQueue.reject'), reason: t('trust.admin.idQueue.notes') }}
                />
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
