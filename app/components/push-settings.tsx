import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from './hydrated';

/**
 * "Turn on push notifications" for this browser (issue 23, docs/decisions/029), on /me. Asked only when the
 * person presses the button, never on page load. Without JavaScript the card says pushes need it; with it, the
 * button shows only where the browser can receive pushes and the service worker runs (production builds).
 *
 * On: the browser's permission, then a subscription with the site's VAPID key (GET /api/v1/push/public-key),
 * handed to POST /api/v1/push/subscriptions, where it lasts as long as this login (decision 035). Off: the server row is deleted, then the browser's subscription.
 * Logging out does the same in the service worker.
 */
type State = 'checking' | 'unsupported' | 'off' | 'on' | 'working' | 'denied' | 'failed';

const API = '/api/v1/push/subscriptions';

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = (base64url + '='.repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

function supported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!supported()) return undefined;
  return navigator.serviceWorker.getRegistration('/');
}

async function send(method: 'POST' | 'DELETE', body: unknown): Promise<void> {
  const response = await fetch(API, {
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  if (!response.ok) throw new Error(`${method} ${API}: ${response.status}`);
}

/**
 * Whether the server pushes to this browser for this login: a subscription ends with the session that made it
 * (decision 035), while the browser keeps its own; it is then offered to be turned on again. Unknown (offline):
 * the browser's word is taken.
 */
async function heldByThisSession(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(API, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    if (!response.ok) return true;
    const { data } = (await response.json()) as { data: { subscriptions: { endpoint: string; thisSession: boolean }[] } };
    return data.subscriptions.some((s) => s.endpoint === endpoint && s.thisSession);
  } catch {
    return true;
  }
}

export function PushSettings() {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const [state, setState] = useState<State>('checking');

  useEffect(() => {
    let live = true;
    void (async () => {
      const reg = await registration().catch(() => undefined);
      if (!live) return;
      if (!reg) return setState('unsupported');
      if (Notification.permission === 'denied') return setState('denied');
      const subscription = await reg.pushManager.getSubscription().catch(() => null);
      const held = subscription ? await heldByThisSession(subscription.endpoint) : false;
      if (!live) return;
      setState(held ? 'on' : 'off');
    })();
    return () => {
      live = false;
    };
  }, []);

  async function turnOn() {
    setState('working');
    try {
      const reg = await registration();
      if (!reg) return setState('unsupported');
      const permission = await Notification.requestPermission();
      if (permission !== 'granted') return setState(permission === 'denied' ? 'denied' : 'off');
      const keyAnswer = await fetch('/api/v1/push/public-key', { headers: { accept: 'application/json' } });
      const { data } = (await keyAnswer.json()) as { data: { publicKey: string } };
      const subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(data.publicKey) });
      await send('POST', subscription.toJSON());
      setState('on');
    } catch (error) {
      console.warn('push: could not subscribe', error);
      setState('failed');
    }
  }

  async function turnOff() {
    setState('working');
    try {
      const reg = await registration();
      const subscription = await reg?.pushManager.getSubscription();
      if (subscription) {
        await send('DELETE', { endpoint: subscription.endpoint });
        await subscription.unsubscribe();
      }
      setState('off');
    } catch (error) {
      console.warn('push: could not unsubscribe', error);
      setState('failed');
    }
  }

  let content;
  if (!hydrated) content = <p className="small muted">{t('push.settings.noScript')}</p>;
  else if (state === 'checking') content = null;
  else if (state === 'unsupported') content = <p className="small muted">{t('push.settings.unsupported')}</p>;
  else if (state === 'denied') content = <p className="small status-line status-warn">{t('push.settings.denied')}</p>;
  else {
    const on = state === 'on';
    content = (
      <>
        <p className="small" role="status">
          {state === 'working' ? t('push.settings.working') : state === 'failed' ? t('push.settings.failed') : on ? t('push.settings.on') : t('push.settings.off')}
        </p>
        <button
          type="button"
          className={`button button-small${on ? ' button-secondary' : ''}`}
          disabled={state === 'working'}
          onClick={() => void (on ? turnOff() : turnOn())}
          data-testid="push-toggle"
        >
          {on ? t('push.settings.turnOff') : t('push.settings.turnOn')}
        </button>
      </>
    );
  }

  return (
    <section className="card profile-card-box" aria-labelledby="push-card">
      <h2 id="push-card" className="profile-card-title">
        {t('push.settings.title')}
      </h2>
      <p className="small">{t('push.settings.lead')}</p>
      {content}
    </section>
  );
}
