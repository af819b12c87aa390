import { z } from 'zod';
import { CITY_CODES } from '~/lib/cities';
import { LANGUAGE_CODES } from '~/lib/languages';

/**
 * Field rules shared by every form and API body. Messages are i18n keys (validation.*), translated where
 * the answer is written (form re-render or JSON envelope), so one schema serves every language.
 * Conform turns empty form fields into undefined, so "required" is the message for a missing value.
 */
export const emailField = z
  .string({ error: 'validation.emailRequired' })
  .trim()
  .min(1, { error: 'validation.emailRequired' })
  .max(254, { error: 'validation.emailInvalid' })
  .pipe(z.email({ error: 'validation.emailInvalid' }));

export const newPasswordField = z
  .string({ error: 'validation.passwordRequired' })
  .min(6, { error: 'validation.passwordMin' })
  .max(200, { error: 'validation.invalid' });

export const nameField = z
  .string({ error: 'validation.nameRequired' })
  .trim()
  .min(1, { error: 'validation.nameRequired' })
  .max(80, { error: 'validation.invalid' });

export const cityField = z.enum(CITY_CODES, { error: 'validation.cityRequired' });

/** One or more language codes; a form sends one value per ticked box, the API an array (or one string). */
export const languagesField = z.preprocess(
  (v) => (typeof v === 'string' ? [v] : v),
  z.array(z.enum(LANGUAGE_CODES, { error: 'validation.languageRequired' }), { error: 'validation.languageRequired' }).min(1, {
    error: 'validation.languageRequired',
  }),
);

/** Daily price in whole NT$. An empty value is "required" (coercion alone would read it as 0). */
export const priceField = z.preprocess(
  (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
  z.coerce
    .number({ error: 'validation.priceRequired' })
    .int({ error: 'validation.pricePositive' })
    .positive({ error: 'validation.pricePositive' })
    .max(1_000_000, { error: 'validation.invalid' }),
);

export const descriptionField = z
  .string({ error: 'validation.descriptionRequired' })
  .trim()
  .min(1, { error: 'validation.descriptionRequired' })
  .max(2000, { error: 'validation.invalid' });

export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: 'validation.invalid' })
    .optional()
    .transform((v) => v || undefined);

export const emailCodeField = z
  .string({ error: 'validation.codeRequired' })
  .trim()
  .regex(/^\d{6}$/, { error: 'validation.codeFormat' });

/** A field real people never see or fill; bots that fill every input give themselves away. */
export const honeypotField = z.string().max(0).optional();
