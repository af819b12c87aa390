import { useRouteLoaderData } from '@remix-run/react';
import type { loader as rootLoader } from '~/root';

/** The root loader's data (locale, theme, translations); undefined only when the root loader itself failed. */
export function useRootData() {
  return useRouteLoaderData<typeof rootLoader>('root');
}
