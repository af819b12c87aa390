import { z } from 'zod';
import {
  cityField,
  descriptionField,
  emailCodeField,
  emailField,
  honeypotField,
  languagesField,
  maxGroupSizeField,
  nameField,
  newPasswordField,
  PASSWORD_MAX,
  priceField,
  textField,
} from './field-rules';

/** Forms and API bodies of the accounts slice (SPEC §2 login/register, §7 Authentication). */

const travelerRegistration = z.object({
  type: z.literal('traveler'),
  name: nameField,
  email: emailField,
  password: newPasswordField,
  website: honeypotField,
});

const guideRegistration = travelerRegistration.extend({
  type: z.literal('guide'),
  city: cityField,
  language: languagesField,
  price: priceField,
  /** Absent: DEFAULT_MAX_GROUP_SIZE (the column's default). */
  maxGroupSize: maxGroupSizeField,
  description: descriptionField,
});

/**
 * Agreeing to the terms of service at sign-up (issue 24). The API's body (SPEC §7 leaves the registration object
 * open) may carry `agreeToTerms: true` and the `termsVersion` the person read; a body without them still
 * registers, records no agreement, and the terms modal asks at the first login. `termsVersion` must be the
 * current version for the agreement to be recorded (one read before a newer version was published records
 * nothing, and the modal asks again).
 */
const apiTermsConsent = {
  agreeToTerms: z.boolean({ error: 'validation.invalid' }).optional(),
  termsVersion: z.string({ error: 'validation.invalid' }).trim().max(32, { error: 'validation.invalid' }).optional(),
};

/** The register page's checkbox is required: 'on' (or true) only. */
const formTermsConsent = {
  agreeToTerms: z.preprocess((v) => v === true || v === 'on' || v === 'true', z.literal(true, { error: 'auth.register.termsRequired' })),
  termsVersion: apiTermsConsent.termsVersion,
};

/** POST /api/v1/auth/register. */
export const registerSchema = z.discriminatedUnion('type', [travelerRegistration.extend(apiTermsConsent), guideRegistration.extend(apiTermsConsent)], {
  error: 'validation.invalid',
});
export type RegisterInput = z.infer<typeof registerSchema>;

/** The register page: the same fields, and the terms box must be ticked. */
export const registerFormSchema = z.discriminatedUnion('type', [travelerRegistration.extend(formTermsConsent), guideRegistration.extend(formTermsConsent)], {
  error: 'validation.invalid',
});

/**
 * Login only asks that both fields are filled (SPEC §5): '請填寫所有必填欄位'. Control characters and a
 * password longer than any we accept are refused here too, before anything is looked up or hashed.
 */
export const loginSchema = z.object({
  email: textField('validation.requiredFields').trim().min(1, { error: 'validation.requiredFields' }),
  password: textField('validation.requiredFields')
    .min(1, { error: 'validation.requiredFields' })
    .max(PASSWORD_MAX, { error: 'validation.passwordMax' }),
  redirectTo: z.string().optional(),
  website: honeypotField,
});
export type LoginInput = z.infer<typeof loginSchema>;

export const verifyEmailSchema = z.object({
  email: emailField,
  code: emailCodeField,
});
export type VerifyEmailInput = z.infer<typeof verifyEmailSchema>;

/** The code-entry form's own rule: anything but six digits is "enter the complete 6-digit code" (SPEC §5). */
export const emailCodeFormSchema = z.object({
  email: emailField,
  code: z
    .string({ error: 'validation.codeRequired' })
    .trim()
    .regex(/^\d{6}$/, { error: 'validation.codeRequired' }),
});

/** The email banner's code form (/email-verification): nothing typed is "enter the code", anything else but six digits "six digits". */
export const bannerCodeFormSchema = z.object({
  code: z
    .string({ error: 'auth.banner.codeRequired' })
    .trim()
    .min(1, { error: 'auth.banner.codeRequired' })
    .regex(/^\d{6}$/, { error: 'validation.codeFormat' }),
});

export const resendVerificationSchema = z.object({ email: emailField });

/** Forgot password, step 1 (the page and POST /api/v1/auth/forgot-password). */
export const forgotPasswordSchema = z.object({ email: emailField, website: honeypotField });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordSchema>;

/** Forgot password, step 2: the mailed code and the new password (the page and POST /api/v1/auth/reset-password). */
export const resetPasswordSchema = z.object({
  email: emailField,
  code: emailCodeField,
  password: newPasswordField,
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** The code that confirms a new email address (/me and POST /api/v1/users/{id}/email/confirm). */
export const confirmEmailChangeSchema = z.object({ code: emailCodeField });
export type ConfirmEmailChangeInput = z.infer<typeof confirmEmailChangeSchema>;
