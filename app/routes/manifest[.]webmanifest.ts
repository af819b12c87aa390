import type { LoaderFunctionArgs } from '@remix-run/node';
import { getFixedT, getLocale } from '~/i18n/i18n.server';

/** The PWA manifest, named in the visitor's language. */
export async function loader({ request }: LoaderFunctionArgs) {
  const [locale, t] = await Promise.all([getLocale(request), getFixedT(request)]);
  const manifest = {
    name: t('app.title'),
    short_name: t('app.title'),
    description: t('app.tagline'),
    lang: locale,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    background_color: '#f8fafc',
    theme_color: '#1d4ed8',
    categories: ['travel', 'lifestyle'],
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
    // What the richer install dialog shows (issue 24): the home page, wide and narrow (scripts/manifest-screenshots.mjs).
    screenshots: [
      { src: '/screenshots/home-wide.webp', sizes: '1280x720', type: 'image/webp', form_factor: 'wide', label: t('install.screenshots.wide') },
      { src: '/screenshots/home-narrow.webp', sizes: '390x844', type: 'image/webp', form_factor: 'narrow', label: t('install.screenshots.narrow') },
    ],
    // The installed app's long-press menu (issue 24): find a guide, my orders, messages.
    shortcuts: (['guides', 'orders', 'chat'] as const).map((name) => ({
      name: t(`install.shortcuts.${name}`),
      short_name: t(`install.shortcuts.${name}`),
      description: t(`install.shortcuts.${name}Description`),
      url: `/${name}`,
      icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
    })),
  };
  return new Response(JSON.stringify(manifest), {
    headers: { 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'public, max-age=3600', Vary: 'Cookie, Accept-Language' },
  });
}
