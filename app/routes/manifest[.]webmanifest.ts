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
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  };
  return new Response(JSON.stringify(manifest), {
    headers: { 'Content-Type': 'application/manifest+json; charset=utf-8', 'Cache-Control': 'public, max-age=3600', Vary: 'Cookie, Accept-Language' },
  });
}
