// What a first visit to a page downloads, counted as ../shared/perf/bench.mjs counts it (one definition for
// bench/page-weight.mjs and the byte-budget test, tests/integration/http/byte-budget.test.ts): the HTML, every
// <script src>, <link rel=modulepreload> (and preload as=script), the imports of the inline module scripts and the
// static imports at the top of those chunks, followed until none is left; stylesheets. Each file is gzipped on its
// own at level 9.
import { gzipSync } from 'node:zlib';

/** gzip -9 bytes of a buffer or string. */
export const gzipBytes = (content) => gzipSync(typeof content === 'string' ? Buffer.from(content) : content, { level: 9 }).length;

function parseAttrs(text) {
  const attrs = {};
  for (const m of text.matchAll(/([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    attrs[m[1].toLowerCase()] = (m[2] ?? m[3] ?? m[4] ?? '').replace(/&amp;/g, '&');
  }
  return attrs;
}

/**
 * Script, module-preload and stylesheet URLs of a page, plus the inline module scripts' imports.
 * @returns {{ js: Map<string, string>, css: Map<string, string> }} absolute URL → how it was found
 */
export function collectAssets(html, pageUrl) {
  const js = new Map();
  const css = new Map();
  const add = (map, href, how) => {
    if (!href || /^(data|blob|javascript):/i.test(href)) return;
    try {
      const u = new URL(href, pageUrl).href;
      if (!map.has(u)) map.set(u, how);
    } catch {
      /* bad URL */
    }
  };
  for (const m of html.matchAll(/<(script|link)\b([^>]*)>/gi)) {
    const tag = m[1].toLowerCase();
    const a = parseAttrs(m[2]);
    if (tag === 'script' && a.src) add(js, a.src, 'script src');
    if (tag === 'link') {
      const rel = (a.rel || '').toLowerCase().split(/\s+/);
      const as = (a.as || '').toLowerCase();
      if (rel.includes('modulepreload')) add(js, a.href, 'modulepreload');
      else if (rel.includes('preload') && as === 'script') add(js, a.href, 'preload script');
      if (rel.includes('stylesheet')) add(css, a.href, 'stylesheet');
      else if (rel.includes('preload') && as === 'style') add(css, a.href, 'preload style');
    }
  }
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const a = parseAttrs(m[1]);
    if (a.src || !m[2]) continue;
    const body = m[2];
    for (const im of body.matchAll(/\bimport\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\n]+)["']/g)) add(js, im[1], 'inline import');
    for (const im of body.matchAll(/\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)/g)) add(js, im[1], 'inline import()');
  }
  return { js, css };
}

/** The static imports at the top of a bundler chunk (import{..}from"./x.js"; import"./y.js";). */
export function leadingImports(code) {
  const found = [];
  let rest = code;
  for (;;) {
    const m = rest.match(/^\s*(?:\/\*[\s\S]*?\*\/\s*|\/\/[^\n]*\n\s*)*import\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\n]+)["']\s*;?/);
    if (!m) break;
    found.push(m[1]);
    rest = rest.slice(m[0].length);
  }
  return found;
}

/**
 * The first-load weight of one page's HTML. `readAsset(url)` answers a file's bytes (over HTTP, or from the build's
 * folder); each file is read once per call.
 * @param {string} html
 * @param {string} pageUrl
 * @param {(url: string) => Promise<Buffer>} readAsset
 * @returns {Promise<{ html: number, js: number, css: number, jsFiles: Array<{ url: string, how: string, gzip: number }> }>}
 */
export async function weighPage(html, pageUrl, readAsset) {
  const { js, css } = collectAssets(html, pageUrl);
  const queue = [...js.keys()];
  const jsFiles = [];
  while (queue.length) {
    const url = queue.shift();
    const bytes = await readAsset(url);
    jsFiles.push({ url, how: js.get(url), gzip: gzipBytes(bytes) });
    for (const spec of leadingImports(bytes.toString('utf8'))) {
      if (!/^(\.{0,2}\/|https?:)/.test(spec)) continue;
      const abs = new URL(spec, url).href;
      if (!js.has(abs)) {
        js.set(abs, 'static import (not preloaded)');
        queue.push(abs);
      }
    }
  }
  let cssBytes = 0;
  for (const url of css.keys()) cssBytes += gzipBytes(await readAsset(url));
  return { html: gzipBytes(html), js: jsFiles.reduce((sum, file) => sum + file.gzip, 0), css: cssBytes, jsFiles };
}
