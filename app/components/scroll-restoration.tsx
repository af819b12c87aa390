import { UNSAFE_useScrollRestoration } from 'react-router-dom';

/**
 * Remix's <ScrollRestoration> (@remix-run/react 2.17) with its inline script written short: Remix prints the
 * source of its restore function as it is in node_modules (indented, long names) into every page, 281 bytes of
 * the gzipped HTML; this one does the same steps in about a third (issue 8). Same storage key and history
 * state key as Remix, so positions saved by either are read by the other.
 */
const STORAGE_KEY = 'positions';

/**
 * Before hydration, at the end of the body: give this history entry a key if it has none, then scroll to the
 * position saved for it (a reload, or coming back to the page).
 */
const RESTORE_SCRIPT = `(k=>{let h=history;h.state&&h.state.key||h.replaceState({key:Math.random().toString(32).slice(2)},"");try{let y=JSON.parse(sessionStorage.getItem(k)||"{}")[h.state.key];typeof y=="number"&&scrollTo(0,y)}catch(e){console.error(e);sessionStorage.removeItem(k)}})(${JSON.stringify(STORAGE_KEY)})`;

export function ScrollRestoration({ nonce }: { nonce?: string }) {
  // Saves positions as the reader leaves a page and restores them on client navigations (as Remix's does).
  UNSAFE_useScrollRestoration({ storageKey: STORAGE_KEY });
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: RESTORE_SCRIPT }} />;
}
