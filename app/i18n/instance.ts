import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_NAMESPACE, FALLBACK_LOCALE, SUPPORTED_LOCALES } from './config';

/**
 * An i18next instance holding one language's strings, as the root loader sent them. Built the same way on
 * the server render and in the browser, so hydration sees identical text and no translation file is fetched.
 */
export function createI18n(locale: string, translations: Record<string, unknown>): I18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: locale,
    fallbackLng: FALLBACK_LOCALE,
    supportedLngs: [...SUPPORTED_LOCALES],
    defaultNS: DEFAULT_NAMESPACE,
    ns: [DEFAULT_NAMESPACE],
    resources: { [locale]: { [DEFAULT_NAMESPACE]: translations } },
    interpolation: { escapeValue: false },
    initImmediate: false,
    react: { useSuspense: false },
  });
  return instance;
}
