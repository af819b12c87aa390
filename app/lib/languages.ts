/** Languages a guide can speak. Stored as codes; the display name comes from i18n (`languages.<code>`). */
export const LANGUAGE_CODES = ['zh', 'tw', 'hak', 'en', 'ja', 'ko', 'fr', 'de', 'es'] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];
