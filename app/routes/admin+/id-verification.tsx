import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ReviewDecision } from '~/components/review-decision';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/auth.server';
import { reviewDecision } from '~/http/review-decision.server';
import { redirectWithToast } from '~/http/toast.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { idRejectSchema } from '~/schemas/trust';
import { approveIdApplication, listIdApplications, rejectIdApplication } from '~/services/id-verification.server';

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
  return reviewDecision(request, await request.formData(), {
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
      <p className="small">
        <Link to="/admin">← {t('trust.admin.back')}</Link>
      </p>
      <h1>{t('trust.admin.idQueue.title')}</h1>
      <p className="muted">{t('trust.admin.idQueue.intro')}</p>
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
                <div className="doc-pair">
                  {(['front', 'back'] as const).map((side) =>
                    a.documents[side] ? (
                      <figure key={side}>
                        <a href={a.documents[side]!} target="_blank" rel="noreferrer">
                          <img
                            src={a.documents[side]!}
                            alt={t('trust.idv.documentAlt', { side: t(`trust.idv.${side}`), id: a.id })}
                            width={400}
                            height={250}
                            loading="lazy"
                          />
                        </a>
                        <figcaption className="small muted">{t(`trust.idv.${side}`)}</figcaption>
                      </figure>
                    ) : null,
                  )}
                </div>
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
