import { createCookie } from '@remix-run/node';
import { RemixI18Next } from 'remix-i18next/server';
import { DEFAULT_NAMESPACE, FALLBACK_LOCALE, LOCALE_COOKIE, SUPPORTED_LOCALES, isLocale, matchLocale, type Locale } from './config';
import { resources } from './resources.server';

const ONE_YEAR = 60 * 60 * 24 * 365;

/** Plain-text cookie (no signing needed: a wrong value just falls back) so the client can mirror it. */
export const localeCookie = createCookie(LOCALE_COOKIE, { path: '/', sameSite: 'lax', maxAge: ONE_YEAR, httpOnly: false });

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
  i18next: {
    resources,
    defaultNS: DEFAULT_NAMESPACE,
    fallbackLng: FALLBACK_LOCALE,
    supportedLngs: [...SUPPORTED_LOCALES],
    interpolation: { escapeValue: false },
  },
});

export async function getLocale(request: Request): Promise<Locale> {
  const locale = await i18nServer.getLocale(request);
  return isLocale(locale) ? locale : FALLBACK_LOCALE;
}

/** A t() for loaders, actions and API answers (which use Accept-Language rather than the cookie). */
export async function getFixedT(localeOrRequest: Locale | Request) {
  const locale = typeof localeOrRequest === 'string' ? localeOrRequest : await getLocale(localeOrRequest);
  return i18nServer.getFixedT(locale, DEFAULT_NAMESPACE);
}
