import type { FieldMetadata } from '@conform-to/react';
import { useTranslation } from 'react-i18next';
import { CITY_CODES } from '~/lib/cities';
import { LANGUAGE_CODES } from '~/lib/languages';
import { ChoiceGroup, Field, SelectField, TextareaField } from '~/components/forms/fields';

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

export function GuideProfileFields({ fields, legend, className }: { fields: GuideFieldSet; legend: string; className?: string }) {
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
      <TextareaField field={fields.description} label={t('guideFields.description')} hint={t('guideFields.descriptionHint')} rows={5} />
    </fieldset>
  );
}
