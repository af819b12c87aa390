/** Shared by server and client: which languages exist and which one is the fallback. */
import { SUPPORTED_LOCALES, type Locale } from '~/lib/locales';

export { SUPPORTED_LOCALES, type Locale };
export const FALLBACK_LOCALE: Locale = 'zh-TW';
export const LOCALE_COOKIE = 'preferred-language';
export const DEFAULT_NAMESPACE = 'common';

/** The name of each language in itself, for the selector. */
export const LOCALE_NAMES: Record<Locale, string> = { 'zh-TW': '繁體中文', en: 'English', ja: '日本語' };

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(value);
}

/** Maps loose tags (zh, zh-Hant, en-US, ja-JP) to a supported locale. */
export function matchLocale(tag: string | null | undefined): Locale | undefined {
  if (!tag) return undefined;
  const lower = tag.trim().toLowerCase();
  if (lower.startsWith('zh')) return 'zh-TW';
  if (lower.startsWith('en')) return 'en';
  if (lower.startsWith('ja')) return 'ja';
  return undefined;
}
