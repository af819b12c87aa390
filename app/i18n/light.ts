import { DEFAULT_NAMESPACE, FALLBACK_LOCALE } from './config';

type Tree = Record<string, unknown>;
type Options = Record<string, unknown> & { defaultValue?: unknown; count?: unknown };
type Listener = (...args: unknown[]) => void;

/** The few events react-i18next listens to (languageChanged on the instance, added on the store). */
class Events {
  private listeners = new Map<string, Set<Listener>>();
  on(events: string, listener: Listener) {
    for (const event of events.split(' ')) {
      if (!this.listeners.has(event)) this.listeners.set(event, new Set());
      this.listeners.get(event)!.add(listener);
    }
  }
  off(event: string, listener?: Listener) {
    if (listener) this.listeners.get(event)?.delete(listener);
    else this.listeners.delete(event);
  }
  emit(event: string, ...args: unknown[]) {
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(...args);
  }
}

const PLACEHOLDER = /\{\{\s*-?\s*([^{}]+?)\s*\}\}/g;

/** i18next's interpolation as this app uses it: `{{name}}`, no escaping (React escapes), no formats. */
function interpolate(text: string, values: Options | undefined): string {
  if (!values || !text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (match, name: string) => {
    const value = name.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Tree)[part] : undefined), values);
    if (value === undefined) return Object.prototype.hasOwnProperty.call(values, name) ? '' : match;
    return value === null ? '' : String(value);
  });
}

function lookup(tree: Tree | undefined, key: string): unknown {
  let node: unknown = tree;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Tree)[part];
  }
  return node;
}

function deepMerge(target: Tree, source: Tree) {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object') {
      deepMerge(current as Tree, value as Tree);
    } else {
      target[key] = value;
    }
  }
}

/**
 * The translator of rendered pages (the browser's, and the server render's: i18n.server.ts serverI18n): the part
 * of i18next's instance that react-i18next (useTranslation, Trans, I18nextProvider) and this app use, in about
 * 1 KB instead of i18next's 15 KB of first-load JS, and several times faster per call. It gives the
 * same strings as the server's i18next for this app's files: nested keys, `{{var}}` interpolation with
 * escapeValue false, `_one`/`_other` plurals by Intl.PluralRules, the zh-TW fallback, the key itself when
 * missing. (No nesting, formats, context or returnObjects: the locale files use none; tests/unit/i18n-light.test.ts
 * compares every key with i18next.)
 */
export class LightI18n {
  language: string;
  languages: string[];
  readonly isInitialized = true;
  readonly initializedStoreOnce = true;
  readonly options = {
    defaultNS: DEFAULT_NAMESPACE,
    ns: [DEFAULT_NAMESPACE],
    fallbackLng: FALLBACK_LOCALE,
    preload: [] as string[],
    interpolation: { escapeValue: false } as Record<string, unknown>,
    // 'added': a file that arrives after the first render (a late area) re-renders the text that needed it.
    react: { useSuspense: false, bindI18nStore: 'added' },
  };
  readonly store = new Events();
  readonly services = {
    interpolator: { interpolate: (text: string, values?: Options) => interpolate(text, values) },
    logger: { warn() {}, forward() {}, log() {}, error() {} },
  };
  reportNamespaces?: unknown;
  private readonly events = new Events();
  private readonly data: Record<string, Tree> = {};
  private readonly plurals = new Map<string, Intl.PluralRules>();
  /** Dotted key → value per language, so a page's hundred t() calls do not split and walk keys again. */
  private readonly resolved = new Map<string, Map<string, unknown>>();

  constructor(locale: string) {
    this.language = locale;
    this.languages = this.chain(locale);
  }

  private chain(locale: string) {
    return locale === FALLBACK_LOCALE ? [locale] : [locale, FALLBACK_LOCALE];
  }

  private plural(locale: string, count: number) {
    // The app's languages, written out (tests/unit/i18n-light.test.ts compares them with Intl): the first Intl
    // object a page builds costs 40–70 ms of a phone's main thread during hydration.
    if (locale === 'zh-TW' || locale === 'ja') return 'other';
    if (locale === 'en') return Math.abs(count) === 1 ? 'one' : 'other';
    let rules = this.plurals.get(locale);
    if (!rules) {
      rules = new Intl.PluralRules(locale);
      this.plurals.set(locale, rules);
    }
    return rules.select(count);
  }

  private lookup(lng: string, tree: Tree, key: string): unknown {
    let known = this.resolved.get(lng);
    if (!known) this.resolved.set(lng, (known = new Map()));
    if (known.has(key)) return known.get(key);
    const value = lookup(tree, key);
    known.set(key, value);
    return value;
  }

  private find(locale: string, key: string, count: unknown): string | undefined {
    for (const lng of this.chain(locale)) {
      const tree = this.data[lng];
      if (!tree) continue;
      if (typeof count === 'number') {
        const plural = this.lookup(lng, tree, `${key}_${this.plural(lng, count)}`);
        if (typeof plural === 'string') return plural;
      }
      const value = this.lookup(lng, tree, key);
      if (typeof value === 'string') return value;
    }
    return undefined;
  }

  translate(locale: string, keys: string | string[], optionsOrDefault?: Options | string): string {
    const options: Options | undefined = typeof optionsOrDefault === 'string' ? { defaultValue: optionsOrDefault } : optionsOrDefault;
    for (const key of Array.isArray(keys) ? keys : [keys]) {
      const found = this.find(locale, key, options?.count);
      if (found !== undefined) return interpolate(found, options);
    }
    if (typeof options?.defaultValue === 'string') return interpolate(options.defaultValue, options);
    return String(Array.isArray(keys) ? keys[keys.length - 1] : keys);
  }

  t = (keys: string | string[], options?: Options | string): string => this.translate(this.language, keys, options);

  getFixedT(lng?: string | null, _ns?: unknown, keyPrefix?: string) {
    return (keys: string | string[], options?: Options | string) => {
      const prefixed = keyPrefix ? (Array.isArray(keys) ? keys.map((k) => `${keyPrefix}.${k}`) : `${keyPrefix}.${keys}`) : keys;
      return this.translate(lng ?? this.language, prefixed, options);
    };
  }

  exists(key: string) {
    return this.find(this.language, key, undefined) !== undefined;
  }

  hasLoadedNamespace() {
    return true;
  }

  loadNamespaces(_ns: unknown, callback?: () => void) {
    callback?.();
    return Promise.resolve();
  }

  loadLanguages(_lngs: unknown, callback?: () => void) {
    callback?.();
    return Promise.resolve();
  }

  getResourceBundle(lng: string) {
    return this.data[lng];
  }

  /**
   * Always deep and overwriting (i18next's `deep` and `overwrite` arguments are accepted and ignored). As in
   * i18next, `silent` adds the words without telling react-i18next, which would re-render every translated
   * component ('added').
   */
  addResourceBundle(lng: string, _ns: string, resources: Tree, _deep?: boolean, _overwrite?: boolean, options?: { silent?: boolean }) {
    this.data[lng] ??= {};
    deepMerge(this.data[lng], resources);
    this.resolved.delete(lng);
    if (!options?.silent) this.announceAdded(lng);
    return this;
  }

  /** Tells react-i18next that words of `lng` arrived: the text on screen renders again with them. */
  announceAdded(lng: string) {
    this.store.emit('added', lng, DEFAULT_NAMESPACE);
  }

  changeLanguage(lng: string) {
    this.language = lng;
    this.languages = this.chain(lng);
    this.events.emit('languageChanged', lng);
    return Promise.resolve(this.t);
  }

  on(event: string, listener: Listener) {
    this.events.on(event, listener);
  }

  off(event: string, listener?: Listener) {
    this.events.off(event, listener);
  }

  dir() {
    return 'ltr';
  }
}
