import { getFormProps } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod/v4';
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { AdminPageHead } from '~/components/admin';
import { Field, SelectField, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { Markdown } from '~/components/markdown';
import { requireRole } from '~/http/session.server';
import { replyWithError } from '~/http/forms.server';
import { readForm } from '~/http/page.server';
import { redirectWithToast } from '~/http/toast.server';
import type { I18nHandle } from '~/i18n/bundles';
import { LOCALE_NAMES, SUPPORTED_LOCALES } from '~/i18n/config';
import { getFixedT } from '~/i18n/i18n.server';
import { formatTaipeiDateTime } from '~/lib/dates';
import { pageMeta } from '~/lib/meta';
import { TERMS_KINDS } from '~/lib/terms';
import { publishTermsSchema, type PublishTermsInput } from '~/schemas/terms';
import { listTermsVersions, publishTerms } from '~/services/terms.server';

/**
 * /admin/terms (issue 22): the terms, privacy policy and booking terms in each language as versions. A new
 * version is written in markdown, previewed (with JS off a preview step) and published: it becomes the active
 * one of its kind and language, audited in the same transaction; a new terms of service makes everyone agree again.
 */
export const handle: I18nHandle = { i18n: ['terms', 'account', 'trust'] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, 'admin');
  const [versions, t] = await Promise.all([listTermsVersions(), getFixedT(request)]);
  return { versions, title: t('terms.admin.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => pageMeta(matches, data?.title);

export async function action({ request }: ActionFunctionArgs) {
  const { user } = await requireRole(request, 'admin');
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: publishTermsSchema });
  if (submission.status !== 'success') return data({ result: submission.reply(), preview: null }, { status: 400 });
  if (formData.get('intent') === 'preview') return data({ result: submission.reply(), preview: submission.value.content });
  try {
    await publishTerms(user, submission.value);
  } catch (error) {
    return replyWithError(request, submission, error);
  }
  const t = await getFixedT(request);
  return redirectWithToast('/admin/terms', {
    key: 'terms.admin.published',
    type: 'success',
    params: { kind: t(`terms.admin.kind.${submission.value.kind}`), version: submission.value.version },
  });
}

export default function AdminTerms() {
  const { versions } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const navigation = useNavigation();
  const { t, i18n } = useTranslation();
  const [form, fields] = useSchemaForm<PublishTermsInput>({ id: 'publish-terms', schema: publishTermsSchema, lastResult: answer?.result, defaultValue: { kind: 'terms', locale: 'zh-TW' } });
  const preview = answer && 'preview' in answer ? answer.preview : null;
  const busy = navigation.state !== 'idle' && navigation.formAction === '/admin/terms';
  const active = versions.filter((v) => v.isActive);
  return (
    <div className="admin-page admin-terms">
      <AdminPageHead title={t('terms.admin.title')} intro={t('terms.admin.lead')} />

      <h2>{t('terms.admin.active')}</h2>
      <div className="card admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('terms.admin.kindLabel')}</th>
              {SUPPORTED_LOCALES.map((locale) => (
                <th key={locale} scope="col" lang={locale}>
                  {LOCALE_NAMES[locale]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {TERMS_KINDS.map((kind) => (
              <tr key={kind}>
                <th scope="row">{t(`terms.admin.kind.${kind}`)}</th>
                {SUPPORTED_LOCALES.map((locale) => {
                  const row = active.find((v) => v.kind === kind && v.locale === locale);
                  return <td key={locale}>{row ? `${row.version} · ${row.title}` : t('terms.admin.none')}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>{t('terms.admin.newVersion')}</h2>
      <Form method="post" {...getFormProps(form)} className="stack">
        <FormErrors form={form} />
        <SelectField field={fields.kind} label={t('terms.admin.kindLabel')} options={TERMS_KINDS.map((kind) => ({ value: kind, label: t(`terms.admin.kind.${kind}`) }))} />
        <SelectField field={fields.locale} label={t('terms.admin.locale')} options={SUPPORTED_LOCALES.map((locale) => ({ value: locale, label: LOCALE_NAMES[locale] }))} />
        <Field field={fields.version} label={t('terms.admin.version')} hint={t('terms.admin.versionHint')} inputMode="decimal" autoComplete="off" />
        <Field field={fields.title} label={t('terms.admin.titleField')} autoComplete="off" />
        <TextareaField field={fields.content} label={t('terms.admin.content')} rows={14} />
        <div className="terms-buttons">
          <SubmitButton busy={false} name="intent" value="preview" label={t('terms.admin.preview')} className="button button-secondary" />
          <SubmitButton busy={busy} name="intent" value="publish" label={t('terms.admin.publish')} busyLabel={t('terms.modal.processing')} />
        </div>
      </Form>
      {preview ? (
        <section className="card terms-preview" aria-labelledby="terms-preview-title">
          <h2 id="terms-preview-title">{t('terms.admin.preview')}</h2>
          <Markdown>{preview}</Markdown>
        </section>
      ) : null}

      <h2>{t('terms.admin.history')}</h2>
      <div className="card admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">{t('terms.admin.kindLabel')}</th>
              <th scope="col">{t('terms.admin.locale')}</th>
              <th scope="col">{t('terms.admin.version')}</th>
              <th scope="col">{t('terms.admin.titleField')}</th>
              <th scope="col">{t('terms.admin.createdAt')}</th>
              <th scope="col">{t('terms.admin.agreements')}</th>
            </tr>
          </thead>
          <tbody>
            {versions.map((v) => (
              <tr key={v.id} data-testid="terms-version">
                <td>{t(`terms.admin.kind.${v.kind}`)}</td>
                <td>{LOCALE_NAMES[v.locale]}</td>
                <td>
                  {v.version}
                  {v.isActive ? ` (${t('terms.admin.active')})` : ''}
                </td>
                <td>{v.title}</td>
                <td>{formatTaipeiDateTime(v.createdAt, i18n.language)}</td>
                <td>{v.kind === 'terms' ? v.agreements : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
