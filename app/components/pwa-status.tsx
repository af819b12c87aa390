import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FALLBACK_LOCALE } from '~/i18n/config';
import { useRootData } from '~/lib/root-data';

/**
 * The browser side of the service worker (issue 24, docs/decisions/021): registers it once the page has loaded
 * (never on the first paint's path), tells it the reader's language (for the offline page), and shows
 * - a bar while the browser is offline; a form submitted then is stopped and the bar says why;
 * - a notice when a new build's worker took over.
 * Offline, a link is followed as a full page load, which the worker answers from what it kept; a client-side
 * navigation would only fail to fetch its data.
 */
export function PwaStatus() {
  const { t } = useTranslation();
  const rootData = useRootData();
  const locale = rootData?.locale ?? FALLBACK_LOCALE;
  // The worker keeps visitors' public pages only, never a logged-in page (issue 35): promise only what works.
  const loggedIn = Boolean(rootData?.user);
  const [online, setOnline] = useState(true);
  const [formStopped, setFormStopped] = useState(false);
  const [updated, setUpdated] = useState(false);

  useEffect(() => {
    const update = () => {
      setOnline(navigator.onLine);
      if (navigator.onLine) setFormStopped(false);
    };
    update();
    const stopSubmit = (event: SubmitEvent) => {
      if (navigator.onLine) return;
      // Before Remix's and conform's handlers (window, capture): they leave a prevented submission alone.
      event.preventDefault();
      setFormStopped(true);
    };
    const fullLoadOffline = (event: MouseEvent) => {
      if (navigator.onLine || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null;
      if (!link || link.origin !== location.origin || link.hasAttribute('download') || (link.target && link.target !== '_self')) return;
      event.preventDefault();
      location.assign(link.href);
    };
    addEventListener('online', update);
    addEventListener('offline', update);
    addEventListener('submit', stopSubmit, true);
    addEventListener('click', fullLoadOffline, true);
    return () => {
      removeEventListener('online', update);
      removeEventListener('offline', update);
      removeEventListener('submit', stopSubmit, true);
      removeEventListener('click', fullLoadOffline, true);
    };
  }, []);

  useEffect(() => {
    if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
    const container = navigator.serviceWorker;
    const onMessage = (event: MessageEvent) => {
      if ((event.data as { type?: string } | null)?.type === 'sw-updated') setUpdated(true);
    };
    container.addEventListener('message', onMessage);
    // A worker replacing the one that served this page is a new build (the message may come before we listen).
    const hadController = !!container.controller;
    const onControllerChange = () => hadController && setUpdated(true);
    container.addEventListener('controllerchange', onControllerChange);
    let cancelled = false;
    const register = () => {
      if (cancelled) return;
      container
        .register('/sw.js', { scope: '/' })
        .then(() => container.ready)
        .then((registration) => registration.active?.postMessage({ type: 'locale', locale }))
        // Blocked (private mode, a policy, a test browser): the site works as before, without offline copies.
        .catch(() => undefined);
    };
    if (document.readyState === 'complete') setTimeout(register, 0);
    else addEventListener('load', register, { once: true });
    return () => {
      cancelled = true;
      container.removeEventListener('message', onMessage);
      container.removeEventListener('controllerchange', onControllerChange);
      removeEventListener('load', register);
    };
  }, [locale]);

  return (
    <>
      {online ? null : (
        <div className="offline-bar" role="status" data-testid="offline-bar">
          {loggedIn ? (
            <p>
              {t('pwa.bar.offlineLoggedIn')} <a href="/trip-card">{t('pwa.bar.tripCard')}</a>
            </p>
          ) : (
            <p>{t('pwa.bar.offline')}</p>
          )}
          {formStopped ? <p role="alert">{t('pwa.bar.formOffline')}</p> : null}
        </div>
      )}
      {updated ? (
        <div className="update-notice" role="status" data-testid="update-notice">
          <p>{t('pwa.bar.updated')}</p>
          <button type="button" className="button button-small button-secondary" onClick={() => location.reload()}>
            {t('pwa.bar.reload')}
          </button>
          <button type="button" className="button button-small button-secondary" onClick={() => setUpdated(false)}>
            {t('pwa.bar.dismiss')}
          </button>
        </div>
      ) : null}
    </>
  );
}
