import { RemixBrowser } from '@remix-run/react';
import { startTransition, StrictMode } from 'react';
import { hydrateRoot } from 'react-dom/client';

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

// The root route module (loaded before this one) started fetching the page's translation files
// (app/i18n/client.ts startI18n): hydrate once they are in, so the first client render matches the server's HTML.
void ((window as { __i18nReady?: Promise<void> }).__i18nReady ?? Promise.resolve()).then(hydrate);
