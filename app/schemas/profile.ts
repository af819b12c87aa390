import { z } from 'zod';
import { cityField, descriptionField, emailField, languagesField, nameField } from './fields';

/**
 * The profile form (/me?edit=1) and PUT /api/v1/users/:id (SPEC §5 Guide profile save, §8 Profile save).
 * One schema per kind of account, chosen by the type of the account being edited: everyone has name,
 * email and an optional bio; guides also keep city, languages, daily price and description, all required.
 * PUT replaces every editable field (an omitted bio clears it), exactly like submitting the form.
 */
export const BIO_MAX = 500;

/** Empty form fields arrive as undefined (conform); API clients may send '' or null for "nothing". */
const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const bioField = z
  .string()
  .trim()
  .max(BIO_MAX, { error: 'validation.bioTooLong' })
  .nullish()
  .transform((v) => v || undefined);

/**
 * Daily price in whole NT$: missing → "please enter", anything else that is not a whole number above 0
 * (0, -5, 'abc', 2.5) → '價格必須為正數'.
 */
const guidePriceField = z.preprocess(
  (v) => (blank(v) ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
  z
    .number({ error: (issue) => (issue.input === undefined ? 'validation.priceRequired' : 'validation.pricePositive') })
    .int({ error: 'validation.pricePositive' })
    .positive({ error: 'validation.pricePositive' })
    .max(1_000_000, { error: 'validation.invalid' }),
);

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
    price: guidePriceField,
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
