import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, SelectField, SubmitButton } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { IdDocuments } from '~/components/id-documents';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { requireUser } from '~/http/session.server';
import { attempt, replyWithError } from '~/http/forms.server';
import { redirectWithToast } from '~/http/toast.server';
import { formatTaipeiDate, formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { ID_DOCUMENT_TYPES, idApplicationFormSchema, idApplicationSchema } from '~/schemas/trust';
import { applyForIdVerification, getMyIdVerification } from '~/services/trust/id-verification.server';
import { readUploadForm, uploadedBytes } from '~/services/platform/image-pipeline.server';

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

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireUser(request);
  // The reply echoes the typed values only: the files stay out of it (a browser never refills a file input).
  const typed = new Map<string, string>();
  const typedForm = () => {
    const form = new FormData();
    for (const [k, v] of typed) form.set(k, v);
    return form;
  };
  const read = await attempt(() => readUploadForm(request, typed));
  if (!read.ok) return replyWithError(request, parseWithZod(typedForm(), { schema: idApplicationSchema }), read.error);
  const form = read.value;
  const submission = parseWithZod(typedForm(), { schema: idApplicationSchema });
  const front = await attempt(() => uploadedBytes(form, 'front', 'trust.idv.errors.noFront'));
  const back = await attempt(() => uploadedBytes(form, 'back', 'trust.idv.errors.noBack'));
  // A missing file's field error (uploadedBytes refuses with one) joins the form's own.
  const missing = { ...(front.ok ? {} : front.error.fieldErrors), ...(back.ok ? {} : back.error.fieldErrors) };
  if (submission.status !== 'success' || !front.ok || !back.ok) {
    const fieldErrors = { ...(submission.status === 'success' ? {} : submission.error), ...missing } as Record<string, string[]>;
    return data({ result: submission.reply({ fieldErrors }) }, { status: 400 });
  }
  const applied = await attempt(() => applyForIdVerification(user, { type: submission.value.type, front: front.value, back: back.value }));
  if (!applied.ok) return replyWithError(request, submission, applied.error);
  return redirectWithToast('/id-verification', { key: 'trust.idv.submitted', type: 'success' });
}

export default function IdVerificationPage() {
  const { type, status } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useSchemaForm<{ type: string; front: File; back: File }>({
    id: 'idv-application',
    schema: idApplicationFormSchema,
    lastResult: actionData?.result,
  });
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
            <IdDocuments applicationId={application.id} documents={application.documents} className="idv-docs" width={300} height={190} />
          </section>
        )}
      </section>

      {canApply && (
        <section className="card" aria-labelledby="idv-form-title" id="idv-form">
          <h2 id="idv-form-title">{status.state === 'rejected' ? t('trust.idv.verifyAgain') : t('trust.idv.formTitle')}</h2>
          <Form method="post" encType="multipart/form-data" className="form" {...getFormProps(form)}>
            <FormErrors form={form} />
            <SelectField
              field={fields.type}
              label={t('trust.idv.type')}
              placeholder={t('trust.idv.chooseType')}
              options={ID_DOCUMENT_TYPES.map((v) => ({ value: v, label: t(`trust.idv.types.${v}`) }))}
            />
            {(['front', 'back'] as const).map((side) => (
              <Field
                key={side}
                type="file"
                field={fields[side]}
                label={t(`trust.idv.${side}`)}
                hint={t('trust.idv.fileHint')}
                accept="image/jpeg,image/png,image/webp"
                required
              />
            ))}
            <div className="form-actions">
              <SubmitButton busy={submitting} label={t('trust.idv.submit')} busyLabel={t('trust.idv.submitting')} />
            </div>
          </Form>
        </section>
      )}
    </div>
  );
}
