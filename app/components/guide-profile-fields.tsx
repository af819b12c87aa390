import type { FieldMetadata } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { CITY_CODES } from '~/lib/city-codes';
import { GROUP_SIZE_MAX, GROUP_SIZE_MIN } from '~/lib/group-size';
import { LANGUAGE_CODES } from '~/lib/language-codes';
import { ChoiceGroup, Field, SelectField, TextareaField } from './forms/form-fields';

/**
 * The fields only guides have (city, service languages, price per slot, maximum group size, introduction), used by
 * registration and by the profile editor so both ask the same way (SPEC §5 guide profile rules).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- each form types its own fields (price is a string in one, a number in the other) */
interface GuideFieldSet {
  city: FieldMetadata<any, any, string[]>;
  language: FieldMetadata<any, any, string[]>;
  price: FieldMetadata<any, any, string[]>;
  maxGroupSize: FieldMetadata<any, any, string[]>;
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
  translations,
  legend,
  className,
}: {
  fields: GuideFieldSet;
  translations?: TranslationFieldSet;
  legend: string;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className={className}>
      <legend>{legend}</legend>
      <SelectField
        field={fields.city}
        label={t('guideFields.city')}
        placeholder={t('guideFields.cityPlaceholder')}
        options={CITY_CODES.map((code) => ({ value: code, label: t(`cities.${code}`) }))}
      />
      <ChoiceGroup
        field={fields.language}
        type="checkbox"
        legend={t('guideFields.language')}
        options={LANGUAGE_CODES.map((code) => ({ value: code, label: t(`languages.${code}`) }))}
      />
      <Field field={fields.price} type="number" label={t('guideFields.price')} hint={t('guideFields.priceHint')} inputMode="numeric" step={1} />
      <Field
        field={fields.maxGroupSize}
        type="number"
        label={t('guideFields.maxGroupSize')}
        hint={t('guideFields.maxGroupSizeHint')}
        inputMode="numeric"
        min={GROUP_SIZE_MIN}
        max={GROUP_SIZE_MAX}
        step={1}
      />
      <TextareaField field={fields.description} label={t('guideFields.description')} hint={t('guideFields.descriptionHint')} rows={5} />
      {translations && (
        <>
          <Field field={translations.headline} label={t('search.profileFields.headline')} maxLength={80} />
          <fieldset className="field translation-fields" aria-describedby="guide-translations-hint">
            <legend className="label-text">{t('search.profileFields.translations')}</legend>
            <p className="field-hint" id="guide-translations-hint">
              {t('search.profileFields.translationsHint')}
            </p>
            {(['En', 'Ja'] as const).map((suffix) => {
              const lang = suffix === 'En' ? 'en' : 'ja';
              return (
                <div key={suffix} className="translation-group">
                  <Field field={translations[`headline${suffix}`]} label={t(`search.profileFields.headline${suffix}`)} lang={lang} maxLength={80} />
                  <TextareaField field={translations[`description${suffix}`]} label={t(`search.profileFields.description${suffix}`)} lang={lang} rows={4} />
                </div>
              );
            })}
          </fieldset>
        </>
      )}
    </fieldset>
  );
}
