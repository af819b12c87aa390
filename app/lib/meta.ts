import type { MetaDescriptor } from '@remix-run/node';

interface RootMatchData {
  site?: { title?: string; tagline?: string };
}

/** Remix replaces parent meta with the child's, so every page builds its title from the root's app title. */
export function pageMeta(matches: ReadonlyArray<{ id: string; data: unknown }>, title?: string): MetaDescriptor[] {
  const root = matches.find((m) => m.id === 'root')?.data as RootMatchData | undefined;
  const appTitle = root?.site?.title ?? '旅遊助手';
  return [
    { title: title ? `${title} | ${appTitle}` : appTitle },
    { name: 'description', content: root?.site?.tagline ?? '' },
  ];
}
