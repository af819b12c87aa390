// First-load weight of the server-rendered pages, counted as ../shared/perf/bench.mjs counts it: the HTML
// (fetched with a browser's Accept and no cookies or Accept-Language, so zh-TW), every <script src>,
// <link rel=modulepreload> (and preload as=script), the imports of the inline module scripts and the static
// imports at the top of those chunks; stylesheets. Each file is gzipped on its own at level 9, here.
// Usage: node bench/page-weight.mjs [base-url] [--files]   (default http://localhost:3000; start the server first)
// PAGES=/me,/orders (instead of the default pages) and COOKIE='session=...' (sent with the pages, e.g. to weigh
// logged-in pages) are optional.
// Prints bytes and KiB per page, and the targets (issue 8): /guides HTML ≤ 6 KiB, JS of /, /guides and a
// guide page ≤ 100 KiB. `--files` also lists each JS file with how it was found and its gzip bytes.
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const listFiles = args.includes('--files');
const base = (args.find((a) => !a.startsWith('--')) ?? 'http://localhost:3000').replace(/\/$/, '');
const pages = process.env.PAGES ? process.env.PAGES.split(',') : ['/', '/guides', '/guides?page=2', '/terms'];
const cookie = process.env.COOKIE ? { cookie: process.env.COOKIE } : {};
const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const KIB = 1024;
/** Targets in gzip bytes (issue 8); pages not listed have none. */
const TARGETS = { '/guides': { html: 6 * KIB, js: 100 * KIB }, '/': { js: 100 * KIB }, detail: { js: 100 * KIB } };

const gz = (buf) => gzipSync(buf, { level: 9 }).length;

function parseAttrs(text) {
  const attrs = {};
  for (const m of text.matchAll(/([^\s"'>\/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    attrs[m[1].toLowerCase()] = (m[2] ?? m[3] ?? m[4] ?? '').replace(/&amp;/g, '&');
  }
  return attrs;
}

/** Script, module-preload and stylesheet URLs of a page, plus the inline module scripts' imports. */
function collectAssets(html, pageUrl) {
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
function leadingImports(code) {
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

const assets = new Map();
function fetchAsset(url) {
  if (!assets.has(url)) {
    assets.set(
      url,
      fetch(url).then(async (res) => {
        if (!res.ok) throw new Error(`${url}: ${res.status}`);
        const buf = Buffer.from(await res.arrayBuffer());
        return { gzip: gz(buf), text: buf.toString('utf8') };
      }),
    );
  }
  return assets.get(url);
}

async function pageWeight(path) {
  const res = await fetch(base + path, { headers: { accept: HTML_ACCEPT, ...cookie }, redirect: 'manual' });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  const html = Buffer.from(await res.arrayBuffer());
  const { js, css } = collectAssets(html.toString('utf8'), res.url || base + path);
  const queue = [...js.keys()];
  const jsFiles = [];
  while (queue.length) {
    const u = queue.shift();
    const a = await fetchAsset(u);
    jsFiles.push({ url: u, how: js.get(u), gzip: a.gzip });
    for (const spec of leadingImports(a.text)) {
      if (!/^(\.{0,2}\/|https?:)/.test(spec)) continue;
      const abs = new URL(spec, u).href;
      if (!js.has(abs)) {
        js.set(abs, 'static import (not preloaded)');
        queue.push(abs);
      }
    }
  }
  let cssBytes = 0;
  for (const u of css.keys()) cssBytes += (await fetchAsset(u)).gzip;
  const jsBytes = jsFiles.reduce((s, f) => s + f.gzip, 0);
  return { html: gz(html), js: jsBytes, css: cssBytes, jsFiles, html$: html.toString('utf8') };
}

const first = await pageWeight('/guides');
const detail = process.env.PAGES ? undefined : first.html$.match(/href="(\/guides\/\d+)"/)?.[1];
if (detail) pages.push(detail);

const kib = (b) => (b / KIB).toFixed(2);
const cell = (bytes, target) => `${bytes} (${kib(bytes)})${target === undefined ? '' : bytes <= target ? ' ok' : ` >${kib(target)}`}`;
console.log('gzip -9 bytes (KiB); "ok" or ">target" where issue 8 sets a target');
console.log(['page'.padEnd(18), 'html'.padStart(22), 'js'.padStart(24), 'files'.padStart(5), 'css'.padStart(16)].join(' '));
for (const page of pages) {
  const w = page === '/guides' ? first : await pageWeight(page);
  const target = TARGETS[page === detail ? 'detail' : page] ?? {};
  const notPreloaded = w.jsFiles.filter((f) => f.how.startsWith('static import')).length;
  console.log(
    [page.padEnd(18), cell(w.html, target.html).padStart(22), cell(w.js, target.js).padStart(24), String(w.jsFiles.length).padStart(5), cell(w.css).padStart(16)].join(' '),
  );
  if (notPreloaded) console.log(`  note: ${notPreloaded} JS chunk(s) statically imported but not module-preloaded`);
  if (listFiles) for (const f of w.jsFiles) console.log(`    ${String(f.gzip).padStart(6)}  ${f.how.padEnd(14)} ${f.url.replace(base, '')}`);
}
