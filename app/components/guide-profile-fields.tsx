import { getCollectionProps, getInputProps, getSelectProps, getTextareaProps, type FieldMetadata } from '@conform-to/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CITY_CODES } from '~/lib/cities';
import { LANGUAGE_CODES } from '~/lib/languages';

/**
 * The four fields only guides have (city, service languages, daily price, introduction), used by
 * registration and by the profile editor so both ask the same way (SPEC §5 guide profile rules).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- each form types its own fields (price is a string in one, a number in the other) */
interface GuideFieldSet {
  city: FieldMetadata<any, any, string[]>;
  language: FieldMetadata<any, any, string[]>;
  price: FieldMetadata<any, any, string[]>;
  description: FieldMetadata<any, any, string[]>;
}

/** The optional headline and the English and Japanese texts (the profile form; registration asks for them later). */
interface TranslationFieldSet {
  headline: FieldMetadata<any, any, string[]>;
  headlineEn: FieldMetadata<any, any, string[]>;
  headlineJa: FieldMetadata<any, any, string[]>;
  descriptionEn: FieldMetadata<any, any, string[]>;
  descriptionJa: FieldMetadata<any, any, string[]>;
}

export function GuideProfileFields({
  fields,
  legend,
  className,
  renderError,
  translations,
}: {
  fields: GuideFieldSet;
  translations?: TranslationFieldSet;
  legend: string;
  className?: string;
  renderError: (field: { errors?: string[]; errorId: string }) => ReactNode;
}) {
  const { t } = useTranslation();
  const describedBy = (field: { errors?: string[]; errorId: string; id: string }, hint: boolean) =>
    [field.errors ? field.errorId : null, hint ? `${field.id}-hint` : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset className={className}>
      <legend>{legend}</legend>
      <div className="field">
        <label htmlFor={fields.city.id}>{t('guideFields.city')}</label>
        <select {...getSelectProps(fields.city)} key={fields.city.key} aria-describedby={describedBy(fields.city, false)}>
          <option value="">{t('guideFields.cityPlaceholder')}</option>
          {CITY_CODES.map((code) => (
            <option key={code} value={code}>
              {t(`cities.${code}`)}
            </option>
          ))}
        </select>
        {renderError(fields.city)}
      </div>
      <fieldset className="field" aria-describedby={fields.language.errors ? fields.language.errorId : undefined}>
        <legend className="label-text">{t('guideFields.language')}</legend>
        <div className="checkbox-group">
          {getCollectionProps(fields.language, { type: 'checkbox', options: [...LANGUAGE_CODES] }).map(({ key, ...props }) => (
            <label key={key}>
              <input {...props} />
              {t(`languages.${props.value}`)}
            </label>
          ))}
        </div>
        {renderError(fields.language)}
      </fieldset>
      <div className="field">
        <label htmlFor={fields.price.id}>{t('guideFields.price')}</label>
        <input
          {...getInputProps(fields.price, { type: 'number' })}
          key={fields.price.key}
          inputMode="numeric"
          step={1}
          aria-describedby={describedBy(fields.price, true)}
        />
        <p className="field-hint" id={`${fields.price.id}-hint`}>
          {t('guideFields.priceHint')}
        </p>
        {renderError(fields.price)}
      </div>
      <div className="field">
        <label htmlFor={fields.description.id}>{t('guideFields.description')}</label>
        <textarea
          {...getTextareaProps(fields.description)}
          key={fields.description.key}
          rows={5}
          aria-describedby={describedBy(fields.description, true)}
        />
        <p className="field-hint" id={`${fields.description.id}-hint`}>
          {t('guideFields.descriptionHint')}
        </p>
        {renderError(fields.description)}
      </div>
      {translations && (
        <>
          <div className="field">
            <label htmlFor={translations.headline.id}>{t('search.profileFields.headline')}</label>
            <input {...getInputProps(translations.headline, { type: 'text' })} key={translations.headline.key} maxLength={80} />
            {renderError(translations.headline)}
          </div>
          <fieldset className="field translation-fields" aria-describedby="guide-translations-hint">
            <legend className="label-text">{t('search.profileFields.translations')}</legend>
            <p className="field-hint" id="guide-translations-hint">
              {t('search.profileFields.translationsHint')}
            </p>
            {(['En', 'Ja'] as const).map((suffix) => {
              const headline = translations[`headline${suffix}`];
              const description = translations[`description${suffix}`];
              const lang = suffix === 'En' ? 'en' : 'ja';
              return (
                <div key={suffix} className="translation-group">
                  <div className="field">
                    <label htmlFor={headline.id}>{t(`search.profileFields.headline${suffix}`)}</label>
                    <input {...getInputProps(headline, { type: 'text' })} key={headline.key} lang={lang} maxLength={80} />
                    {renderError(headline)}
                  </div>
                  <div className="field">
                    <label htmlFor={description.id}>{t(`search.profileFields.description${suffix}`)}</label>
                    <textarea {...getTextareaProps(description)} key={description.key} lang={lang} rows={4} />
                    {renderError(description)}
                  </div>
                </div>
              );
            })}
          </fieldset>
        </>
      )}
    </fieldset>
  );
}
