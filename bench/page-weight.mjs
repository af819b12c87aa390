// Page weight of the server-rendered pages: HTML, CSS and the JS each page loads, gzip-compressed.
// Usage: node bench/page-weight.mjs [base-url]   (default http://localhost:3000; start the server first)
// Prints bytes and, per page, the share of JS in the total, so runs on different machines compare as ratios.
import { gzipSync } from 'node:zlib';

const base = (process.argv[2] ?? 'http://localhost:3000').replace(/\/$/, '');
const pages = ['/', '/guides', '/guides?page=2', '/terms'];

async function text(url) {
  const res = await fetch(url, { headers: { 'Accept-Language': 'zh-TW' } });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return res.text();
}
const gz = (s) => gzipSync(Buffer.from(s), { level: 9 }).length;

const detail = await text(`${base}/guides`).then((html) => html.match(/href="(\/guides\/\d+)"/)?.[1]);
if (detail) pages.push(detail);

console.log('page'.padEnd(18), 'html.gz'.padStart(8), 'css.gz'.padStart(8), 'js.gz'.padStart(8), 'js files'.padStart(9), 'js share'.padStart(9));
for (const page of pages) {
  const html = await text(base + page);
  const js = new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"|import\("(\/assets\/[^"]+\.js)"\)/g)].map((m) => m[1] ?? m[2]));
  const css = new Set([...html.matchAll(/href="(\/assets\/[^"]+\.css)"/g)].map((m) => m[1]));
  let jsBytes = 0;
  for (const f of js) jsBytes += gz(await text(base + f));
  let cssBytes = 0;
  for (const f of css) cssBytes += gz(await text(base + f));
  const htmlBytes = gz(html);
  const share = jsBytes / (jsBytes + htmlBytes + cssBytes);
  console.log(page.padEnd(18), String(htmlBytes).padStart(8), String(cssBytes).padStart(8), String(jsBytes).padStart(8), String(js.size).padStart(9), `${(share * 100).toFixed(0)}%`.padStart(9));
}
