// A local cluster from real parts (issue 25, docs/decisions/023): Debian's nginx in front of two instances of the
// built server, on the PostgreSQL of DATABASE_URL and the Redis of REDIS_URL.
//
//   npm run cluster                      start (build when stale, instance a, then b, then nginx)
//   npm run cluster:stop                 stop nginx and both instances (each drains: SIGTERM)
//   node scripts/cluster.mjs restart a   restart one instance (SIGTERM, wait for its exit, start, wait ready)
//   node scripts/cluster.mjs status      what runs, where
//
// Settings (environment): DATABASE_URL, REDIS_URL (required); CLUSTER_PORT (nginx, 8080); CLUSTER_APP_PORTS
// (3101,3102); CLUSTER_DIR (.cluster: pid files, logs, rendered nginx config, the shared session secret);
// SESSION_SECRET (generated once into CLUSTER_DIR when unset); METRICS_PORT (instance a's, b takes the next);
// anything else the server reads (SEED,
// ADMIN_EMAIL, SMTP_URL, LOG_LEVEL, ...) is passed on to both instances.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.resolve(ROOT, process.env.CLUSTER_DIR || '.cluster');
const NGINX_PORT = Number(process.env.CLUSTER_PORT || 8080);
const APP_PORTS = (process.env.CLUSTER_APP_PORTS || '3101,3102').split(',').map(Number);
const NAMES = ['a', 'b'];
const NGINX_CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx'];

const say = (message) => console.log(`cluster: ${message}`);
function fail(message) {
  console.error(`cluster: ${message}`);
  process.exit(1);
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const pidFile = (name) => path.join(DIR, `${name}.pid`);
const instances = () => NAMES.map((name, i) => ({ name, port: APP_PORTS[i] }));

function readPid(name) {
  try {
    const pid = Number(fs.readFileSync(pidFile(name), 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

/** Debian's nginx: found, or installed with apt when we may, or a clear instruction. */
function findNginx() {
  const found = () => NGINX_CANDIDATES.find((p) => fs.existsSync(p));
  if (found()) return found();
  const isRoot = process.getuid?.() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (isRoot && hasApt) {
    say('nginx is not installed; installing Debian\'s nginx with apt-get');
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'nginx']]) {
      const result = spawnSync('apt-get', args, { stdio: 'inherit', env });
      if (result.status !== 0) fail(`apt-get ${args.join(' ')} failed`);
    }
    if (found()) return found();
  }
  fail('nginx is not installed. Install it first: sudo apt-get install nginx (Debian/Ubuntu), then run npm run cluster again.');
}

async function waitFor(url, { timeoutMs, status = 200, alive }) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (alive && !alive()) return false;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === status) return true;
    } catch {
      /* not up yet */
    }
    await sleep(200);
  }
  return false;
}

function sessionSecret() {
  if (process.env.SESSION_SECRET) return process.env.SESSION_SECRET;
  // Every instance must sign and read the same cookies: one secret for the cluster, kept with its state.
  const file = path.join(DIR, 'session-secret');
  if (!fs.existsSync(file)) fs.writeFileSync(file, crypto.randomBytes(32).toString('hex'), { mode: 0o600 });
  return fs.readFileSync(file, 'utf8').trim();
}

async function startInstance({ name, port }) {
  if (readPid(name)) fail(`instance ${name} already runs (pid ${readPid(name)}); npm run cluster:stop first`);
  const log = fs.openSync(path.join(DIR, `${name}.log`), 'a');
  const child = spawn(
    process.execPath,
    ['--enable-source-maps', '--max-semi-space-size=32', '--max-old-space-size=256', 'build/server.js'],
    {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        PORT: String(port),
        INSTANCE_NAME: name,
        SESSION_SECRET: sessionSecret(),
        PUBLIC_URL: process.env.PUBLIC_URL || `http://localhost:${NGINX_PORT}`,
        TRUST_PROXY: process.env.TRUST_PROXY || 'loopback',
        // METRICS_PORT for the cluster is the first instance's; the next one takes the next port.
        ...(process.env.METRICS_PORT ? { METRICS_PORT: String(Number(process.env.METRICS_PORT) + NAMES.indexOf(name)) } : {}),
      },
    },
  );
  child.unref();
  fs.writeFileSync(pidFile(name), String(child.pid));
  let exited = false;
  child.once('exit', () => (exited = true));
  const ready = await waitFor(`http://127.0.0.1:${port}/api/ready`, { timeoutMs: 120_000, alive: () => !exited });
  if (!ready) fail(`instance ${name} did not become ready on port ${port}; see ${path.join(DIR, `${name}.log`)}`);
  say(`instance ${name} ready on http://127.0.0.1:${port} (pid ${child.pid})`);
}

async function stopInstance(name) {
  const pid = readPid(name);
  if (!pid) return;
  process.kill(pid, 'SIGTERM');
  // The drain takes at most SHUTDOWN_TIMEOUT_MS (10 s) plus the closing steps.
  for (let i = 0; i < 300 && readPid(name); i++) await sleep(100);
  if (readPid(name)) fail(`instance ${name} (pid ${pid}) did not stop within 30 s`);
  fs.rmSync(pidFile(name), { force: true });
  say(`instance ${name} stopped`);
}

function renderNginxConfig() {
  const template = fs.readFileSync(path.join(ROOT, 'deploy/nginx/site.conf.template'), 'utf8');
  const site = template
    .replaceAll('{{LISTEN}}', `127.0.0.1:${NGINX_PORT}`)
    .replaceAll('{{APP_SERVERS}}', instances().map((i) => `server 127.0.0.1:${i.port} max_fails=0;`).join('\n  '))
    .replaceAll('{{ACCESS_LOG}}', path.join(DIR, 'nginx-access.log'));
  fs.writeFileSync(path.join(DIR, 'site.conf'), site);
  // The local wrapper around the site: its own prefix, pid, logs and temp files, so it runs beside any nginx.
  const temp = path.join(DIR, 'nginx-temp');
  fs.mkdirSync(temp, { recursive: true });
  const main = [
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    'worker_processes 1;',
    `pid ${path.join(DIR, 'nginx.pid')};`,
    `error_log ${path.join(DIR, 'nginx-error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  include /etc/nginx/mime.types;',
    `  client_body_temp_path ${temp}/body;`,
    `  proxy_temp_path ${temp}/proxy;`,
    `  fastcgi_temp_path ${temp}/fastcgi;`,
    `  uwsgi_temp_path ${temp}/uwsgi;`,
    `  scgi_temp_path ${temp}/scgi;`,
    `  include ${path.join(DIR, 'site.conf')};`,
    '}',
    '',
  ].join('\n');
  const file = path.join(DIR, 'nginx.conf');
  fs.writeFileSync(file, main);
  return file;
}

function nginxPid() {
  try {
    const pid = Number(fs.readFileSync(path.join(DIR, 'nginx.pid'), 'utf8'));
    process.kill(pid, 0);
    return pid;
  } catch {
    return undefined;
  }
}

async function start() {
  for (const name of ['DATABASE_URL', 'REDIS_URL']) {
    if (!process.env[name]) fail(`${name} is required: the instances share PostgreSQL and Redis (e.g. ${name === 'DATABASE_URL' ? 'postgres://postgres@127.0.0.1:5432/lvyou' : 'redis://127.0.0.1:6379'})`);
  }
  const nginx = findNginx();
  fs.mkdirSync(DIR, { recursive: true });
  const build = spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) fail('the build failed');
  // One after the other: the first start migrates the database (and seeds it when SEED=demo).
  for (const instance of instances()) await startInstance(instance);
  const config = renderNginxConfig();
  const test = spawnSync(nginx, ['-t', '-q', '-c', config], { stdio: 'inherit' });
  if (test.status !== 0) fail(`nginx rejected ${config}`);
  if (nginxPid()) fail('nginx of this cluster already runs; npm run cluster:stop first');
  const started = spawnSync(nginx, ['-c', config], { stdio: 'inherit' });
  if (started.status !== 0) fail('nginx did not start');
  if (!(await waitFor(`http://127.0.0.1:${NGINX_PORT}/api/ready`, { timeoutMs: 10_000 }))) fail('nginx does not answer');
  say(`nginx on http://127.0.0.1:${NGINX_PORT} in front of ${instances().map((i) => `${i.name} :${i.port}`).join(', ')}`);
  say(`logs in ${DIR}; stop with npm run cluster:stop`);
}

async function stop() {
  const pid = nginxPid();
  if (pid) {
    process.kill(pid, 'SIGQUIT');
    for (let i = 0; i < 100 && nginxPid(); i++) await sleep(100);
    say('nginx stopped');
  }
  await Promise.all(NAMES.map(stopInstance));
}

async function restart(name) {
  const instance = instances().find((i) => i.name === name);
  if (!instance) fail(`no instance ${name}; the instances are ${NAMES.join(', ')}`);
  await stopInstance(name);
  await startInstance(instance);
}

function status() {
  say(`nginx ${nginxPid() ? `runs (pid ${nginxPid()}) on :${NGINX_PORT}` : 'is not running'}`);
  for (const { name, port } of instances()) say(`instance ${name} ${readPid(name) ? `runs (pid ${readPid(name)}) on :${port}` : 'is not running'}`);
}

const [command = 'start', arg] = process.argv.slice(2);
const commands = { start, stop, restart: () => restart(arg), status };
if (!commands[command]) fail(`unknown command ${command}; use start, stop, restart a|b or status`);
await commands[command]();
