import { getFormProps } from '@conform-to/react';
import { Form } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { Field, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { FieldFrame } from '~/components/forms/field-frame';
import { FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { Markdown } from '~/components/markdown';
import { LOCALE_NAMES, SUPPORTED_LOCALES, type Locale } from '~/i18n/config';
import { TERMS_KINDS, type TermsKind } from '~/lib/terms';
import { publishAllTermsSchema, publishTermsSchema, type PublishAllTermsInput, type PublishTermsInput } from '~/schemas/terms';

/** /admin/terms's publishing (issue 35): choose what to change, edit from its current text, preview, confirm. */

export interface StartingPoint {
  kind: TermsKind;
  locale: Locale;
  from: Locale;
  title: string;
  content: string;
  currentVersion: string | null;
}

export interface Preview {
  kind: TermsKind;
  version: string;
  /** One language, or the three at once. */
  locale: Locale | 'all';
  texts: { locale: Locale; title: string; content: string }[];
  fingerprint: string;
  askedAgain: Locale[];
}

/** A GET form: which kind and language to start from (the page loads its current text). */
export function StartChooser({ kind, locale }: { kind: TermsKind; locale: Locale | 'all' }) {
  const { t } = useTranslation();
  return (
    <Form method="get" className="stack terms-start" aria-label={t('terms.admin.startFrom')}>
      <FieldFrame id="terms-start-kind" label={t('terms.admin.kindLabel')}>
        <select id="terms-start-kind" name="kind" defaultValue={kind}>
          {TERMS_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {t(`terms.admin.kind.${kind}`)}
            </option>
          ))}
        </select>
      </FieldFrame>
      <FieldFrame id="terms-start-locale" label={t('terms.admin.locale')}>
        <select id="terms-start-locale" name="locale" defaultValue={locale}>
          {SUPPORTED_LOCALES.map((l) => (
            <option key={l} value={l}>
              {LOCALE_NAMES[l]}
            </option>
          ))}
          <option value="all">{t('terms.admin.allLanguages')}</option>
        </select>
      </FieldFrame>
      <div>
        <button type="submit" className="button button-secondary">
          {t('terms.admin.load')}
        </button>
      </div>
    </Form>
  );
}

/** The draft: kind and language fixed by the chooser; version, title and text, starting from the current ones. */
export function PublishForm({ start, lastResult, busy }: { start: StartingPoint; lastResult: Parameters<typeof useSchemaForm>[0]['lastResult']; busy: boolean }) {
  const { t } = useTranslation();
  const [form, fields] = useSchemaForm<PublishTermsInput>({
    id: 'publish-terms',
    schema: publishTermsSchema,
    lastResult,
    defaultValue: { kind: start.kind, locale: start.locale, title: start.title, content: start.content },
  });
  return (
    <Form method="post" action={`/admin/terms?kind=${start.kind}&locale=${start.locale}`} {...getFormProps(form)} className="stack">
      <FormErrors form={form} />
      <p className="muted" data-testid="terms-started-from">
        {t(`terms.admin.kind.${start.kind}`)} · {LOCALE_NAMES[start.locale]}
        {start.currentVersion ? ` · ${t('terms.admin.startedFrom', { language: LOCALE_NAMES[start.from], version: start.currentVersion })}` : ''}
      </p>
      {start.kind === 'terms' && start.from !== start.locale ? <p className="notice">{t('terms.admin.untranslatedNote')}</p> : null}
      <input type="hidden" name="kind" value={start.kind} />
      <input type="hidden" name="locale" value={start.locale} />
      <Field field={fields.version} label={t('terms.admin.version')} hint={t('terms.admin.versionHint')} inputMode="decimal" autoComplete="off" />
      <Field field={fields.title} label={t('terms.admin.titleField')} autoComplete="off" />
      <TextareaField field={fields.content} label={t('terms.admin.content')} rows={14} lang={start.locale} />
      <div className="terms-buttons">
        <SubmitButton busy={busy} name="intent" value="preview" label={t('terms.admin.preview')} busyLabel={t('terms.modal.processing')} />
      </div>
    </Form>
  );
}

/** The same version in the three languages at once: a title and a text per language, each from its current one. */
export function PublishAllForm({ starts, lastResult, busy }: { starts: StartingPoint[]; lastResult: Parameters<typeof useSchemaForm>[0]['lastResult']; busy: boolean }) {
  const { t } = useTranslation();
  const kind = starts[0]!.kind;
  const [form, fields] = useSchemaForm<PublishAllTermsInput>({
    id: 'publish-terms',
    schema: publishAllTermsSchema,
    lastResult,
    defaultValue: { kind, locale: 'all', texts: starts.map((s) => ({ locale: s.locale, title: s.title, content: s.content })) },
  });
  return (
    <Form method="post" action={`/admin/terms?kind=${kind}&locale=all`} {...getFormProps(form)} className="stack">
      <FormErrors form={form} />
      <p className="muted" data-testid="terms-started-from">
        {t(`terms.admin.kind.${kind}`)} · {t('terms.admin.allLanguages')}
      </p>
      <input type="hidden" name="kind" value={kind} />
      <input type="hidden" name="locale" value="all" />
      <Field field={fields.version} label={t('terms.admin.version')} hint={t('terms.admin.versionHint')} inputMode="decimal" autoComplete="off" />
      {fields.texts.getFieldList().map((item, index) => {
        const text = item.getFieldset();
        const start = starts[index]!;
        return (
          <fieldset key={item.key} className="stack terms-language">
            <legend>{LOCALE_NAMES[start.locale]}</legend>
            {start.currentVersion ? <p className="muted small">{t('terms.admin.startedFrom', { language: LOCALE_NAMES[start.from], version: start.currentVersion })}</p> : null}
            <input type="hidden" name={text.locale.name} value={start.locale} />
            <Field field={text.title} label={t('terms.admin.titleField')} autoComplete="off" />
            <TextareaField field={text.content} label={t('terms.admin.content')} rows={10} lang={start.locale} />
          </fieldset>
        );
      })}
      <div className="terms-buttons">
        <SubmitButton busy={busy} name="intent" value="preview" label={t('terms.admin.preview')} busyLabel={t('terms.modal.processing')} />
      </div>
    </Form>
  );
}

/** The draft as the users will see it, what publishing does, and the confirmation (it posts the form again). */
export function PreviewAndConfirm({ preview, busy }: { preview: Preview; busy: boolean }) {
  const { t } = useTranslation();
  const languages = preview.askedAgain.map((l) => LOCALE_NAMES[l]).join('、');
  return (
    <>
      <section className="card terms-preview" aria-labelledby="terms-preview-title">
        <h2 id="terms-preview-title">{t('terms.admin.previewLead')}</h2>
        {preview.texts.map((text) => (
          <div key={text.locale} className="terms-agreement" lang={text.locale}>
            <h3>{text.title}</h3>
            <div className="terms-scroll" tabIndex={0} role="region" aria-label={`${text.title} (${LOCALE_NAMES[text.locale]})`}>
              <Markdown>{text.content}</Markdown>
            </div>
          </div>
        ))}
      </section>
      <section className="card terms-confirm" aria-labelledby="terms-confirm-title" data-testid="terms-confirm">
        <h2 id="terms-confirm-title">{t('terms.admin.confirmTitle')}</h2>
        <p>
          <strong>
            {t(`terms.admin.kind.${preview.kind}`)} {preview.version} · {preview.locale === 'all' ? t('terms.admin.allLanguages') : LOCALE_NAMES[preview.locale]}
          </strong>
        </p>
        <p role="status">{preview.askedAgain.length ? t('terms.admin.consequenceTerms', { language: languages }) : t('terms.admin.consequenceOther')}</p>
        <input type="hidden" form="publish-terms" name="confirmed" value={preview.fingerprint} />
        <div className="terms-buttons">
          <a className="button button-secondary" href="#publish-terms">
            {t('terms.admin.edit')}
          </a>
          <button type="submit" form="publish-terms" name="intent" value="publish" className="button" disabled={busy}>
            {busy ? t('terms.modal.processing') : t('terms.admin.confirmPublish')}
          </button>
        </div>
      </section>
    </>
  );
}
