import type { i18n as I18n } from 'i18next';
import { BUNDLE_URLS, BUNDLES, SHELL_BUNDLES, isBundle, type Bundle, type I18nHandle } from './bundles';
import { DEFAULT_NAMESPACE, FALLBACK_LOCALE, isLocale, type Locale } from './config';
import { LightI18n } from './light';

/** The files a page needs: the shell's, its route modules' `handle.i18n`, and the area of a pending toast. */
export function neededBundles(handles: ReadonlyArray<unknown>, toastKey?: string | null): Bundle[] {
  const needed = new Set<Bundle>(SHELL_BUNDLES);
  for (const handle of handles) for (const area of (handle as I18nHandle | undefined)?.i18n ?? []) needed.add(area);
  const toastArea = toastKey?.split('.')[0];
  if (isBundle(toastArea)) needed.add(toastArea);
  return BUNDLES.filter((bundle) => needed.has(bundle));
}

export function bundleUrl(locale: string, bundle: Bundle): string {
  return BUNDLE_URLS[isLocale(locale) ? locale : FALLBACK_LOCALE][bundle];
}

// Browser only below: one i18next instance for the tab, filled file by file.
let instance: LightI18n | undefined;
const requests = new Map<string, Promise<void>>();

export function clientI18n(locale: string): LightI18n {
  instance ??= new LightI18n(locale);
  return instance;
}

/** The same instance, typed as react-i18next's I18nextProvider expects an i18next instance. */
export function clientI18nForReact(locale: string): I18n {
  return clientI18n(locale) as unknown as I18n;
}

/** Files whose words are in the instance. */
const loaded = new Set<string>();

/**
 * Fetches (once each) and adds a language's files; never rejects, a failed file is tried again next time.
 * Adding is silent: nothing on screen renders again (see loadPageBundles).
 */
export function loadBundles(locale: string, bundles: ReadonlyArray<Bundle>, priority: RequestPriority = 'auto'): Promise<void> {
  const lng: Locale = isLocale(locale) ? locale : FALLBACK_LOCALE;
  const i18n = clientI18n(lng);
  return Promise.all(
    bundles.map((bundle) => {
      const url = bundleUrl(lng, bundle);
      let request = requests.get(url);
      if (!request) {
        request = fetch(url, { priority })
          .then((response) => {
            if (!response.ok) throw new Error(`${response.status} ${url}`);
            return response.json() as Promise<Record<string, unknown>>;
          })
          .then((json) => {
            i18n.addResourceBundle(lng, DEFAULT_NAMESPACE, bundle === 'common' ? json : { [bundle]: json }, true, true, { silent: true });
            loaded.add(url);
          })
          .catch(() => {
            requests.delete(url);
          });
        requests.set(url, request);
      }
      return request;
    }),
  ).then(() => undefined);
}

/**
 * The files the page on screen uses. When one of them was not in yet (a client navigation to a new area), the
 * text renders again once all are in; when all were (the first page, which hydrates after its files, and most
 * navigations), nothing renders again. Each re-render of every translated component was a long task on phones.
 */
export async function loadPageBundles(locale: string, bundles: ReadonlyArray<Bundle>): Promise<void> {
  const lng: Locale = isLocale(locale) ? locale : FALLBACK_LOCALE;
  const late = bundles.some((bundle) => !loaded.has(bundleUrl(lng, bundle)));
  await loadBundles(lng, bundles);
  if (late) clientI18n(lng).announceAdded(lng);
}

/**
 * Browser, at the load of the root route module (before entry.client runs): loads the files the page names
 * (root Layout's `<link rel="preload" data-i18n>`, already downloading). entry.client.tsx hydrates once
 * `window.__i18nReady` settles, so the first client render shows the same words as the server's HTML. (Started
 * here rather than imported by entry.client, so this module stays in the root chunk instead of a chunk of its own.)
 */
export function startI18n(): Promise<void> {
  const w = window as { __i18nReady?: Promise<void> };
  const bundles = Array.from(document.querySelectorAll<HTMLLinkElement>('link[data-i18n]'), (link) => link.dataset.i18n).filter(isBundle);
  w.__i18nReady ??= loadBundles(document.documentElement.lang, bundles);
  return w.__i18nReady;
}

/**
 * After hydration: the rest of the language, so later navigations find their words already there. Silent: no
 * page on screen uses them. One file per idle period at low priority: ten fetches and JSON parses at once were
 * one long task right after hydration on phones (Lighthouse's total blocking time).
 */
export function loadAllBundles(locale: string): void {
  const lng: Locale = isLocale(locale) ? locale : FALLBACK_LOCALE;
  const rest = BUNDLES.filter((bundle) => !requests.has(bundleUrl(lng, bundle)));
  const next = () => {
    const bundle = rest.shift();
    if (bundle) void loadBundles(lng, [bundle], 'low').then(() => whenIdle(next));
  };
  whenIdle(next);
}

function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 5000 });
  else setTimeout(task, 200);
}
