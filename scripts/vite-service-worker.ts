import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { transformWithEsbuild, type Plugin } from 'vite';

/**
 * Builds app/pwa/service-worker.ts into build/client/sw.js during the browser build (docs/decisions/021):
 * the worker is transpiled on its own and gets, in front of it, this build's hashed files (to precache) and
 * an id made from their names (its cache names; a new build is a new worker, byte for byte).
 */
export function serviceWorker(source = 'app/pwa/service-worker.ts'): Plugin {
  let ssr = false;
  return {
    name: 'lvyou-service-worker',
    apply: 'build',
    configResolved(config) {
      ssr = !!config.build.ssr;
    },
    async generateBundle(_options, bundle) {
      if (ssr) return;
      const precache = Object.keys(bundle)
        .filter((file) => file.startsWith('assets/') && precached(file))
        .map((file) => `/${file}`)
        .sort();
      const build = createHash('sha256').update(precache.join('\n')).digest('hex').slice(0, 16);
      const file = path.resolve(source);
      const { code } = await transformWithEsbuild(await fs.readFile(file, 'utf8'), file, { loader: 'ts', target: 'es2020', minify: true });
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: `const BUILD=${JSON.stringify(build)};const PRECACHE=${JSON.stringify(precache)};\n${code}`,
      });
    },
  };
}

/**
 * Scripts, styles and translation files; source maps and big pictures are fetched when a page needs them. Not the
 * API reference's (/api/docs: its route chunk, style and `apidocs` translations): a page for developers at a desk,
 * not for a traveler offline, and the service worker still serves them cache-first once fetched.
 */
function precached(file: string): boolean {
  return /\.(js|css|json)$/.test(file) && !/^assets\/(api\.docs|apidocs)-/.test(file);
}
