import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireUser } from '~/http/auth.server';
import { redirectWithToast } from '~/http/toast.server';
import { formatTaipeiDate, formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { ID_DOCUMENT_TYPES, idApplicationSchema } from '~/schemas/trust';
import { AppError, parseValue } from '~/services/errors.server';
import { applyForIdVerification, getMyIdVerification } from '~/services/id-verification.server';
import { readUploadForm, uploadedBytes } from '~/services/image-pipeline.server';

/**
 * /id-verification (SPEC §2, §4; issue 11): the state (not verified, under review, verified, or not passed
 * with the reviewer's notes), the submission time, the uploaded documents (served privately), and the
 * application form: a document type and the front and back images, a plain multipart form that works
 * without JS. A refused application re-renders with the chosen type and a translated message.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const [t, status] = await Promise.all([getFixedT(request), user.type === 'admin' ? null : getMyIdVerification(user)]);
  return { title: t('trust.idv.title'), type: user.type, status };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);
export const handle: I18nHandle = { i18n: ['trust', 'account'] };

interface ActionAnswer {
  type: string;
  formError?: string;
  fieldErrors?: Record<string, string[]>;
}

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  const fields = new Map<string, string>();
  try {
    const form = await readUploadForm(request, fields);
    const { type } = parseValue(idApplicationSchema, { type: form.get('type') ?? undefined });
    const front = await uploadedBytes(form, 'front', 'trust.idv.errors.noFront');
    const back = await uploadedBytes(form, 'back', 'trust.idv.errors.noBack');
    await applyForIdVerification(user, { type, front, back });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const t = await getFixedT(request);
    const fieldErrors = error.fieldErrors
      ? Object.fromEntries(Object.entries(error.fieldErrors).map(([k, keys]) => [k, keys.map((key) => t(key))]))
      : undefined;
    return data<ActionAnswer>(
      { type: fields.get('type') ?? '', formError: fieldErrors ? undefined : t(error.messageKey, error.params), fieldErrors },
      { status: error.status },
    );
  }
  return redirectWithToast('/id-verification', { key: 'trust.idv.submitted', type: 'success' });
}

export default function IdVerificationPage() {
  const { type, status } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as ActionAnswer | undefined;
  const { t, i18n } = useTranslation();
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' && navigation.formAction === '/id-verification';
  const locale = i18n.language;

  if (!status) {
    return (
      <section className="card trust-page" aria-labelledby="idv-title">
        <h1 id="idv-title">{t('trust.idv.title')}</h1>
        <p>{t('trust.idv.adminNote')}</p>
        <Link to="/admin/id-verification" className="button">
          {t('account.admin.links.idVerification')}
        </Link>
      </section>
    );
  }

  const application = status.application;
  const canApply = status.state === 'not_verified' || status.state === 'rejected';
  const errorOf = (field: string) => answer?.fieldErrors?.[field]?.[0];
  return (
    <div className="trust-page">
      <section className="card" aria-labelledby="idv-title">
        <h1 id="idv-title">{t('trust.idv.title')}</h1>
        <p>{t(type === 'traveler' ? 'trust.idv.travelerIntro' : 'trust.idv.intro')}</p>
        <dl className="idv-state">
          <dt>{t('trust.idv.state.label')}</dt>
          <dd>
            <span className={`badge idv-badge idv-${status.state}`} data-testid="idv-state">
              {t(`trust.idv.state.${status.state}`)}
            </span>
          </dd>
          {status.state === 'verified' && status.idVerificationDate && (
            <>
              <dt className="visually-hidden">{t('trust.idv.state.verified')}</dt>
              <dd className="small muted">
                {t('trust.idv.verifiedAt', { date: formatTaipeiDate(status.idVerificationDate, locale) })}
                {status.idVerificationType && (
                  <> · {t('trust.idv.verifiedType', { type: t(`trust.idv.types.${status.idVerificationType}`, { defaultValue: status.idVerificationType }) })}</>
                )}
              </dd>
            </>
          )}
          {status.submittedAt && status.state !== 'verified' && (
            <>
              <dt className="visually-hidden">{t('trust.idv.submittedAt', { date: '' })}</dt>
              <dd className="small muted">{t('trust.idv.submittedAt', { date: formatTaipeiDateTime(status.submittedAt, locale) })}</dd>
            </>
          )}
        </dl>
        {status.state === 'pending' && <p className="notice-card">{t('trust.idv.pendingHint')}</p>}
        {status.state === 'rejected' && status.reviewNotes && (
          <div className="notice-card idv-notes" role="note">
            <p>
              <strong>{t('trust.idv.reviewNotes')}</strong>
              <span data-testid="idv-notes">{status.reviewNotes}</span>
            </p>
            <a href="#idv-form" className="button button-small">
              {t('trust.idv.verifyAgain')}
            </a>
          </div>
        )}
        {application && application.status !== 'approved' && (application.documents.front || application.documents.back) && (
          <section aria-labelledby="idv-docs">
            <h2 id="idv-docs">{t('trust.idv.documents')}</h2>
            <div className="idv-docs">
              {(['front', 'back'] as const).map((side) =>
                application.documents[side] ? (
                  <figure key={side}>
                    <img
                      src={application.documents[side]!}
                      alt={t('trust.idv.documentAlt', { side: t(`trust.idv.${side}`), id: application.id })}
                      loading="lazy"
                      width={300}
                      height={190}
                    />
                    <figcaption className="small muted">{t(`trust.idv.${side}`)}</figcaption>
                  </figure>
                ) : null,
              )}
            </div>
          </section>
        )}
      </section>

      {canApply && (
        <section className="card" aria-labelledby="idv-form-title" id="idv-form">
          <h2 id="idv-form-title">{status.state === 'rejected' ? t('trust.idv.verifyAgain') : t('trust.idv.formTitle')}</h2>
          <Form method="post" encType="multipart/form-data" className="form" noValidate={false}>
            {answer?.formError && (
              <p className="form-error" role="alert">
                {answer.formError}
              </p>
            )}
            <div className="field">
              <label htmlFor="idv-type">{t('trust.idv.type')}</label>
              <select
                id="idv-type"
                name="type"
                required
                defaultValue={answer?.type ?? ''}
                aria-invalid={errorOf('type') ? true : undefined}
                aria-describedby={errorOf('type') ? 'idv-type-error' : undefined}
              >
                <option value="" disabled>
                  {t('trust.idv.chooseType')}
                </option>
                {ID_DOCUMENT_TYPES.map((v) => (
                  <option key={v} value={v}>
                    {t(`trust.idv.types.${v}`)}
                  </option>
                ))}
              </select>
              {errorOf('type') && (
                <p id="idv-type-error" className="field-error">
                  {errorOf('type')}
                </p>
              )}
            </div>
            {(['front', 'back'] as const).map((side) => (
              <div className="field" key={side}>
                <label htmlFor={`idv-${side}`}>{t(`trust.idv.${side}`)}</label>
                <input
                  id={`idv-${side}`}
                  type="file"
                  name={side}
                  accept="image/jpeg,image/png,image/webp"
                  required
                  aria-invalid={errorOf(side) ? true : undefined}
                  aria-describedby={`idv-${side}-hint${errorOf(side) ? ` idv-${side}-error` : ''}`}
                />
                <p id={`idv-${side}-hint`} className="field-hint">
                  {t('trust.idv.fileHint')}
                </p>
                {errorOf(side) && (
                  <p id={`idv-${side}-error`} className="field-error">
                    {errorOf(side)}
                  </p>
                )}
              </div>
            ))}
            <div className="form-actions">
              <button type="submit" className="button" disabled={submitting}>
                {submitting ? t('trust.idv.submitting') : t('trust.idv.submit')}
              </button>
            </div>
          </Form>
        </section>
      )}
    </div>
  );
}
