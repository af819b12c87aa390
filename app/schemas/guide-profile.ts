import { z } from 'zod';
import type { ProfileTranslations } from '~/lib/localized-profile';
import { blank, cityField, descriptionField, languagesField, maxGroupSizeField, priceField, textField } from './field-rules';

/**
 * A guide's public profile (SPEC §5 guide profile save; issue 9 guides in the reader's language): city, service
 * languages, the price (one booked slot for the whole group) and the 中文 description are required; the maximum
 * group size (absent keeps the current one, docs/decisions/016-group-size.md), a one-line headline and the English
 * and Japanese headline and description are optional. The /me profile form (with name, email and bio, app/schemas/profile.ts)
 * and PUT /api/v1/guides/{id}/profile read these fields alike and save them through the same service.
 */
export const HEADLINE_MAX = 80;
export const DESCRIPTION_MAX = 2000;

const optionalLine = textField('validation.invalid')
  .trim()
  .max(HEADLINE_MAX, { error: 'search.validation.headlineTooLong' })
  .nullish()
  .transform((v) => v || undefined);

const optionalDescription = textField('validation.invalid', { multiline: true })
  .trim()
  .max(DESCRIPTION_MAX, { error: 'validation.invalid' })
  .nullish()
  .transform((v) => v || undefined);

export const guideProfileFields = {
  city: cityField,
  language: languagesField,
  price: priceField,
  maxGroupSize: maxGroupSizeField,
  description: descriptionField,
  headline: optionalLine,
  headlineEn: optionalLine,
  headlineJa: optionalLine,
  descriptionEn: optionalDescription,
  descriptionJa: optionalDescription,
};

const REQUIRED = ['city', 'language', 'price', 'description'] as const;

/** Besides each field's own message, a missing required field gives the form-level '所有欄位都必須填寫'. */
export function requireGuideFields<T extends z.ZodType>(schema: T) {
  return schema.refine(
    (value) => {
      const v = (value ?? {}) as Record<string, unknown>;
      return REQUIRED.every((f) => !blank(v[f]) && !(Array.isArray(v[f]) && (v[f] as unknown[]).length === 0));
    },
    { error: 'validation.guideFieldsRequired', path: [], when: () => true },
  );
}

/** PUT /api/v1/guides/{id}/profile: the guide fields only (name, email and bio stay as they are). */
export const guideProfileUpdateSchema = requireGuideFields(z.object(guideProfileFields));
export type GuideProfileUpdate = z.infer<typeof guideProfileUpdateSchema>;

/** The translations map stored in `users.localized`, from the flat form fields. */
export function translationsOf(input: {
  headlineEn?: string;
  headlineJa?: string;
  descriptionEn?: string;
  descriptionJa?: string;
}): ProfileTranslations {
  const out: ProfileTranslations = {};
  if (input.headlineEn || input.descriptionEn) out.en = { headline: input.headlineEn, description: input.descriptionEn };
  if (input.headlineJa || input.descriptionJa) out.ja = { headline: input.headlineJa, description: input.descriptionJa };
  return JSON.parse(JSON.stringify(out)) as ProfileTranslations;
}
