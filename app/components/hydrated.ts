import { useState, useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False on the server and during hydration, true afterwards (and at once for anything mounted later).
 * For swapping a no-JS control for its enhanced version without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

let firstPageHydrated = false;

/** The root Layout calls this once the first page has hydrated. */
export function noteDocumentHydrated(): void {
  firstPageHydrated = true;
}

/** True once the first page has hydrated: what renders from then on comes from client-side navigations. */
export function documentHydrated(): boolean {
  return firstPageHydrated;
}

/**
 * `value` when this component is part of the document the server rendered (on the server, and while that document
 * hydrates), undefined when it is mounted by a client-side navigation afterwards. Call it outside any lazy part: a
 * Suspense boundary may hydrate after the document (and then would not match the server's HTML).
 */
export function useFromDocument<T>(value: T): T | undefined {
  const [fromDocument] = useState(() => !firstPageHydrated);
  return fromDocument ? value : undefined;
}
