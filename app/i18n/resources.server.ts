import type zhTW from '~/locales/zh-TW/common.json';
import { SUPPORTED_LOCALES, type Locale } from './config';

/**
 * All translations, bundled into the server. The browser receives only its own language (root loader).
 * Each language folder holds common.json plus one file per area (auth.json, profile.json, ...): they are
 * merged into the one `common` namespace, a file's keys under its name, so the key `auth.login.title` reads
 * auth.json's `login.title`. Splitting the files keeps each feature's strings together.
 */
const files = import.meta.glob<Record<string, unknown>>('../locales/*/*.json', { eager: true, import: 'default' });

type Translations = typeof zhTW & Record<string, unknown>;

function translationsFor(locale: Locale): Translations {
  const merged: Record<string, unknown> = {};
  for (const [file, content] of Object.entries(files)) {
    const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (!match || match[1] !== locale) continue;
    if (match[2] === 'common') Object.assign(merged, content);
    else merged[match[2]!] = content;
  }
  return merged as Translations;
}

export const resources = Object.fromEntries(
  SUPPORTED_LOCALES.map((locale) => [locale, { common: translationsFor(locale) }]),
) as Record<Locale, { common: Translations }>;
