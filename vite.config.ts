import path from 'node:path';
import { vitePlugin as remix } from '@remix-run/dev';
import { flatRoutes } from 'remix-flat-routes';
import { defineConfig } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';
import { serviceWorker } from './scripts/vite-service-worker';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    remix({
      // Route folders (docs/decisions/009): `api+/v1+/users+/$id.ts` is /api/v1/users/:id. Files a route keeps
      // beside it that are not routes: `*.server.*`, `*.client.*`, `__*` (components), tests and styles.
      ignoredRouteFiles: ['**/*'],
      routes: async (defineRoutes) =>
        flatRoutes('routes', defineRoutes, {
          ignoredRouteFiles: ['**/.*', '**/*.css', '**/*.test.{js,jsx,ts,tsx}', '**/__*.*', '**/*.server.*', '**/*.client.*'],
        }),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths(),
    serviceWorker(),
  ],
  build: {
    target: 'es2020',
    // Route chunks named after their route (`guides._index-<hash>.js`, `api.v1.users.$id-…`), not after the
    // file name alone: with route folders most files are `_index.tsx`. The server build names its own file.
    // The server build stays one file: manualChunks is for the browser's first load.
    rollupOptions: { output: { entryFileNames: routeChunkName, manualChunks: isSsrBuild ? undefined : manualChunks, onlyExplicitManualChunks: true } },
  },
  // Pre-bundle the browser's dependencies up front: when Vite discovers them during the first page load it
  // re-optimizes and the page briefly runs two copies of React (dev only).
  optimizeDeps: {
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      '@remix-run/react',
      'socket.io-client',
      'i18next',
      'react-i18next',
      'react-markdown',
    ],
    // Server-only native modules reached through .server imports; never part of the browser bundle.
    exclude: ['@node-rs/argon2', 'sharp', 'pg', '@electric-sql/pglite'],
  },
}));

const ROUTES_DIR = path.resolve('app/routes');

/**
 * Every page loads React, Remix and useTranslation, and most load a few helpers of a few hundred bytes: left
 * to itself Rollup makes each of these a chunk of its own, and each chunk costs every page a modulepreload
 * link, manifest entries and a gzip stream of its own. Here they are three chunks: `framework` (what every
 * page loads), `shared` (small helpers most pages use, and the avatar, which the logged-in header shows)
 * and `guide-card` (the card and its stars, on /, /guides and a guide's page). `onlyExplicitManualChunks`: only the listed modules move (by default Rollup also
 * pulls each one's dependencies in, e.g. <Trans> through react-i18next's index). `experimentalMinChunkSize`
 * was tried instead and merged unrelated route code into every page.
 */
const MANUAL_CHUNKS: [chunk: string, modules: RegExp][] = [
  [
    'framework',
    /^\0(commonjsHelpers|vite\/preload-helper)|\/node_modules\/(react|react-dom|scheduler|@remix-run\/[^/]+|react-router|react-router-dom|turbo-stream)\/|\/react-i18next\/dist\/es\/(utils|unescape|defaults|i18nInstance|context|useTranslation)\.js$/,
  ],
  ['shared', /\/app\/lib\/(root-data|meta|dates|money)\.ts$|\/app\/components\/avatar\.tsx$/],
  ['guide-card', /\/app\/components\/(guide-card|stars)\.tsx$/],
];

function manualChunks(id: string): string | undefined {
  return MANUAL_CHUNKS.find(([, modules]) => modules.test(id))?.[0];
}

function routeChunkName(chunk: { facadeModuleId: string | null; name: string }): string {
  const id = chunk.facadeModuleId?.split('?')[0];
  if (!id || !id.startsWith(ROUTES_DIR + path.sep)) return 'assets/[name]-[hash].js';
  const name = path
    .relative(ROUTES_DIR, id)
    .replace(/\.[jt]sx?$/, '')
    .replace(/\+?[\\/]/g, '.')
    .replace(/[^\w.$-]/g, '_');
  return `assets/${name}-[hash].js`;
}
