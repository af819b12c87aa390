import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_NAMESPACE, FALLBACK_LOCALE, SUPPORTED_LOCALES } from './config';

/**
 * i18next works out the language fallback chain (zh-TW → zh-TW, zh...) on every t() call, through
 * Intl.getCanonicalLocales: the largest cost of a page render. The chain only depends on the language
 * asked for, so each instance keeps its answers.
 */
export function rememberLanguageChains(instance: I18n): I18n {
  const utils = instance.services.languageUtils as {
    toResolveHierarchy: (code: string, fallbackCode?: unknown) => string[];
  };
  const original = utils.toResolveHierarchy.bind(utils);
  const chains = new Map<string, string[]>();
  utils.toResolveHierarchy = (code, fallbackCode) => {
    if (fallbackCode !== undefined || typeof code !== 'string') return original(code, fallbackCode);
    let chain = chains.get(code);
    if (!chain) {
      chain = original(code);
      chains.set(code, chain);
    }
    return chain.slice();
  };
  return instance;
}

/**
 * An i18next instance holding one language's strings (the error-page unit test, and the browser's single
 * instance in client.ts, which starts empty and receives its files as they load). The server renders with
 * the shared instances of i18n.server.ts instead.
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
    // 'added': a file that arrives after the first render (a late area) re-renders the text that needed it.
    react: { useSuspense: false, bindI18nStore: 'added' },
  });
  return rememberLanguageChains(instance);
}
