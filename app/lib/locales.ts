/** The languages of the product (zh-TW is the default and the fallback). Pure: db/schema.ts and the browser read it. */
export const SUPPORTED_LOCALES = ['zh-TW', 'en', 'ja'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
