// Compiles server.ts (and what it imports from app/ and db/) to build/server.js; packages stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['server.ts'],
  outfile: 'build/server.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
  alias: { '~': './app', '~db': './db' },
  loader: { '.json': 'json' },
});
console.log('built build/server.js');
