/**
 * Languages a guide can speak. Stored as codes; the display name comes from i18n (`languages.<code>`).
 * Taiwanese Hokkien is `nan` (ISO 639-3); the old code `tw` is ISO 639-1 for Twi and is only read as input
 * from old clients (migration 0002 rewrote the stored ones).
 */
export const LANGUAGE_CODES = ['zh', 'nan', 'hak', 'en', 'ja', 'ko', 'fr', 'de', 'es'] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export function isLanguageCode(value: unknown): value is LanguageCode {
  return typeof value === 'string' && (LANGUAGE_CODES as readonly string[]).includes(value);
}
