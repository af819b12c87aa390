// First-load weight of the server-rendered pages, counted as ../shared/perf/bench.mjs counts it: the HTML
// (fetched with a browser's Accept and no cookies or Accept-Language, so zh-TW), every <script src>,
// <link rel=modulepreload> (and preload as=script), the imports of the inline module scripts and the static
// imports at the top of those chunks; stylesheets. Each file is gzipped on its own at level 9, here.
// Usage: node bench/page-weight.mjs [base-url] [--files]   (default http://localhost:3000; start the server first)
// PAGES=/me,/orders (instead of the default pages) and COOKIE='session=...' (sent with the pages, e.g. to weigh
// logged-in pages) are optional.
// Prints bytes and KiB per page, and the targets (issue 8): /guides HTML ≤ 6 KiB, JS of /, /guides and a
// guide page ≤ 100 KiB. `--files` also lists each JS file with how it was found and its gzip bytes.
import { gzipBytes, weighPage } from '../scripts/lib/page-weight.mjs';

const args = process.argv.slice(2);
const listFiles = args.includes('--files');
const base = (args.find((a) => !a.startsWith('--')) ?? 'http://localhost:3000').replace(/\/$/, '');
const pages = process.env.PAGES ? process.env.PAGES.split(',') : ['/', '/guides', '/guides?page=2', '/terms'];
const cookie = process.env.COOKIE ? { cookie: process.env.COOKIE } : {};
const HTML_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const KIB = 1024;
/** Targets in gzip bytes (issue 8); pages not listed have none. */
const TARGETS = { '/guides': { html: 6 * KIB, js: 100 * KIB }, '/': { js: 100 * KIB }, detail: { js: 100 * KIB } };

const gz = gzipBytes;

const assets = new Map();
function fetchAsset(url) {
  if (!assets.has(url)) {
    assets.set(
      url,
      fetch(url).then(async (res) => {
        if (!res.ok) throw new Error(`${url}: ${res.status}`);
        return Buffer.from(await res.arrayBuffer());
      }),
    );
  }
  return assets.get(url);
}

async function pageWeight(path) {
  const res = await fetch(base + path, { headers: { accept: HTML_ACCEPT, ...cookie }, redirect: 'manual' });
  if (!res.ok) throw new Error(`${path}: ${res.status}`);
  const html = await res.text();
  return { ...(await weighPage(html, res.url || base + path, fetchAsset)), html$: html };
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
