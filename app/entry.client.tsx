import { RemixBrowser } from '@remix-run/react';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { isBundle } from '~/i18n/bundles';
import { loadBundles } from '~/i18n/client';

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// The page names its translation files (root Layout's <link rel="preload" data-i18n>, already downloading):
// hydrate once they are in, so the first client render shows the same words as the server's HTML.
const bundles = Array.from(document.querySelectorAll<HTMLLinkElement>('link[data-i18n]'), (link) => link.dataset.i18n).filter(isBundle);
void loadBundles(document.documentElement.lang, bundles).then(hydrate);
