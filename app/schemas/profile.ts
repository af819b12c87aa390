import { z } from 'zod';
import { emailField, nameField, textField } from './fields';
import { guideProfileFields, requireGuideFields } from './guide-profile';

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

export const guideProfileSchema = requireGuideFields(baseProfile.extend(guideProfileFields));

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
