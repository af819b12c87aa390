import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '~/components/confirm-dialog';
import { FieldFrame } from '~/components/forms/field-frame';
import { useMessages } from '~/components/forms/messages';
import { PaginationNav } from '~/components/pagination';
import { ExportLink } from '~/components/export-link';
import { Stars } from '~/components/stars';
import { requireRole } from '~/http/session.server';
import { pageIdParam, readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDate } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { REVIEW_REASON_MAX, adminReviewActionSchema, adminReviewQuerySchema } from '~/schemas/reviews';
import { attempt, parseForm } from '~/http/forms.server';
import { deleteReview, searchReviews, setReviewHidden } from '~/services/booking/reviews.server';

/**
 * /admin/reviews (SPEC §2 admin list): search every review (hidden ones too), hide with a reason, show again or
 * delete, as plain POST forms (JS optional); the same services as /api/v1/reviews, audited there.
 */
export const handle: I18nHandle = { i18n: ['reviews', 'account', 'exports'] };

function readQuery(url: URL) {
  const parsed = adminReviewQuerySchema.safeParse(Object.fromEntries(url.searchParams));
  return parsed.success ? parsed.data : { keyword: undefined, page: 1 };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const query = readQuery(new URL(request.url));
  const [t, result] = await Promise.all([getFixedT(request), searchReviews(user, query)]);
  return { title: t('reviews.admin.title'), keyword: query.keyword ?? '', ...result };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const url = new URL(request.url);
  const back = `/admin/reviews${url.search}`;
  const formData = await readForm(request);
  // The review the form names, by the one id rule: an id that names nothing is the 404 page.
  const reviewId = pageIdParam(formData.get('reviewId'));
  const parsed = parseForm(formData, adminReviewActionSchema);
  if (!parsed.ok) {
    const error = parsed.fieldErrors.hiddenReason?.[0] ?? 'validation.invalid';
    return data({ reviewId, error, reason: String(formData.get('hiddenReason') ?? '') }, { status: 400 });
  }
  const value = parsed.value;
  // Deleting asks first (issue 19): without JS this answer is the confirmation step.
  if (value.intent === 'delete' && formData.get('confirmed') !== 'yes') return data({ confirmDelete: value.reviewId });
  const done = await attempt(() =>
    value.intent === 'delete'
      ? deleteReview(user, value.reviewId)
      : setReviewHidden(user, value.reviewId, { isHidden: value.intent === 'hide', hiddenReason: value.intent === 'hide' ? value.hiddenReason : undefined }),
  );
  if (!done.ok) {
    return data({ reviewId: value.reviewId, error: done.error.messageKey, reason: value.intent === 'hide' ? value.hiddenReason : '' }, { status: done.error.status });
  }
  return redirectWithToast(back, { key: `reviews.admin.done.${value.intent}`, type: 'success' });
}

type ActionFailure = { reviewId: number | null; error: string; reason: string };
type ActionAnswer = ActionFailure | { confirmDelete: number };

export default function AdminReviews() {
  const { reviews, pagination, keyword } = useLoaderData<typeof loader>();
  // The action answers data on a refusal or to ask before deleting (a success redirects).
  const answer = useActionData<typeof action>() as ActionAnswer | undefined;
  const failed = answer && 'error' in answer ? answer : undefined;
  const [asking, setAsking] = useState<number | null>(null);
  const confirmDelete = asking ?? (answer && 'confirmDelete' in answer ? answer.confirmDelete : null);
  const toDelete = confirmDelete === null ? undefined : reviews.find((r) => r.id === confirmDelete);
  const navigation = useNavigation();
  const location = useLocation();
  const messages = useMessages();
  const { t, i18n } = useTranslation();
  const busy = navigation.state === 'submitting' ? `${navigation.formData?.get('intent')}:${navigation.formData?.get('reviewId')}` : null;
  const params = new URLSearchParams(keyword ? { keyword } : {});
  const action = `/admin/reviews${location.search}`;
  return (
    <div className="admin-page">
      <p className="small">
        <Link to="/admin">← {t('reviews.admin.back')}</Link>
      </p>
      <h1>{t('reviews.admin.title')}</h1>
      {toDelete ? (
        <ConfirmDialog
          title={t('reviews.admin.confirmDelete.title')}
          intent="delete"
          hidden={{ reviewId: toDelete.id }}
          action={action}
          confirmLabel={t('reviews.admin.confirmDelete.yes')}
          keepLabel={t('reviews.admin.confirmDelete.keep')}
          busyLabel={t('reviews.admin.confirmDelete.working')}
          busy={busy === `delete:${toDelete.id}`}
          onKeep={asking !== null ? () => setAsking(null) : undefined}
          testId="confirm-delete-review"
        >
          <p>{t('reviews.admin.confirmDelete.body', { reviewer: toDelete.reviewerName, reviewee: toDelete.revieweeName, rating: toDelete.rating })}</p>
        </ConfirmDialog>
      ) : null}
      <p className="muted">{t('reviews.admin.intro')}</p>
      <Form method="get" className="card admin-review-search" role="search">
        <FieldFrame id="review-keyword" label={t('reviews.admin.keyword')}>
          <input id="review-keyword" type="search" name="keyword" defaultValue={keyword} maxLength={100} />
        </FieldFrame>
        <button type="submit" className="button">
          {t('reviews.admin.search')}
        </button>
      </Form>
      <p className="small muted" aria-live="polite">
        {t('reviews.admin.total', { count: pagination.total })}
      </p>
      <ExportLink href="/api/v1/reviews/export.csv" filters={{ keyword }} />
      {reviews.length === 0 ? (
        <p className="card empty">{t('reviews.admin.empty')}</p>
      ) : (
        <ul className="admin-review-list">
          {reviews.map((r) => {
            const error = failed && failed.reviewId === r.id ? failed : null;
            const reasonId = `review-${r.id}-reason`;
            return (
              <li key={r.id} className="card admin-review">
                <h2 className="h3" id={`review-${r.id}-title`}>
                  <Link to={`/orders/${r.orderId}`}>{t('reviews.admin.order', { id: r.orderId })}</Link> <Stars rating={r.rating} />
                </h2>
                <dl className="facts">
                  <div>
                    <dt>{t('reviews.admin.reviewer')}</dt>
                    <dd>
                      {r.reviewerName} ({t(`reviews.admin.roles.${r.role}`)})
                    </dd>
                  </div>
                  <div>
                    <dt>{t('reviews.admin.reviewee')}</dt>
                    <dd>{r.revieweeName}</dd>
                  </div>
                  <div>
                    <dt>{t('reviews.admin.rating')}</dt>
                    <dd>{r.rating} / 5</dd>
                  </div>
                  <div>
                    <dt>{t('reviews.admin.comment')}</dt>
                    <dd>{r.comment ?? <span className="muted">{t('reviews.admin.noComment')}</span>}</dd>
                  </div>
                  <div>
                    <dt>{t('reviews.admin.state')}</dt>
                    <dd>
                      {r.isHidden ? (
                        <span className="review-state-hidden">
                          {t('reviews.admin.hidden')}
                          {r.hiddenReason ? ` · ${t('reviews.list.hiddenReason', { reason: r.hiddenReason })}` : ''}
                        </span>
                      ) : (
                        t('reviews.admin.visible')
                      )}
                    </dd>
                  </div>
                </dl>
                <p className="small muted">
                  <time dateTime={r.createdAt}>{formatTaipeiDate(r.createdAt, i18n.language)}</time>
                </p>
                <div className="admin-review-actions">
                  {r.isHidden ? (
                    <Form method="post" action={action}>
                      <input type="hidden" name="reviewId" value={r.id} />
                      <button type="submit" name="intent" value="unhide" className="button button-secondary" disabled={busy === `unhide:${r.id}`}>
                        {t('reviews.admin.unhide')}
                      </button>
                    </Form>
                  ) : (
                    <Form method="post" action={action}>
                      <input type="hidden" name="reviewId" value={r.id} />
                      <div className="field">
                        <label htmlFor={reasonId}>{t('reviews.admin.reason')}</label>
                        <input
                          id={reasonId}
                          name="hiddenReason"
                          type="text"
                          required
                          maxLength={REVIEW_REASON_MAX}
                          defaultValue={error?.reason ?? ''}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${reasonId}-error` : undefined}
                        />
                      </div>
                      <button type="submit" name="intent" value="hide" className="button" disabled={busy === `hide:${r.id}`}>
                        {t('reviews.admin.hide')}
                      </button>
                    </Form>
                  )}
                  <Form method="post" action={action}>
                    <input type="hidden" name="reviewId" value={r.id} />
                    <button
                      type="submit"
                      name="intent"
                      value="delete"
                      className="button button-secondary"
                      disabled={busy === `delete:${r.id}`}
                      onClick={(event) => {
                        event.preventDefault();
                        setAsking(r.id);
                      }}
                    >
                      {t('reviews.admin.delete')}
                    </button>
                  </Form>
                </div>
                {error ? (
                  <p className="field-error" id={`${reasonId}-error`} role="alert">
                    {messages([error.error])}
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      <PaginationNav page={pagination.page} totalPages={pagination.totalPages} basePath="/admin/reviews" params={params} />
    </div>
  );
}
