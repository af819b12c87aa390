import { z } from 'zod';
import { SUPPORTED_LOCALES } from '~/i18n/config';
import { TERMS_KINDS, TERMS_VERSION_PATTERN } from '~/lib/terms';
import { textField } from './field-rules';

/** Terms (SPEC §3 Terms, §7 Terms) and the admin's new versions (issue 22). */

export const TERMS_TITLE_MAX = 200;
export const TERMS_CONTENT_MAX = 100_000;

const versionField = textField('terms.errors.versionRequired')
  .trim()
  .min(1, { error: 'terms.errors.versionRequired' })
  .max(20, { error: 'terms.admin.errors.VERSION_FORMAT' });

/** POST /api/terms/agree {termsId, termsVersion}; the fallback terms have id 0. */
export const termsAgreeSchema = z.object({
  termsId: z.coerce.number({ error: 'terms.errors.versionRequired' }).int().min(0),
  termsVersion: versionField,
});

/** The agreement form (modal and page): the same fields, the box ticked, and where to go back to. */
export const termsAgreeFormSchema = termsAgreeSchema.extend({
  agree: z.literal('on', { error: 'terms.errors.mustAgree' }),
  redirectTo: z.string().optional(),
});

export const termsDocumentSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string().describe('Markdown'),
  version: z.string(),
  isActive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TermsDocument = z.infer<typeof termsDocumentSchema>;

/** GET /api/terms/current: the text a reader of the asked language agrees to (issue 35). */
export const agreementTermsSchema = termsDocumentSchema.extend({
  locale: z.enum(SUPPORTED_LOCALES).describe('The language of the text'),
  untranslated: z.boolean().describe('The asked language has no terms of service of its own: this is the zh-TW text'),
});

export const agreementStatusSchema = z.object({
  requiresAgreement: z.boolean(),
  currentVersion: z.string(),
  agreedVersion: z.string().nullable(),
  locale: z.enum(SUPPORTED_LOCALES).describe('The language of the text to agree to (Accept-Language, else zh-TW)'),
});

export const termsAgreementSchema = z.object({ version: z.string(), agreedAt: z.string() });

/** An admin's new version of one kind in one language. */
export const publishTermsSchema = z.object({
  kind: z.enum(TERMS_KINDS, { error: 'terms.errors.kindRequired' }),
  locale: z.enum(SUPPORTED_LOCALES, { error: 'terms.errors.kindRequired' }),
  version: versionField.regex(TERMS_VERSION_PATTERN, { error: 'terms.admin.errors.VERSION_FORMAT' }),
  title: textField('terms.errors.titleRequired').trim().min(1, { error: 'terms.errors.titleRequired' }).max(TERMS_TITLE_MAX),
  content: textField('terms.errors.contentRequired', { multiline: true })
    .trim()
    .min(1, { error: 'terms.errors.contentRequired' })
    .max(TERMS_CONTENT_MAX),
});
export type PublishTermsInput = z.infer<typeof publishTermsSchema>;

/** One version of one kind in the three languages at once (issue 35): a title and a text per language. */
export const publishAllTermsSchema = publishTermsSchema.pick({ kind: true, version: true }).extend({
  locale: z.literal('all'),
  texts: z
    .array(publishTermsSchema.pick({ locale: true, title: true, content: true }))
    .length(SUPPORTED_LOCALES.length)
    .refine((texts) => SUPPORTED_LOCALES.every((locale) => texts.some((text) => text.locale === locale)), { error: 'terms.errors.kindRequired' }),
});
export type PublishAllTermsInput = z.infer<typeof publishAllTermsSchema>;
