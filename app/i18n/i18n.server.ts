import { createCookie } from '@remix-run/node';
import i18next, { type i18n as I18n, type TFunction } from 'i18next';
import { RemixI18Next } from 'remix-i18next/server';
import { DEFAULT_NAMESPACE, FALLBACK_LOCALE, LOCALE_COOKIE, SUPPORTED_LOCALES, isLocale, matchLocale, type Locale } from './config';
import { rememberLanguageChains } from './instance';
import { LightI18n } from './light';
import { resources } from './resources.server';

const ONE_YEAR = 60 * 60 * 24 * 365;

/** Plain-text cookie (no signing needed: a wrong value just falls back) so the client can mirror it. */
export const localeCookie = createCookie(LOCALE_COOKIE, { path: '/', sameSite: 'lax', maxAge: ONE_YEAR, httpOnly: false });

/** Only the language detection of remix-i18next is used: its getFixedT builds a new i18next instance per call. */
export const i18nServer = new RemixI18Next({
  detection: {
    supportedLanguages: [...SUPPORTED_LOCALES],
    fallbackLanguage: FALLBACK_LOCALE,
    cookie: localeCookie,
    order: ['searchParams', 'cookie', 'custom', 'header'],
    // Accept-Language "zh" or "zh-Hant-TW" should still land on zh-TW.
    async findLocale(request) {
      const header = request.headers.get('accept-language') ?? '';
      for (const part of header.split(',')) {
        const match = matchLocale(part.split(';')[0]);
        if (match) return match;
      }
      return null;
    },
  },
});

/**
 * One i18next instance per language, built once at start with every string of the server (all areas), and
 * shared by every request: the instances are never mutated after init (no changeLanguage, no addResources).
 */
const instances = Object.fromEntries(
  SUPPORTED_LOCALES.map((locale) => {
    const instance = i18next.createInstance();
    void instance.init({
      lng: locale,
      fallbackLng: FALLBACK_LOCALE,
      supportedLngs: [...SUPPORTED_LOCALES],
      defaultNS: DEFAULT_NAMESPACE,
      ns: [DEFAULT_NAMESPACE],
      resources,
      interpolation: { escapeValue: false },
      initImmediate: false,
      react: { useSuspense: false },
    });
    return [locale, rememberLanguageChains(instance)];
  }),
) as Record<Locale, I18n>;

const fixedTs = Object.fromEntries(
  SUPPORTED_LOCALES.map((locale) => [locale, instances[locale].getFixedT(locale, DEFAULT_NAMESPACE)]),
) as Record<Locale, TFunction<'common'>>;

/**
 * Server rendering (entry.server.tsx) translates with the browser's small translator (light.ts), one shared
 * instance per language holding every string: a page makes a hundred t() calls, and i18next's are the
 * costlier part of a render. Server and browser then also produce their words with the same code.
 * tests/unit/i18n-light.test.ts checks it against i18next on every key.
 */
const renderInstances = Object.fromEntries(
  SUPPORTED_LOCALES.map((locale) => {
    const instance = new LightI18n(locale);
    instance.addResourceBundle(locale, DEFAULT_NAMESPACE, resources[locale].common);
    if (locale !== FALLBACK_LOCALE) instance.addResourceBundle(FALLBACK_LOCALE, DEFAULT_NAMESPACE, resources[FALLBACK_LOCALE].common);
    return [locale, instance as unknown as I18n];
  }),
) as Record<Locale, I18n>;

/** The shared server-rendering instance of a language (see entry.server.tsx); never changes language. */
export function serverI18n(locale: string): I18n {
  return renderInstances[isLocale(locale) ? locale : FALLBACK_LOCALE];
}

export async function getLocale(request: Request): Promise<Locale> {
  const locale = await i18nServer.getLocale(request);
  return isLocale(locale) ? locale : FALLBACK_LOCALE;
}

/** A t() for loaders, actions and API answers (which use Accept-Language rather than the cookie). Cached per language. */
export async function getFixedT(localeOrRequest: Locale | Request) {
  const locale = typeof localeOrRequest === 'string' ? localeOrRequest : await getLocale(localeOrRequest);
  return fixedTs[isLocale(locale) ? locale : FALLBACK_LOCALE];
}
