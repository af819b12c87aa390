// Compiles server.ts (and what it imports from app/, db/ and server/) to build/server.js, and the demo seed the server
// runs as a child process on a first start to build/seed.js; packages stay external.
import { build } from 'esbuild';

await build({
  entryPoints: { server: 'server.ts', seed: 'server/seed/seed-process.ts' },
  outdir: 'build',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  alias: { '~': './app', '~db': './db', '~server': './server' },
  loader: { '.json': 'json' },
});
console.log('built build/server.js and build/seed.js');
