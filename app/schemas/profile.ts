import { z } from 'zod';
import { blank, cityField, descriptionField, emailField, languagesField, nameField, priceField, textField } from './fields';

/**
 * The profile form (/me?edit=1) and PUT /api/v1/users/:id (SPEC §5 Guide profile save, §8 Profile save).
 * One schema per kind of account, chosen by the type of the account being edited: everyone has name,
 * email and an optional bio; guides also keep city, languages, daily price and description, all required.
 * PUT replaces every editable field (an omitted bio clears it), exactly like submitting the form.
 */
export const BIO_MAX = 500;

const bioField = textField('validation.invalid', { multiline: true })
  .trim()
  .max(BIO_MAX, { error: 'validation.bioTooLong' })
  .nullish()
  .transform((v) => v || undefined);

const baseProfile = z.object({
  name: nameField,
  email: emailField,
  bio: bioField,
});

export const travelerProfileSchema = baseProfile;

const GUIDE_FIELDS = ['city', 'language', 'price', 'description'] as const;

export const guideProfileSchema = baseProfile
  .extend({
    city: cityField,
    language: languagesField,
    price: priceField,
    description: descriptionField,
  })
  // Besides each field's own message, a missing guide field gives the form-level '所有欄位都必須填寫'.
  // `when` makes this run even though the fields themselves already failed.
  .refine(
    (value) => {
      const v = (value ?? {}) as Record<string, unknown>;
      return GUIDE_FIELDS.every((f) => !blank(v[f]) && !(Array.isArray(v[f]) && (v[f] as unknown[]).length === 0));
    },
    { error: 'validation.guideFieldsRequired', path: [], when: () => true },
  );

export type TravelerProfileInput = z.infer<typeof travelerProfileSchema>;
export type GuideProfileInput = z.infer<typeof guideProfileSchema>;
export type ProfileInput = TravelerProfileInput | GuideProfileInput;

/** The schema for editing an account of this type (admins and travelers share the plain one). */
export function profileSchemaFor(type: string) {
  return type === 'guide' ? guideProfileSchema : travelerProfileSchema;
}

export function isGuideProfileInput(input: ProfileInput): input is GuideProfileInput {
  return 'city' in input && 'price' in input;
}
