import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dismissedRecently, INSTALL_DELAY_MS, INSTALL_DISMISSED_KEY, isIos } from '~/lib/install-banner';

/** The browser's install signal (Chromium's `beforeinstallprompt`; not in the DOM typings). */
interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

function standalone(): boolean {
  return matchMedia('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true;
}

function readDismissal(): string | null {
  try {
    return localStorage.getItem(INSTALL_DISMISSED_KEY);
  } catch {
    return null;
  }
}

function storeDismissal(): void {
  try {
    localStorage.setItem(INSTALL_DISMISSED_KEY, String(Date.now()));
  } catch {
    /* storage blocked: the banner just comes back next time */
  }
}

/**
 * The install banner (SPEC §2, §4; issue 24). JS only by nature: nothing shows without the browser's install
 * signal. INSTALL_DELAY_MS after it, unless running standalone or dismissed within 7 days: a bottom sheet on
 * phones, a card at the bottom left from 768 px. Install opens the browser's prompt (declining counts as a
 * dismissal); Later stores the dismissal time; × hides it for this page's life, storing nothing. iOS has no
 * signal: the page load stands for it, and the banner explains the share menu, with no install or later button.
 * On installation it hides and, when notifications were already allowed, says so in a notification.
 */
export function InstallBanner() {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const [ios, setIos] = useState(false);
  const promptEvent = useRef<InstallPromptEvent | null>(null);
  const closed = useRef(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = () => {
      if (closed.current || standalone() || dismissedRecently(readDismissal(), Date.now())) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (!closed.current && !standalone() && !dismissedRecently(readDismissal(), Date.now())) setShown(true);
      }, INSTALL_DELAY_MS);
    };
    const onPrompt = (event: Event) => {
      // Keep the browser's own mini-infobar away: the banner offers it at its time.
      event.preventDefault();
      promptEvent.current = event as InstallPromptEvent;
      schedule();
    };
    const onInstalled = () => {
      closed.current = true;
      clearTimeout(timer);
      setShown(false);
      promptEvent.current = null;
      if (typeof Notification !== 'undefined' && Notification.permission === 'granted') {
        try {
          new Notification(t('install.installedTitle'), { body: t('install.installedBody'), icon: '/icons/icon-192.png' });
        } catch (error) {
          console.warn('install banner: notification', error);
        }
      }
    };
    addEventListener('beforeinstallprompt', onPrompt);
    addEventListener('appinstalled', onInstalled);
    if (isIos(navigator.userAgent, navigator.maxTouchPoints)) {
      setIos(true);
      schedule();
    }
    return () => {
      clearTimeout(timer);
      removeEventListener('beforeinstallprompt', onPrompt);
      removeEventListener('appinstalled', onInstalled);
    };
  }, [t]);

  if (!shown) return null;

  const hide = () => {
    closed.current = true;
    setShown(false);
  };
  const later = () => {
    storeDismissal();
    hide();
  };
  const install = async () => {
    const event = promptEvent.current;
    if (!event) return later();
    promptEvent.current = null;
    try {
      await event.prompt();
      const { outcome } = await event.userChoice;
      if (outcome === 'dismissed') storeDismissal();
    } catch (error) {
      // SPEC §8: install prompt errors are logged only.
      console.warn('install banner: prompt', error);
    }
    hide();
  };

  return (
    <section className="install-banner" aria-labelledby="install-title" data-testid="install-banner">
      <button type="button" className="install-close" onClick={hide} aria-label={t('install.close')}>
        <span aria-hidden="true">×</span>
      </button>
      <img className="install-icon" src="/icons/icon-192.png" alt="" width={48} height={48} />
      <div className="install-text">
        <h2 id="install-title">{t('install.title')}</h2>
        <p>{ios ? t('install.iosDescription') : t('install.description')}</p>
        <ul className="install-features">
          <li>{t('install.offline')}</li>
          <li>{t('install.fastLaunch')}</li>
          <li>{t('install.push')}</li>
        </ul>
      </div>
      {ios ? null : (
        <div className="install-actions">
          <button type="button" className="button" onClick={() => void install()}>
            {t('install.install')}
          </button>
          <button type="button" className="button button-secondary" onClick={later}>
            {t('install.later')}
          </button>
        </div>
      )}
    </section>
  );
}
