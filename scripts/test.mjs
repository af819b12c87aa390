// `npm test`: every check that needs no download, in order, stopping at the first failure:
//   1. type check
//   1b. boundary rule: dependency-cruiser with .dependency-cruiser.cjs (layers of ARCHITECTURE §1/§2, no cycles)
//   2. production build (build/): the HTTP tests below serve its Remix server bundle (TEST_SERVER_BUILD), which
//      loads in a fraction of a second where Vite's SSR loader compiles the app again in every test file (5-7 s)
//   3. vitest unit + integration against embedded PGlite
//   4. the same suite against PostgreSQL when TEST_DATABASE_URL is set (each test file copies a migrated template
//      database); TEST_REDIS_URL adds the cross-instance Socket.IO check through Redis
//   5. Playwright e2e against that build when /usr/bin/chromium exists (E2E_REQUIRED=1 makes a missing browser fatal)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

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

const npx = 'npx';
run('type check', npx, ['tsc', '--noEmit']);
run('boundary rule', npx, [
  'depcruise', 'app', 'db', 'server', 'server.ts', 'scripts',
  '--config', '.dependency-cruiser.cjs', '--output-type', 'err',
]);
run('production build', 'npm', ['run', 'build']);
const serverBuild = { TEST_SERVER_BUILD: 'build/server/index.js' };
run('unit + integration (PGlite)', npx, ['vitest', 'run'], { TEST_DRIVER: 'pglite', ...serverBuild });

if (process.env.TEST_DATABASE_URL) {
  run('integration (PostgreSQL)', npx, ['vitest', 'run', 'tests/integration'], { TEST_DRIVER: 'pg', ...serverBuild });
} else {
  console.log('\n– integration on PostgreSQL skipped: TEST_DATABASE_URL is not set');
}

if (fs.existsSync(CHROMIUM)) {
  run('end-to-end (Chromium, JS on and off)', npx, ['playwright', 'test']);
} else if (process.env.E2E_REQUIRED === '1') {
  console.error(`✗ end-to-end tests required (E2E_REQUIRED=1) but ${CHROMIUM} is missing: apt-get install chromium`);
  process.exit(1);
} else {
  console.log(`\n– end-to-end tests skipped: ${CHROMIUM} not found (apt-get install chromium)`);
}
console.log('\nAll tests passed.');
