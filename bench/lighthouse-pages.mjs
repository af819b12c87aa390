// Lighthouse on the pages a logged-in traveler opens (issue 24: ≥ 90 on /booking/:guideId, /orders/:id and /chat),
// next to the public ones: a report, not a test. It builds nothing: run `npm run build` first.
//
//   npm run build && node bench/lighthouse-pages.mjs
//
// Starts the built server (build/server.js, NODE_ENV=production) on a temporary DATA_DIR with SEED=demo, logs in
// as a demo traveler through the real login form (POST /login, the __session cookie) and the API (a bearer token
// to find the traveler's orders), agrees to the current terms once if the server asks for it (a returning user
// has; otherwise every logged-in page would be measured under the terms modal), picks the first guide of
// GET /api/v1/guides and the traveler's first confirmed order (else any), checks every page answers 200 to that
// cookie, then runs Lighthouse (mobile preset, simulated throttling, the perf kit's Lighthouse and Chromium flags)
// PERF_LH_RUNS times (default 3) on /, /guides, /guides/:id, /booking/:guideId, /orders/:id and /chat, pages
// interleaved within a run, every request carrying the cookie as an extra header. Prints the median performance
// and accessibility scores, LCP and TBT, and the audits that failed in the accessibility category.
//
// Environment
//   PERF_KIT_DIR    the perf kit with lighthouse and chrome-launcher in node_modules (default ../shared/perf from
//                   the project, else /work/shared/perf); `cd $PERF_KIT_DIR && npm ci` when node_modules is missing
//   PERF_CHROME     Chromium (default /usr/bin/chromium)
//   PERF_LH_RUNS    runs per page (default 3)
//   LH_TRAVELER     the demo traveler's email (default pinyen.chen@demo.travel-assistant.tw; password demo1234)
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.PERF_LH_RUNS || 3);
const CHROME_PATH = process.env.PERF_CHROME || '/usr/bin/chromium';
// The perf kit's flags (../shared/perf/servers.mjs CHROME_FLAGS).
const CHROME_FLAGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
const TRAVELER = process.env.LH_TRAVELER || 'pinyen.chen@demo.travel-assistant.tw';
const PASSWORD = 'demo1234';
const log = (s = '') => process.stdout.write(`${s}\n`);
const note = (s) => process.stderr.write(`${s}\n`);

function perfKit() {
  const candidates = [process.env.PERF_KIT_DIR, path.resolve(ROOT, '../shared/perf'), '/work/shared/perf'].filter(Boolean);
  const dir = candidates.find((d) => fs.existsSync(path.join(d, 'node_modules/lighthouse/package.json')));
  if (!dir) throw new Error(`no perf kit with node_modules/lighthouse in ${candidates.join(', ')} (cd there && npm ci)`);
  return dir;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function waitForPing(base, child) {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/ping`)).status === 200) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error('server did not answer /api/ping');
}

const median = (xs) => {
  const v = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  return v.length ? (v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2) : null;
};

async function json(res, what) {
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** The session cookie from the real login form (a same-origin form post, as a browser sends it). */
async function loginCookie(base) {
  const res = await fetch(`${base}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: base, 'Accept-Language': 'zh-TW' },
    body: new URLSearchParams({ email: TRAVELER, password: PASSWORD }),
  });
  const session = res.headers.getSetCookie().map((c) => c.split(';')[0]).find((c) => c.startsWith('__session='));
  if (!session) throw new Error(`login form: HTTP ${res.status}, no __session cookie`);
  return session;
}

async function setUp(base) {
  const cookie = await loginCookie(base);
  const { data: auth } = await json(await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: TRAVELER, password: PASSWORD }),
  }), 'API login');
  const bearer = { Authorization: `Bearer ${auth.token}` };
  const status = await json(await fetch(`${base}/api/v1/terms/agreement-status`, { headers: bearer }), 'terms status');
  let agreed = false;
  if (status.data?.requiresAgreement) {
    const { data: terms } = await json(await fetch(`${base}/api/terms/current`), 'current terms');
    await json(await fetch(`${base}/api/terms/agree`, {
      method: 'POST', headers: { ...bearer, 'Content-Type': 'application/json' }, body: JSON.stringify({ termsId: terms.id, termsVersion: terms.version }),
    }), 'agree to the terms');
    agreed = true;
  }
  const { data: guides } = await json(await fetch(`${base}/api/v1/guides?limit=1`), 'guides');
  const guideId = guides.guides[0]?.id;
  if (!guideId) throw new Error('no guide in GET /api/v1/guides');
  const { data: orders } = await json(await fetch(`${base}/api/v1/orders?limit=100`, { headers: bearer }), 'orders');
  const order = orders.orders.find((o) => o.status === 'confirmed') ?? orders.orders[0];
  if (!order) throw new Error(`${TRAVELER} has no order`);
  const paths = ['/', '/guides', `/guides/${guideId}`, `/booking/${guideId}`, `/orders/${order.id}`, '/chat'];
  for (const p of paths) {
    const res = await fetch(`${base}${p}`, { redirect: 'manual', headers: { Cookie: cookie, Accept: 'text/html' } });
    if (res.status !== 200) throw new Error(`${p} answered ${res.status} to the traveler's cookie`);
  }
  return { cookie, paths, agreed, order };
}

async function main() {
  if (!fs.existsSync(path.join(ROOT, 'build/server.js'))) throw new Error('build/server.js is missing: run npm run build first');
  const kit = perfKit();
  const kitRequire = createRequire(path.join(kit, 'package.json'));
  const { default: lighthouse } = await import(pathToFileURL(kitRequire.resolve('lighthouse')).href);
  const chromeLauncher = await import(pathToFileURL(kitRequire.resolve('chrome-launcher')).href);
  const lhVersion = JSON.parse(fs.readFileSync(path.join(kit, 'node_modules/lighthouse/package.json'), 'utf8')).version;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lh-pages-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), SEED: 'demo', PUBLIC_URL: base, SESSION_SECRET: crypto.randomBytes(32).toString('hex') };
  for (const key of ['DATABASE_URL', 'TEST_DATABASE_URL', 'SMTP_URL']) delete env[key];
  const server = spawn(process.execPath, [path.join(ROOT, 'build/server.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
  let chrome;
  try {
    await waitForPing(base, server);
    const { cookie, paths, agreed, order } = await setUp(base);
    note(`${TRAVELER}: order ${order.id} (${order.status})${agreed ? '; agreed to the current terms first' : ''}`);
    chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    const runs = Object.fromEntries(paths.map((p) => [p, []]));
    for (let i = 1; i <= RUNS; i++) {
      for (const p of paths) {
        const result = await lighthouse(`${base}${p}`, {
          port: chrome.port, logLevel: 'error', onlyCategories: ['performance', 'accessibility'], extraHeaders: { Cookie: cookie },
        });
        const { lhr } = result;
        const failing = lhr.categories.accessibility.auditRefs
          .filter((ref) => ref.weight > 0 && typeof lhr.audits[ref.id]?.score === 'number' && lhr.audits[ref.id].score < 1)
          .map((ref) => ref.id);
        const r = {
          perf: lhr.categories.performance.score === null ? null : Math.round(lhr.categories.performance.score * 100),
          a11y: lhr.categories.accessibility.score === null ? null : Math.round(lhr.categories.accessibility.score * 100),
          lcp: lhr.audits['largest-contentful-paint']?.numericValue,
          tbt: lhr.audits['total-blocking-time']?.numericValue,
          finalUrl: lhr.finalDisplayedUrl,
          failing,
          error: lhr.runtimeError?.message,
        };
        runs[p].push(r);
        note(`  ${p.padEnd(44)} run ${i}/${RUNS}: perf ${r.perf ?? '-'}, a11y ${r.a11y ?? '-'}, LCP ${Math.round(r.lcp ?? NaN)} ms, TBT ${Math.round(r.tbt ?? NaN)} ms${r.error ? ` ERROR ${r.error}` : ''}`);
      }
    }
    const fmt = (v) => (typeof v === 'number' ? String(Math.round(v)) : '-');
    log(`\nLighthouse ${lhVersion} mobile (simulated throttling), logged in as ${TRAVELER}, medians of ${RUNS} runs`);
    log(`${'page'.padEnd(44)}  ${'perf'.padStart(4)}  ${'a11y'.padStart(4)}  ${'LCP ms'.padStart(7)}  ${'TBT ms'.padStart(6)}`);
    for (const p of paths) {
      const list = runs[p];
      log(`${p.padEnd(44)}  ${fmt(median(list.map((r) => r.perf))).padStart(4)}  ${fmt(median(list.map((r) => r.a11y))).padStart(4)}  ${fmt(median(list.map((r) => r.lcp))).padStart(7)}  ${fmt(median(list.map((r) => r.tbt))).padStart(6)}`);
      const failing = [...new Set(list.flatMap((r) => r.failing))];
      if (failing.length) log(`  accessibility audits failing on ${p}: ${failing.join(', ')}`);
      const errors = list.filter((r) => r.error);
      if (errors.length) log(`  ${errors.length} of ${RUNS} runs on ${p} failed (median of the others): ${[...new Set(errors.map((r) => r.error))].join('; ')}`);
      const moved = [...new Set(list.map((r) => r.finalUrl).filter((u) => u && new URL(u).pathname !== p))];
      if (moved.length) log(`  WARNING ${p} ended at ${moved.join(', ')}`);
    }
  } finally {
    chrome?.kill();
    server.kill('SIGTERM');
    await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  note(`lighthouse-pages failed: ${e?.stack || e}`);
  process.exitCode = 1;
});
