import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useTranslation } from 'react-i18next';
import type { I18nHandle } from '~/i18n/bundles';
import { getFixedT } from '~/i18n/i18n.server';
import { pageMeta } from '~/lib/meta';

/**
 * /offline?lng=… (issue 24): what the service worker shows for a page it cannot reach and has not kept. It
 * precaches one per language without cookies (app/pwa/service-worker.ts), so it holds nothing personal.
 */
// Not hydrated (root.tsx): the worker shows it at the address that could not be reached.
// Fetched without cookies, it cannot know who is reading: the header is the brand alone (no 登入 / 註冊 for someone logged in).
export const handle: I18nHandle & { hydrate: false; bareHeader: true } = { i18n: ['pwa'], hydrate: false, bareHeader: true };

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getFixedT(request);
  return { title: t('pwa.offline.title') };
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  ...pageMeta(matches, data?.title),
  { name: 'robots', content: 'noindex' },
];

export default function Offline() {
  const { t } = useTranslation();
  return (
    <section className="offline-page" aria-labelledby="offline-title">
      <h1 id="offline-title">{t('pwa.offline.title')}</h1>
      <p>{t('pwa.offline.lead')}</p>
      <h2>{t('pwa.offline.works')}</h2>
      <ul>
        <li>{t('pwa.offline.worksVisited')}</li>
        <li>
          {t('pwa.offline.worksTripCard')} <a href="/trip-card">{t('pwa.offline.tripCardLink')}</a>
        </li>
        <li>{t('pwa.offline.worksForms')}</li>
      </ul>
      {/* Plain links: a full page load goes back through the network (or a kept copy). An empty href is this address. */}
      <p className="offline-actions">
        <a className="button" href="">
          {t('pwa.offline.retry')}
        </a>
        <a className="button button-secondary" href="/">
          {t('pwa.offline.home')}
        </a>
      </p>
    </section>
  );
}
