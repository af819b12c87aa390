import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  useMatches,
  useRevalidator,
  useRouteError,
} from '@remix-run/react';
import { lazy, Suspense, useContext, useEffect, useState, type ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
import { EmailBanner as EmailBannerNow } from '~/components/email-banner';
import { ErrorPage as ErrorPageNow } from '~/components/error-page';
import { noteDocumentHydrated, useFromDocument } from '~/components/hydrated';
import { Toasts } from '~/components/toasts';
import { Footer } from '~/components/footer';
import { Header } from '~/components/header';
import { PwaStatus } from '~/components/pwa-status';
import { TermsGate } from '~/components/terms-gate';
import { TermsNotice } from '~/components/terms-notice';
import { InstallBanner } from '~/components/install-banner';
import { ScrollRestoration } from '~/components/scroll-restoration';
import { useNonce } from '~/components/nonce';
import { FALLBACK_LOCALE, LOCALE_COOKIE } from '~/i18n/config';
import { bundleUrl, clientI18nForReact, loadAllBundles, loadPageBundles, neededBundles, startI18n } from '~/i18n/client';
import { ServerI18nContext } from '~/i18n/context';
import { getFixedT, getLocale } from '~/i18n/i18n.server';
import { getSession, sessionCookieHeader } from '~/http/session.server';
import { emailBannerDismissed } from '~/lib/email-banner';
import { termsDeclined } from '~/lib/terms';
import { getTheme } from '~/http/preferences.server';
import { takeToast } from '~/http/toast.server';
import { blobUrl } from '~/services/platform/blobs.server';
import { countUnread } from '~/services/messaging/notifications.server';
import { countUnreadMessages } from '~/services/messaging/chats.server';
import { agreementStatus } from '~/services/accounts/terms.server';
import type { SessionUser } from '~/services/accounts/sessions.server';
import { useRootData } from '~/lib/root-data';
import { THEME_STORAGE_KEY } from '~/lib/theme';
// Only used when the root loader itself failed (zh-TW app.title and app.tagline, the fallback language).
const FALLBACK_SITE = { title: '旅遊助手', tagline: '在台灣，找到最懂在地的導遊' };
import stylesheet from '~/styles/app.css?url';

/**
 * Parts only logged-in people see are chunks of their own in the browser, loaded by the pages that render
 * them, so visitors' first-load JS does not carry them. The server renders them in the first pass as before
 * (pages work without JS); hydration waits for the chunk inside their Suspense boundary.
 */
const EmailBanner = import.meta.env.SSR
  ? EmailBannerNow
  : lazy(() => import('~/components/email-banner').then((module) => ({ default: module.EmailBanner })));
// Error pages are rare: their component is fetched when one is shown.
const ErrorPage = import.meta.env.SSR
  ? ErrorPageNow
  : lazy(() => import('~/components/error-page').then((module) => ({ default: module.ErrorPage })));
// Renders nothing on the server: it only opens the socket after hydration.
const RealtimeConnection = import.meta.env.SSR
  ? () => null
  : lazy(() => import('~/components/realtime').then((module) => ({ default: module.RealtimeConnection })));

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: stylesheet },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
  { rel: 'apple-touch-icon', href: '/icons/icon-192.png' },
  { rel: 'manifest', href: '/manifest.webmanifest' },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [locale, theme, session, { toast, clear }, t] = await Promise.all([
    getLocale(request),
    getTheme(request),
    getSession(request),
    takeToast(request),
    getFixedT(request),
  ]);
  const user = session ? headerUser(session.user) : null;
  const [unreadCount, unreadMessages, terms] = session
    ? await Promise.all([
        countUnread(session.user.id),
        countUnreadMessages(session.user.id),
        session.user.type === 'admin' ? undefined : agreementStatus(session.user, locale),
      ])
    : [0, 0, undefined];
  const headers = new Headers();
  if (clear) headers.append('Set-Cookie', clear);
  // A rolling session moved its expiry: the browser's cookie must follow, or it would still die at day 30.
  if (session?.kind === 'web' && session.rolled) headers.append('Set-Cookie', await sessionCookieHeader(session));
  // No translations here: the browser fetches its language's files once, as cached assets (app/i18n/bundles.ts).
  // What a visitor does not have (a user, a toast, a dismissed banner) is left out, not sent as null/0/false:
  // every key is in every page's HTML.
  return data(
    {
      locale,
      theme,
      site: { title: t('app.title'), tagline: t('app.tagline') },
      // This request's X-Request-Id: an error page rendered with this data shows it (app/components/error-page.tsx).
      ...(context.requestId && { requestId: context.requestId }),
      ...(user && { user, unreadCount, unreadMessages }),
      // Anyone who has not agreed to the current version is asked: a new account that did not tick the register
      // form's box (an API sign-up without agreeToTerms), and everyone after a new version is published.
      ...(terms?.requiresAgreement && { termsRequired: true }),
      // They disagreed this session (/terms/disagree): a banner instead of the modal (issue 35).
      ...(terms?.requiresAgreement && termsDeclined(request.headers.get('cookie')) && { termsDeclined: true }),
      ...(toast && { toast }),
      ...(emailBannerDismissed(request.headers.get('cookie')) && { emailBannerDismissed: true }),
    },
    { headers },
  );
}

/** The little the header and every page need to know about the person logged in. */
function headerUser(user: SessionUser) {
  return {
    id: user.id,
    name: user.name,
    type: user.type,
    avatar: blobUrl(user.avatarKey),
    isEmailVerified: user.isEmailVerified,
    isIdVerified: user.isIdVerified,
  };
}
export type HeaderUser = ReturnType<typeof headerUser>;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.site.title ?? FALLBACK_SITE.title },
  { name: 'description', content: data?.site.tagline ?? FALLBACK_SITE.tagline },
];

/** Runs before first paint: marks that JS is on (so no-JS-only controls hide). */
const BOOT_SCRIPT = `document.documentElement.classList.replace('no-js','js')`;

/**
 * Browser, when the root module loads (before hydration and before any route chunk is fetched on a navigation):
 * handles code-split chunks that fail to load after a deploy (SPEC §2: one automatic reload, tracked by a
 * sessionStorage flag). Remix itself reloads the page being left when a route module fails to import; the
 * pagehide hook remembers where the visitor was going, and the next load goes there instead, once.
 * (It was an inline script; here it costs the HTML of every page nothing.)
 */
function watchChunkReloads(): 'leaving' | undefined {
  const FLAG = 'chunk-reload';
  const TARGET = 'chunk-reload-target';
  const here = () => location.pathname + location.search;
  const w = window as { __chunkReload?: () => boolean; __remixRouter?: { state: { navigation: { state: string; formMethod?: string; location?: Location } } } };
  try {
    const pending = JSON.parse(sessionStorage.getItem(TARGET) ?? 'null') as { from?: string; to?: string } | null;
    sessionStorage.removeItem(TARGET);
    if (pending?.to && pending.from === here() && pending.to !== here() && !sessionStorage.getItem(FLAG)) {
      sessionStorage.setItem(FLAG, '1');
      location.replace(pending.to);
      return 'leaving';
    }
  } catch {
    /* storage may be disabled */
  }
  addEventListener('pagehide', () => {
    try {
      const navigation = w.__remixRouter?.state.navigation;
      const to = navigation?.location;
      if (navigation?.state === 'loading' && !navigation.formMethod && to) {
        sessionStorage.setItem(TARGET, JSON.stringify({ from: here(), to: to.pathname + to.search + to.hash }));
      }
    } catch {
      /* storage may be disabled */
    }
  });
  w.__chunkReload = () => {
    // Offline, a chunk fails because there is no network, not because a deploy replaced it: a reload cannot help.
    if (!navigator.onLine) return false;
    try {
      if (sessionStorage.getItem(FLAG)) return false;
      sessionStorage.setItem(FLAG, '1');
    } catch {
      return false;
    }
    location.reload();
    return true;
  };
  addEventListener('vite:preloadError', (event) => {
    if (w.__chunkReload?.()) event.preventDefault();
  });
  return undefined;
}

// Browser: fetch the page's translation files now; entry.client.tsx hydrates once `__i18nReady` settles. A page
// being left for a chunk-reload target never hydrates (its effects would clear the flag that prevents a loop).
if (typeof document !== 'undefined') {
  if (watchChunkReloads() === 'leaving') (window as { __i18nReady?: Promise<void> }).__i18nReady = new Promise(() => {});
  else void startI18n();
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRootData();
  const nonce = useNonce();
  const locale = data?.locale ?? FALLBACK_LOCALE;
  const matches = useMatches();
  const bundles = neededBundles(
    matches.map((match) => match.handle),
    data?.toast?.key,
  );
  // A page the service worker shows at other addresses (/offline) is static: hydrating it there would fail.
  const hydrate = !matches.some((match) => (match.handle as { hydrate?: boolean } | undefined)?.hydrate === false);
  const bundleKey = bundles.join(' ');
  // Server: the shared complete instance of the language. Browser: the tab's one instance, which entry.client
  // filled with these files before hydrating; a new language switches only once its files are in.
  const serverI18n = useContext(ServerI18nContext);
  const i18n = serverI18n ? serverI18n(locale) : clientI18nForReact(locale);
  const [, setLanguage] = useState(locale);
  useEffect(() => noteDocumentHydrated(), []);
  // The error page's code is fetched when the browser is idle after the first page: an error that comes from a lost
  // connection must still be able to show it (its chunk could not be loaded then).
  useEffect(() => {
    const warm = () => void import('~/components/error-page').catch(() => undefined);
    const id = typeof requestIdleCallback === 'function' ? requestIdleCallback(warm) : setTimeout(warm, 2000);
    return () => (typeof cancelIdleCallback === 'function' ? cancelIdleCallback(id as number) : clearTimeout(id as ReturnType<typeof setTimeout>));
  }, []);

  useEffect(() => {
    if (serverI18n) return;
    let current = true;
    void loadPageBundles(locale, bundleKey.split(' ') as typeof bundles).then(async () => {
      if (!current) return;
      if (i18n.language !== locale) {
        await i18n.changeLanguage(locale);
        setLanguage(locale);
      }
      loadAllBundles(locale);
    });
    return () => {
      current = false;
    };
  }, [serverI18n, i18n, locale, bundleKey]);

  useEffect(() => {
    // Mirror the server-side choices for client code that reads storage (SPEC §3 storage keys).
    try {
      localStorage.setItem(LOCALE_COOKIE, locale);
      if (data?.theme) localStorage.setItem(THEME_STORAGE_KEY, data.theme);
      sessionStorage.removeItem('chunk-reload');
    } catch {
      /* storage may be disabled */
    }
  }, [locale, data?.theme]);

  return (
    // The boot script swaps no-js for js before hydration, on purpose.
    <html lang={locale} data-theme={data?.theme ?? 'auto'} className="no-js" suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d4ed8" />
        <meta name="color-scheme" content="light dark" />
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: BOOT_SCRIPT }} />
        <Meta />
        <Links />
        {bundles.map((bundle) => (
          <link key={bundle} rel="preload" as="fetch" crossOrigin="anonymous" href={bundleUrl(locale, bundle)} data-i18n={bundle} />
        ))}
      </head>
      <body>
        <I18nextProvider i18n={i18n}>
          <Shell>{children}</Shell>
        </I18nextProvider>
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useRootData()?.user;
  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skipToContent')}
      </a>
      <Header />
      {user && !user.isEmailVerified ? (
        <Suspense>
          <EmailBanner />
        </Suspense>
      ) : null}
      <TermsNotice />
      <main id="main" className="container">
        <Toasts />
        {children}
      </main>
      {user ? (
        <Suspense>
          <RealtimeConnection />
        </Suspense>
      ) : null}
      <Footer />
      <PwaStatus />
      <InstallBanner />
      <TermsGate />
    </>
  );
}

export default function App() {
  return <Outlet />;
}

/** fetch's own failure when no answer came (Chromium, Firefox, Safari word it differently). */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof TypeError && /failed to fetch|networkerror|load failed|network request failed/i.test(error.message);
}
const NETWORK_RETRY_MS = 3_000;

export function ErrorBoundary() {
  const error = useRouteError();
  // The id of the request that rendered this document; none after a client-side navigation (hydrated.ts).
  const requestId = useFromDocument(useRootData()?.requestId);

  useEffect(() => {
    // A deploy replaced the chunks this page was built with: fetch the new page once.
    const message = error instanceof Error ? error.message : '';
    if (/dynamically imported module|Importing a module script failed|error loading dynamically/i.test(message)) {
      (window as { __chunkReload?: () => boolean }).__chunkReload?.();
    }
  }, [error]);

  // The page's data request was lost to the network (a live update's refresh when the connection dropped): the
  // page comes back by itself once the browser is online, instead of leaving the error page up.
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!isNetworkFailure(error)) return;
    const retry = () => revalidator.revalidate();
    if (!navigator.onLine) {
      addEventListener('online', retry, { once: true });
      return () => removeEventListener('online', retry);
    }
    const timer = setTimeout(retry, NETWORK_RETRY_MS);
    return () => clearTimeout(timer);
    // Not on `revalidator`: it changes identity with its own state; the error is what asks for a retry.
  }, [error]);

  return (
    <Suspense>
      <ErrorPage status={isRouteErrorResponse(error) ? error.status : undefined} reference={requestId} />
    </Suspense>
  );
}
