/**
 * The service worker (docs/decisions/021-service-worker.md). Built by the Vite client build
 * (scripts/vite-service-worker.ts) into build/client/sw.js, with BUILD (an id of this build's assets) and
 * PRECACHE (this build's hashed files) written in front of it; served by server/service-worker.ts.
 *
 * - Hashed assets and the offline pages: precached per build, cache first; older builds' caches go on activation.
 * - Pages: network first with a short timeout, then the copy kept of an anonymous page, then the offline page in
 *   the reader's language. A page for someone logged in (`Cache-Control: no-store`, entry.server.tsx) is never kept.
 * - The trip card (/trip-card): the one personal page kept, refreshed whenever /orders or an order is opened;
 *   logging out (or a session that ended) deletes it.
 * - Images: cache first, at most 50 entries, each for an hour (SPEC §9 cache: max size 50, ttl 3600000 ms).
 * - Everything else (API calls, Remix `.data` answers, form posts) goes to the network untouched.
 *
 * It must stay self-contained: it is transpiled alone, without a bundler.
 */

declare const BUILD: string;
declare const PRECACHE: string[];

// The worker's own globals (the DOM lib this project type-checks with has no ServiceWorkerGlobalScope).
interface WorkerEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface WorkerFetchEvent extends WorkerEvent {
  request: Request;
  respondWith(response: Promise<Response> | Response): void;
}
interface WorkerMessageEvent extends WorkerEvent {
  data: unknown;
}
interface WorkerPushEvent extends WorkerEvent {
  data: { json(): unknown; text(): string } | null;
}
interface WorkerNotificationEvent extends WorkerEvent {
  notification: Notification;
}
interface WindowClient {
  url: string;
  postMessage(message: unknown): void;
  focus(): Promise<WindowClient>;
  navigate(url: string): Promise<WindowClient | null>;
}
interface WorkerScope {
  location: Location;
  navigator: Navigator;
  registration: ServiceWorkerRegistration;
  skipWaiting(): Promise<void>;
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled?: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  addEventListener(type: 'install' | 'activate', listener: (event: WorkerEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: WorkerFetchEvent) => void): void;
  addEventListener(type: 'message', listener: (event: WorkerMessageEvent) => void): void;
  addEventListener(type: 'push', listener: (event: WorkerPushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: WorkerNotificationEvent) => void): void;
}
const worker = self as unknown as WorkerScope;

const PREFIX = 'lvyou-';
const SHELL = `${PREFIX}shell-${BUILD}`;
// Kept pages reference this build's assets: they go with the build.
const PAGES = `${PREFIX}pages-${BUILD}`;
const IMAGES = `${PREFIX}images`;
const PERSONAL = `${PREFIX}personal`;
const SETTINGS = `${PREFIX}settings`;
const KEEP = new Set([SHELL, PAGES, IMAGES, PERSONAL, SETTINGS]);

const LOCALES = ['zh-TW', 'en', 'ja'] as const;
type Locale = (typeof LOCALES)[number];
const offlinePage = (locale: Locale) => `/offline?lng=${locale}`;
const TRIP_CARD = '/trip-card';
const LOCALE_KEY = '/__sw/locale';

/** How long a page may take before a kept copy is shown instead (a train in a tunnel). */
const PAGE_TIMEOUT_MS = 3_000;
const IMAGE_MAX_ENTRIES = 50;
const IMAGE_TTL_MS = 3_600_000;
const STORED_AT = 'x-sw-stored-at';

const SHELL_FILES = ['/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png'];

worker.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(SHELL);
      await cache.addAll(PRECACHE);
      // The offline pages are fetched without cookies: nobody's name may end up in them.
      await Promise.all(
        [...LOCALES.map(offlinePage), ...SHELL_FILES].map(async (url) => {
          const response = await fetch(url, { credentials: 'omit' });
          if (!response.ok) throw new Error(`precache: ${url} answered ${response.status}`);
          await cache.put(url, response);
        }),
      );
      // A new build takes over at once (the next navigation checks for it); the page is told below.
      await worker.skipWaiting();
    })(),
  );
});

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      const old = names.filter((name) => name.startsWith(PREFIX) && !KEEP.has(name));
      await Promise.all(old.map((name) => caches.delete(name)));
      await worker.clients.claim();
      if (old.some((name) => name.startsWith(`${PREFIX}shell-`))) {
        // The kept trip card points at the old build's scripts: fetch it again with this build's.
        if (await hasTripCard()) await refreshTripCard();
        for (const client of await worker.clients.matchAll({ type: 'window' })) client.postMessage({ type: 'sw-updated', build: BUILD });
      }
    })(),
  );
});

worker.addEventListener('message', (event) => {
  const message = event.data as { type?: string; locale?: string } | null;
  if (message?.type === 'locale' && isLocale(message.locale)) {
    event.waitUntil(caches.open(SETTINGS).then((cache) => cache.put(LOCALE_KEY, new Response(message.locale))));
  } else if (message?.type === 'logged-out') {
    event.waitUntil(forgetPersonal());
  }
});

worker.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  const path = url.pathname;

  if (request.method !== 'GET') {
    // Logging out: what was kept for that person goes (the answer itself is the network's), and so does this
    // browser's push subscription, told to the server while the session still lets it (decision 029).
    if (path === '/logout' || path === '/logout.data') {
      event.waitUntil(forgetPersonal());
      event.respondWith(unsubscribePush().then(() => fetch(request)));
    }
    return;
  }
  if (path === '/logout-success' || path === '/logout-success.data') event.waitUntil(forgetPersonal());

  if (request.mode === 'navigate') {
    event.respondWith(page(event, url));
    return;
  }
  // Opening the orders with JS on is a `.data` request: the trip card follows it.
  if (/^\/orders(\/\d+)?\.data$/.test(path)) event.waitUntil(refreshTripCard());
  if (path.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (request.destination === 'image') event.respondWith(image(event, request));
});

/**
 * Hashed files never change: a kept copy answers; one not kept yet (only what an offline page needs is precached,
 * issue 36) is kept as it is fetched, so a page opened online opens offline with its scripts.
 */
async function cacheFirst(request: Request): Promise<Response> {
  const kept = await caches.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') {
    const copy = response.clone();
    caches.open(SHELL).then((cache) => cache.put(request, copy)).catch(() => undefined);
  }
  return response;
}

/** Network first; after PAGE_TIMEOUT_MS a kept copy (if any) answers while the network keeps going. */
async function page(event: WorkerFetchEvent, url: URL): Promise<Response> {
  const network = fetch(event.request).then((response) => {
    event.waitUntil(afterPage(url, response.clone()));
    return response;
  });
  network.catch(() => undefined);
  const kept = () => keptPage(url);
  const timedOut = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), PAGE_TIMEOUT_MS));
  try {
    const first = await Promise.race([network, timedOut]);
    if (first !== 'timeout') return first;
    const copy = await kept();
    return copy ?? (await network);
  } catch {
    return (await kept()) ?? (await offline());
  }
}

async function afterPage(url: URL, response: Response): Promise<void> {
  if (/^\/orders(\/\d+)?$/.test(url.pathname) && response.ok) await refreshTripCard();
  if (keepable(response)) await (await caches.open(PAGES)).put(url.pathname + url.search, response);
}

/** An anonymous page as it was asked for: nothing private, no redirect (its URL would be wrong). */
function keepable(response: Response): boolean {
  const cacheControl = response.headers.get('cache-control') ?? '';
  return (
    response.ok &&
    !response.redirected &&
    response.type === 'basic' &&
    !/no-store|private/.test(cacheControl) &&
    (response.headers.get('content-type') ?? '').startsWith('text/html')
  );
}

async function keptPage(url: URL): Promise<Response | undefined> {
  const pages = await caches.open(PAGES);
  const exact = await pages.match(url.pathname + url.search);
  if (exact) return exact;
  // The trip card is what a traveler needs of their orders with no connection. At its own address, so that
  // the page hydrates as itself.
  if (url.pathname === TRIP_CARD) return (await caches.open(PERSONAL)).match(TRIP_CARD);
  if (/^\/orders(\/\d+)?$/.test(url.pathname) && (await hasTripCard())) return Response.redirect(TRIP_CARD, 302);
  return undefined;
}

async function offline(): Promise<Response> {
  const locale = await readerLocale();
  const page = await caches.match(offlinePage(locale), { cacheName: SHELL });
  return page ?? new Response('Offline', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
}

/** The language the pages last told the worker, else the browser's. */
async function readerLocale(): Promise<Locale> {
  const stored = await (await caches.open(SETTINGS)).match(LOCALE_KEY);
  const value = stored ? await stored.text() : undefined;
  if (isLocale(value)) return value;
  const tag = worker.navigator.language.toLowerCase();
  return tag.startsWith('ja') ? 'ja' : tag.startsWith('en') ? 'en' : 'zh-TW';
}

function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

let refreshing: Promise<void> | undefined;

/** Fetches the signed-in traveler's trip card and keeps it with its pictures; a visitor's is deleted. */
function refreshTripCard(): Promise<void> {
  refreshing ??= (async () => {
    try {
      const response = await fetch(TRIP_CARD, { credentials: 'same-origin', redirect: 'manual' });
      if (response.type === 'opaqueredirect' || response.status === 401 || response.status === 403) {
        await forgetPersonal();
        return;
      }
      if (!response.ok) return;
      const html = await response.clone().text();
      const cache = await caches.open(PERSONAL);
      await cache.put(TRIP_CARD, response);
      const pictures = [...html.matchAll(/<img[^>]+src="(\/[^"/][^"]*)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
      await Promise.all(pictures.map((src) => cache.add(src).catch(() => undefined)));
    } catch {
      // Offline or the server is down: the card kept so far stays.
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

async function hasTripCard(): Promise<boolean> {
  return !!(await (await caches.open(PERSONAL)).match(TRIP_CARD));
}

function forgetPersonal(): Promise<boolean> {
  return caches.delete(PERSONAL);
}

/** Cache first for an hour; the oldest entries go beyond 50. Pictures only for their owner are never kept. */
async function image(event: WorkerFetchEvent, request: Request): Promise<Response> {
  const personal = await (await caches.open(PERSONAL)).match(request);
  if (personal) return personal;
  const cache = await caches.open(IMAGES);
  const kept = await cache.match(request);
  if (kept && Date.now() - Number(kept.headers.get(STORED_AT) ?? 0) < IMAGE_TTL_MS) return kept;
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic' && !/no-store|private/.test(response.headers.get('cache-control') ?? '')) {
      event.waitUntil(keepImage(cache, request, response.clone()));
    }
    return response;
  } catch (error) {
    if (kept) return kept;
    throw error;
  }
}

async function keepImage(cache: Cache, request: Request, response: Response): Promise<void> {
  const headers = new Headers(response.headers);
  headers.set(STORED_AT, String(Date.now()));
  await cache.put(request, new Response(await response.blob(), { status: response.status, headers }));
  const keys = await cache.keys();
  // Cache keys come back in insertion order; a re-stored image moves to the end.
  await Promise.all(keys.slice(0, Math.max(0, keys.length - IMAGE_MAX_ENTRIES)).map((key) => cache.delete(key)));
}

// ── Web push (docs/decisions/029) ──────────────────────────────────────────────────────────────────────────────
// The server words each push in the recipient's language when it queues it: { title, body, url }.

interface PushPayload {
  title: string;
  body: string;
  url: string;
}

function readPush(event: WorkerPushEvent): PushPayload | null {
  try {
    const data = event.data?.json() as Partial<PushPayload> | undefined;
    if (!data || typeof data.title !== 'string') return null;
    return { title: data.title, body: typeof data.body === 'string' ? data.body : '', url: sameOriginPath(data.url) };
  } catch {
    return null;
  }
}

/** Only a path of this site is opened from a notification. */
function sameOriginPath(url: unknown): string {
  if (typeof url !== 'string') return '/notifications';
  try {
    const resolved = new URL(url, worker.location.origin);
    return resolved.origin === worker.location.origin ? `${resolved.pathname}${resolved.search}${resolved.hash}` : '/notifications';
  } catch {
    return '/notifications';
  }
}

worker.addEventListener('push', (event) => {
  const push = readPush(event);
  if (!push) return;
  event.waitUntil(
    worker.registration.showNotification(push.title, {
      body: push.body,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: push.url },
      // One notification per page: a second message in a conversation replaces the first.
      tag: push.url,
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOriginPath((event.notification.data as { url?: unknown } | null)?.url);
  event.waitUntil(
    (async () => {
      const target = new URL(url, worker.location.origin).href;
      const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((w) => w.url === target);
      if (same) return same.focus();
      const any = windows[0];
      if (any) {
        const focused = await any.focus();
        return (await focused.navigate(target)) ?? focused;
      }
      return worker.clients.openWindow(target);
    })(),
  );
});

/** Logging out: this browser stops receiving the account's pushes (server row, then the browser's own). */
async function unsubscribePush(): Promise<void> {
  try {
    const subscription = await worker.registration.pushManager?.getSubscription();
    if (!subscription) return;
    await fetch('/api/v1/push/subscriptions', {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ endpoint: subscription.endpoint }),
      credentials: 'same-origin',
    }).catch(() => undefined);
    await subscription.unsubscribe();
  } catch {
    // Logging out goes on whatever happens here.
  }
}
