import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { transformWithEsbuild, type Plugin, type Rollup } from 'vite';

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
      const precache = [...offlineFiles(bundle)].map((file) => `/${file}`).sort();
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
 * What a traveler needs with no connection (issue 36), fetched once the page has loaded: the app's entry and root,
 * the pages that open offline (the trip card; the home page, the guide list and a guide's page a visitor kept) with
 * the chunks they import, the styles, and the translations those pages read. Every other hashed file (the admin's,
 * the chat's, the API reference's …) is kept by the worker when a page first fetches it (cache first), so a page
 * opened online still opens offline, and a first visit never downloads what it does not use.
 */
const OFFLINE_MODULES = [/\/app\/entry\.client\.tsx$/, /\/app\/root\.tsx$/, /\/app\/routes\/(_index|trip-card|offline)\.tsx$/, /\/app\/routes\/guides\+\/(_index|\$id)\.tsx$/];
/** The translation areas of those pages (their handle.i18n and the root's), as files `assets/<area>-<hash>.json`. */
const OFFLINE_AREAS = ['common', 'pwa', 'discover', 'search', 'chat'];

type Bundle = Rollup.OutputBundle;

function offlineFiles(bundle: Bundle): Set<string> {
  const files = new Set<string>();
  const visit = (name: string) => {
    const item = bundle[name];
    if (!item || files.has(name)) return;
    files.add(name);
    if (item.type !== 'chunk') return;
    for (const css of item.viteMetadata?.importedCss ?? []) files.add(css);
    for (const imported of item.imports) visit(imported);
  };
  for (const [name, item] of Object.entries(bundle)) {
    const module = item.type === 'chunk' ? item.facadeModuleId?.split('?')[0] : undefined;
    if (module && OFFLINE_MODULES.some((pattern) => pattern.test(module))) visit(name);
  }
  for (const name of Object.keys(bundle)) {
    const area = /^assets\/(.+)-[\w-]+\.json$/.exec(name)?.[1];
    if (area && OFFLINE_AREAS.includes(area)) files.add(name);
    // The styles are linked by the routes' `links` (not imported by their chunks): all of them, 16 KB together.
    if (/^assets\/.+\.css$/.test(name)) files.add(name);
  }
  return files;
}
