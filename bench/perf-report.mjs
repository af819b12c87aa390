// Speed report of the production build (issue 8's figures): req/s and latency of /guides and /api/ping under
// load, server RSS after the load, and the first-load weight of /, /guides and one /guides/:id (HTML, JS, CSS and
// the translation files the page preloads, gzip -9). A report, never a test: figures depend on the machine, so
// compare runs made on the same one, or use ../shared/perf/bench.mjs for ratios against a bare Remix app.
//
// Usage: npm run build && node bench/perf-report.mjs [base-url]
//   Without base-url it starts build/server.js itself (fresh DATA_DIR, SEED=demo, NODE_ENV=production) and stops it.
//   PERF_DURATION_S (default 10), PERF_CONNECTIONS (default 50) set the load.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { serverNodeFlags } from './lib/server-flags.mjs';

const DURATION_S = Number(process.env.PERF_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.PERF_CONNECTIONS ?? 50);
const TARGETS = { htmlGuidesKiB: 6, jsKiB: 100, rssMiB: 400 };

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

let child;
let dataDir;
let base = process.argv[2]?.replace(/\/$/, '');
if (!base) {
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'perf-report-'));
  base = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [...serverNodeFlags(), 'build/server.js'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SEED: 'demo', NODE_ENV: 'production', PUBLIC_URL: base,
      SESSION_SECRET: process.env.SESSION_SECRET ?? `perf-report-${Math.random().toString(36).slice(2)}-0123456789abcdef` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    child?.kill('SIGTERM');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  process.on('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
  const deadline = Date.now() + 90_000;
  for (;;) {
    const ok = await fetch(`${base}/api/ping`).then((r) => r.ok, () => false);
    if (ok) break;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** CONNECTIONS loops of sequential requests for DURATION_S seconds (after 2 s of warm-up). */
async function load(path, accept) {
  const run = async (seconds, latencies) => {
    const end = Date.now() + seconds * 1000;
    let count = 0;
    let failed = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < end) {
          const start = performance.now();
          const res = await fetch(base + path, { headers: { Accept: accept } }).catch(() => null);
          if (res) await res.arrayBuffer();
          latencies?.push(performance.now() - start);
          count++;
          if (!res?.ok) failed++;
        }
      }),
    );
    return { count, failed };
  };
  await run(2);
  const latencies = [];
  const cpuBefore = serverCpuMs();
  const { count, failed } = await run(DURATION_S, latencies);
  // CPU the server spent per answer: unlike req/s it hardly moves when other programs share the machine.
  const cpuPerRequest = (serverCpuMs() - cpuBefore) / count;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { rps: count / DURATION_S, p50: pct(0.5), p99: pct(0.99), failed, cpuPerRequest };
}

/** User + system CPU time of the server process so far (Linux /proc; NaN for an external server). */
function serverCpuMs() {
  if (!child) return NaN;
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const gz = (buf) => gzipSync(buf, { level: 9 }).length;
const kib = (bytes) => (bytes / 1024).toFixed(1);
const get = async (url) => {
  const res = await fetch(url, { headers: { Accept: 'text/html' } });
  if (!res.ok) throw new Error(`${url}: ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
};

async function weigh(path) {
  const html = (await get(base + path)).toString();
  const attr = (re) => new Set([...html.matchAll(re)].map((m) => m[1] ?? m[2]));
  const js = attr(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="([^"]+\.js)"|import\s*(?:\(|[^"']*from\s*)["']([^"']+\.js)["']/g);
  const css = attr(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+\.css)"/g);
  const i18n = attr(/<link[^>]*href="([^"]+\.json)"[^>]*data-i18n/g);
  const sum = async (urls) => (await Promise.all([...urls].map(async (u) => gz(await get(new URL(u, base).href))))).reduce((a, b) => a + b, 0);
  return { path, html: gz(Buffer.from(html)), js: await sum(js), jsFiles: js.size, css: await sum(css), i18n: await sum(i18n), i18nFiles: i18n.size };
}

const guidesHtml = (await get(`${base}/guides`)).toString();
const detail = guidesHtml.match(/href="(\/guides\/\d+)"/)?.[1];
const pages = await Promise.all(['/', '/guides', ...(detail ? [detail] : [])].map(weigh));

const results = [];
for (const [path, accept] of [['/guides', 'text/html'], ['/api/ping', 'application/json']]) {
  process.stderr.write(`loading ${path} for ${DURATION_S} s with ${CONNECTIONS} connections…\n`);
  results.push({ path, ...(await load(path, accept)) });
}
const rss = child ? Number(readFileSync(`/proc/${child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1] ?? NaN) / 1024 : NaN;

console.log(`\nLoad (${CONNECTIONS} connections, ${DURATION_S} s, load generator on the same machine)`);
console.log('path'.padEnd(14), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'failed'.padStart(7), 'server CPU ms/req'.padStart(18));
for (const r of results) {
  console.log(r.path.padEnd(14), r.rps.toFixed(0).padStart(8), r.p50.toFixed(0).padStart(8), r.p99.toFixed(0).padStart(8), String(r.failed).padStart(7), r.cpuPerRequest.toFixed(2).padStart(18));
}
console.log(`server RSS after load: ${child ? `${rss.toFixed(0)} MiB (target ≤ ${TARGETS.rssMiB} on PGlite)` : 'n/a (external server)'}`);
console.log('\nFirst-load weight, gzip -9 (KiB); i18n = translation files the page preloads (cached for good after the first page)');
console.log('page'.padEnd(14), 'HTML'.padStart(6), 'JS (files)'.padStart(12), 'CSS'.padStart(6), 'i18n (files)'.padStart(13));
for (const p of pages) {
  console.log(p.path.padEnd(14), kib(p.html).padStart(6), `${kib(p.js)} (${p.jsFiles})`.padStart(12), kib(p.css).padStart(6), `${kib(p.i18n)} (${p.i18nFiles})`.padStart(13));
}
const guides = pages.find((p) => p.path === '/guides');
const worstJs = Math.max(...pages.map((p) => p.js));
console.log(`\ntargets: HTML of /guides ${kib(guides.html)} KiB (≤ ${TARGETS.htmlGuidesKiB}) · first-load JS max ${kib(worstJs)} KiB (≤ ${TARGETS.jsKiB})`);
console.log('req/s ratios against bare Remix: PROJECT_DIR=. node ../shared/perf/bench.mjs');
process.exit(0);
