#!/usr/bin/env node
// The manifest's screenshots (issue 24): the home page in zh-TW, light, once wide (1280×720) and once narrow
// (390×844), as WebP under public/screenshots/. Run after `npm run build`; the pictures are committed, so run it
// again only when the home page changes noticeably:
//
//   npm run build && node scripts/manifest-screenshots.mjs
//
// It starts the built server (build/server.js) on a temporary DATA_DIR with SEED=demo and a free port, takes the
// pictures with Playwright and the system Chromium (CHROMIUM_PATH, default /usr/bin/chromium), converts them
// with sharp, and stops the server.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import sharp from 'sharp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'public/screenshots');
const SHOTS = [
  { file: 'home-wide.webp', width: 1280, height: 720 },
  { file: 'home-narrow.webp', width: 390, height: 844 },
];

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
  const deadline = Date.now() + 120_000;
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

if (!fs.existsSync(path.join(ROOT, 'build/server.js'))) throw new Error('build/server.js is missing: run npm run build first');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'manifest-shots-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const env = { ...process.env, NODE_ENV: 'production', DATA_DIR: dataDir, PORT: String(port), SEED: 'demo', PUBLIC_URL: base, SESSION_SECRET: crypto.randomBytes(32).toString('hex') };
delete env.DATABASE_URL;
const server = spawn(process.execPath, [path.join(ROOT, 'build/server.js')], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] });
let browser;
try {
  await waitForPing(base, server);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox'] });
  fs.mkdirSync(OUT, { recursive: true });
  for (const shot of SHOTS) {
    const context = await browser.newContext({
      viewport: { width: shot.width, height: shot.height },
      locale: 'zh-TW',
      colorScheme: 'light',
      serviceWorkers: 'block',
      extraHTTPHeaders: { 'Accept-Language': 'zh-TW' },
    });
    const page = await context.newPage();
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
    // The terms modal greets a first visit (SPEC §2); a screenshot shows the page itself.
    await page.evaluate(() => localStorage.setItem('hasVisited', 'true'));
    await page.goto(`${base}/`, { waitUntil: 'networkidle' });
    await page.evaluate(() => document.fonts.ready);
    const png = await page.screenshot({ type: 'png' });
    const target = path.join(OUT, shot.file);
    await sharp(png).webp({ quality: 72 }).toFile(target);
    console.log(`${shot.file}: ${shot.width}×${shot.height}, ${Math.round(fs.statSync(target).size / 1024)} KB`);
    await context.close();
  }
} finally {
  await browser?.close();
  server.kill('SIGTERM');
  await new Promise((r) => (server.exitCode !== null ? r() : server.once('exit', r)));
  fs.rmSync(dataDir, { recursive: true, force: true });
}
