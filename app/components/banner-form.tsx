import { getFormProps, getInputProps, type SubmissionResult } from '@conform-to/react';
import { Form, useNavigation } from '@remix-run/react';
import { useTranslation } from 'react-i18next';
import { BannerCard } from '~/components/banner-card';
import { Field, SubmitButton, TextareaField } from '~/components/forms/form-fields';
import { ErrorList, FormErrors } from '~/components/forms/messages';
import { useSchemaForm } from '~/components/forms/use-schema-form';
import { LOCALE_NAMES, SUPPORTED_LOCALES, type Locale } from '~/i18n/config';
import { BANNER_LINK_MAX, BANNER_SUBTITLE_MAX, BANNER_TITLE_MAX, bannerInputSchema, type BannerView } from '~/schemas/banners';

export type BannerFormValues = Partial<Record<'title' | 'titleEn' | 'titleJa' | 'subtitle' | 'subtitleEn' | 'subtitleJa' | 'linkUrl' | 'isActive' | 'startsAt' | 'endsAt' | 'imageKey', string>>;

export interface BannerFormAnswer {
  result: SubmissionResult<string[]>;
  preview: Record<Locale, BannerView> | null;
}

const TEXT_FIELDS = [
  ['zh-TW', 'title', 'subtitle'],
  ['en', 'titleEn', 'subtitleEn'],
  ['ja', 'titleJa', 'subtitleJa'],
] as const;

/**
 * The banner form (new and edit, issue 22): the text in three languages, the link, the picture, the switch and
 * the window. A plain multipart form: "preview" posts it and the page comes back with every value kept and the
 * banner drawn as the home page shows it (the picture, once chosen, is kept by its stored key); "save" publishes.
 */
export function BannerForm({
  id,
  action,
  defaultValue,
  currentImageUrl,
  answer,
  saveLabel,
}: {
  id: string;
  action: string;
  defaultValue: BannerFormValues;
  currentImageUrl: string | null;
  answer: BannerFormAnswer | undefined;
  saveLabel: string;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const [form, fields] = useSchemaForm<BannerFormValues & { image: string }>({ id, schema: bannerInputSchema, lastResult: answer?.result, defaultValue });
  const busy = navigation.state !== 'idle' && navigation.formAction === action ? String(navigation.formData?.get('intent')) : null;
  const preview = answer?.preview ?? null;
  const imageKey = fields.imageKey.value ?? defaultValue.imageKey;
  // The picture the form holds now: the one a preview stored, else the banner's own.
  const imageNote = imageKey ? (imageKey === defaultValue.imageKey && currentImageUrl ? t('banners.form.imageCurrent') : t('banners.form.imageFromPreview')) : null;
  return (
    <>
      <Form method="post" action={action} encType="multipart/form-data" {...getFormProps(form)} className="stack banner-form">
        <FormErrors form={form} />
        {TEXT_FIELDS.map(([locale, title, subtitle]) => (
          <fieldset key={locale} className="banner-language" lang={locale}>
            <legend>{LOCALE_NAMES[locale]}</legend>
            <Field
              field={fields[title]}
              label={locale === 'zh-TW' ? t('banners.form.titleRequired') : t('banners.form.title')}
              hint={locale === 'zh-TW' ? undefined : t('banners.form.fallbackHint')}
              maxLength={BANNER_TITLE_MAX}
              autoComplete="off"
            />
            <TextareaField field={fields[subtitle]} label={t('banners.form.subtitle')} rows={2} maxLength={BANNER_SUBTITLE_MAX} />
          </fieldset>
        ))}
        <Field field={fields.linkUrl} label={t('banners.form.link')} hint={t('banners.form.linkHint')} maxLength={BANNER_LINK_MAX} autoComplete="off" inputMode="url" spellCheck={false} />
        <div className="banner-image-field">
          <Field field={fields.image} type="file" label={t('banners.form.image')} hint={t('banners.form.imageHint')} accept="image/jpeg,image/png,image/webp" />
          <input type="hidden" name="imageKey" value={imageKey ?? ''} />
          <ErrorList id={`${fields.imageKey.id}-error`} errors={fields.imageKey.errors} />
          {imageNote ? (
            <p className="small" data-testid="banner-image-kept">
              {imageNote}{' '}
              <label className="inline-check">
                <input type="checkbox" name="removeImage" /> {t('banners.form.removeImage')}
              </label>
            </p>
          ) : null}
        </div>
        <label className="inline-check banner-active">
          <input {...getInputProps(fields.isActive, { type: 'checkbox' })} key={fields.isActive.key} /> {t('banners.form.active')}
        </label>
        <div className="banner-window">
          <Field field={fields.startsAt} type="datetime-local" label={t('banners.form.startsAt')} hint={t('banners.form.windowHint')} />
          <Field field={fields.endsAt} type="datetime-local" label={t('banners.form.endsAt')} />
        </div>
        <div className="terms-buttons">
          <SubmitButton busy={busy === 'preview'} name="intent" value="preview" label={t('banners.form.preview')} busyLabel={t('banners.form.working')} className="button button-secondary" />
          <SubmitButton busy={busy === 'save'} name="intent" value="save" label={saveLabel} busyLabel={t('banners.form.working')} />
        </div>
      </Form>
      {preview ? (
        <section className="card banner-preview" aria-labelledby="banner-preview-title" data-testid="banner-preview">
          <h2 id="banner-preview-title">{t('banners.form.previewTitle')}</h2>
          <p className="muted small">{t('banners.form.previewNote')}</p>
          <div className="banners banner-preview-grid">
            {SUPPORTED_LOCALES.map((locale) => (
              <figure key={locale} className="banner-preview-item" lang={locale}>
                <figcaption className="small">{LOCALE_NAMES[locale]}</figcaption>
                <BannerCard banner={preview[locale]} eager preview />
              </figure>
            ))}
          </div>
        </section>
      ) : null}
    </>
  );
}
