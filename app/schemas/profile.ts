import { z } from 'zod';
import { emailField, nameField, textField } from './field-rules';
import { guideProfileFields, requireGuideFields } from './guide-profile';

/**
 * The profile form (/me?edit=1) and PUT /api/v1/users/:id (SPEC §5 Guide profile save, §8 Profile save).
 * One schema per kind of account, chosen by the type of the account being edited: everyone has name,
 * email and an optional bio; guides also keep city, languages, price and description, all required, and the
 * maximum group size (absent keeps it).
 * PUT /api/v1/users/:id is an update: the body is laid over the account's current values (a field left out keeps
 * its value, null or '' empties it), then checked by the same schema as the form, which always sends every field.
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
