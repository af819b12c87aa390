// `npm test`: every check that needs no download, stopping at the first failed step:
//   1. type check, then the boundary rule (dependency-cruiser with .dependency-cruiser.cjs: layers of ARCHITECTURE
//      §1/§2, no cycles), while the production build (build/) runs beside them: the HTTP tests below serve its
//      Remix server bundle (TEST_SERVER_BUILD), which loads in a fraction of a second where Vite's SSR loader
//      compiles the app again in every test file (5-7 s)
//   2. vitest unit + integration against embedded PGlite, and beside it, when TEST_DATABASE_URL is set, the
//      integration tests against PostgreSQL (each test file copies a migrated template database; TEST_REDIS_URL
//      adds the cross-instance Socket.IO check through Redis). The PostgreSQL run waits on its database now and
//      then, and the PGlite run fills that time (about a tenth off the two runs one after the other).
//   3. Playwright e2e against that build when /usr/bin/chromium exists (E2E_REQUIRED=1 makes a missing browser fatal)
// Steps that run side by side print their output when they end, one after the other.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

/** Runs a command with its output shown as it comes. */
function run(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) {
    console.error(`✗ ${title} failed`);
    process.exit(result.status ?? 1);
  }
  console.log(`✓ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

/** Runs a command beside others, its output held back and printed when it ends; resolves to whether it passed. */
function runBeside(title, command, args, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (status) => {
      console.log(`\n▶ ${title}`);
      process.stdout.write(Buffer.concat(output));
      if (status === 0) console.log(`✓ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
      else console.error(`✗ ${title} failed`);
      resolve(status === 0);
    });
  });
}

/** Waits for steps that run side by side; stops `npm test` when one failed. */
async function all(steps) {
  if ((await Promise.all(steps)).includes(false)) process.exit(1);
}

const npx = 'npx';
await all([
  (async () =>
    (await runBeside('type check', npx, ['tsc', '--noEmit'])) &&
    runBeside('boundary rule', npx, [
      'depcruise', 'app', 'db', 'server', 'server.ts', 'scripts',
      '--config', '.dependency-cruiser.cjs', '--output-type', 'err',
    ]))(),
  runBeside('production build', 'npm', ['run', 'build']),
]);

const serverBuild = { TEST_SERVER_BUILD: 'build/server/index.js' };
const vitestRuns = [runBeside('unit + integration (PGlite)', npx, ['vitest', 'run'], { TEST_DRIVER: 'pglite', ...serverBuild })];
if (process.env.TEST_DATABASE_URL) {
  vitestRuns.push(runBeside('integration (PostgreSQL)', npx, ['vitest', 'run', 'tests/integration'], { TEST_DRIVER: 'pg', ...serverBuild }));
} else {
  console.log('\n– integration on PostgreSQL skipped: TEST_DATABASE_URL is not set');
}
await all(vitestRuns);

if (fs.existsSync(CHROMIUM)) {
  run('end-to-end (Chromium, JS on and off)', npx, ['playwright', 'test']);
} else if (process.env.E2E_REQUIRED === '1') {
  console.error(`✗ end-to-end tests required (E2E_REQUIRED=1) but ${CHROMIUM} is missing: apt-get install chromium`);
  process.exit(1);
} else {
  console.log(`\n– end-to-end tests skipped: ${CHROMIUM} not found (apt-get install chromium)`);
}
console.log('\nAll tests passed.');
