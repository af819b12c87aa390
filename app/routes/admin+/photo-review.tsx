import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { ReviewDecision } from '~/components/review-decision';
import { AdminPageHead } from '~/components/admin';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireRole } from '~/http/session.server';
import { reviewDecision } from '~/http/review-decision.server';
import { redirectWithToast } from '~/http/toast.server';
import { readForm } from '~/http/page.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { parseIdParam } from '~/lib/ids';
import { pageMeta } from '~/lib/meta';
import { photoReviewSchema } from '~/schemas/trust';
import { approvePhotos, listPhotosForAdmin, reviewPhoto } from '~/services/trust/photos.server';

/**
 * /admin/photo-review (SPEC §4 Photo review, issue 11): photos awaiting review, oldest first, each large
 * enough to judge, with approve and reject (optional reason) as plain form buttons, and a batch approve
 * of the ticked photos (checkboxes tied to one form by its id, so it works without JS).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const [t, photos] = await Promise.all([getFixedT(request), listPhotosForAdmin({ status: 'pending_review' })]);
  return { title: t('trust.admin.photoQueue.title'), photos };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['trust', 'account'] };

const rejectSchema = photoReviewSchema.pick({ reason: true });

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const formData = await readForm(request);
  const back = new URL(request.url).pathname;
  if (formData.get('intent') === 'approve-selected') {
    const ids = formData.getAll('ids').map((v) => parseIdParam(String(v))).filter((v): v is number => v !== undefined);
    if (!ids.length) {
      const t = await getFixedT(request);
      return data({ batchError: t('trust.photos.noneSelected') }, { status: 400 });
    }
    const count = await approvePhotos(user, ids);
    return redirectWithToast(back, { key: 'trust.admin.photoQueue.approvedCount', params: { count }, type: 'success' });
  }
  return reviewDecision(request, formData, {
    rejectSchema,
    approve: async (id) => {
      await reviewPhoto(user, id, { status: 'approved' });
      return redirectWithToast(back, { key: 'trust.admin.photoQueue.approvedCount', params: { count: 1 }, type: 'success' });
    },
    reject: async (id, { reason }) => {
      await reviewPhoto(user, id, { status: 'rejected', reason });
      return redirectWithToast(back, { key: 'trust.admin.photoQueue.rejectedOne', params: { count: 1 }, type: 'success' });
    },
  });
}

export default function PhotoReviewQueue() {
  const { photos } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const { t, i18n } = useTranslation();
  return (
    <div className="admin-page">
      <AdminPageHead
        title={t('trust.admin.photoQueue.title')}
        intro={t('trust.admin.photoQueue.intro')}
        also={{ to: '/admin/photos', label: t('trust.admin.photos.title') }}
      />
      {answer && 'batchError' in answer && (
        <p className="form-error" role="alert">
          {answer.batchError}
        </p>
      )}
      {photos.length === 0 ? (
        <p className="card empty">{t('trust.admin.photoQueue.empty')}</p>
      ) : (
        <>
          <Form method="post" id="batch-approve" className="gallery-actions">
            <button type="submit" name="intent" value="approve-selected" className="button">
              {t('trust.admin.photoQueue.approveSelected')}
            </button>
          </Form>
          <ol className="queue-list">
            {photos.map((p) => (
              <li key={p.id} className="card queue-item" data-testid={`review-photo-${p.id}`}>
                <h2>
                  <Link to={`/admin/guides/${p.guideId}`}>{p.guideName}</Link> <span className="muted small">#{p.id}</span>
                </h2>
                <p className="small muted">{t('trust.admin.photoQueue.uploadedAt', { date: formatTaipeiDateTime(p.createdAt, i18n.language) })}</p>
                <a href={p.url} target="_blank" rel="noreferrer" className="queue-photo">
                  <img src={p.url} alt={t('trust.admin.photoQueue.photoAlt', { name: p.guideName, id: p.id })} width={768} height={512} loading="lazy" />
                </a>
                <label className="small">
                  <input type="checkbox" name="ids" value={p.id} form="batch-approve" />{' '}
                  {t('trust.admin.photoQueue.select', { name: p.guideName, id: p.id })}
                </label>
                <ReviewDecision
                  itemId={p.id}
                  reasonName="reason"
                  schema={rejectSchema}
                  lastResult={answer && 'id' in answer && answer.id === p.id ? answer.result : undefined}
                  maxLength={500}
                  labels={{ approve: t('trust.admin.photoQueue.approve'), reject: t('trust.admin.photoQueue.reject'), reason: t('trust.admin.photoQueue.reason') }}
                />
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}
