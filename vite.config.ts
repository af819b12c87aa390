import { vitePlugin as remix } from '@remix-run/dev';
import { defineConfig } from 'vite';
import tsconfigPaths from 'vite-tsconfig-paths';

declare module '@remix-run/node' {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  plugins: [
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
    tsconfigPaths(),
  ],
  build: { target: 'es2020' },
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
});
