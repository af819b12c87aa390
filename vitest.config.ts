import os from 'node:os';
import { defineConfig } from 'vitest/config';
import tsconfigPaths from 'vite-tsconfig-paths';

// Unit and integration tests. Integration tests run against embedded PGlite by default and against
// PostgreSQL when TEST_DATABASE_URL is set (scripts/test.mjs runs the suite once per driver).
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    // One migrated embedded database that every PGlite test file starts from (tests/support/test-database.ts).
    globalSetup: ['tests/support/vitest-global-setup.ts'],
    // A fixed secret so tests never write one into ./data.
    env: { SESSION_SECRET: 'test-only-secret-0123456789abcdef0123456789' },
    // Worker threads, not child processes: PGlite's WebAssembly (about 9 MB) is compiled once per process and
    // shared by its threads, where every test file's own process compiled it again and ran it unoptimised at first
    // (PGlite suite 181 s → 121 s, PostgreSQL suite 129 s → 118 s on 2 cores; the same tests pass). Nothing here
    // needs a process of its own (no process.chdir; process.env is a copy per thread).
    pool: 'threads',
    // Vitest's default is one worker less than the cores: one worker on a 2-core CI machine, where test files
    // (the PGlite ones are CPU-bound WebAssembly) left a core idle. Every file has its own database.
    maxWorkers: Math.max(os.availableParallelism() - 1, 2),
    // A prebuilt Remix server bundle (TEST_SERVER_BUILD, tests/support/http-server.ts) is loaded by Node as it is,
    // not transformed and inlined by Vitest.
    server: { deps: { external: [/\/build\/server\//] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
