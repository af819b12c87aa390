// Run first by `npm start` (package.json): in a source checkout, build once if there is no build or it is older
// than the sources. An image carries the build without its sources (no app/): it serves what it has.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import { isBuildStale } from './lib/build-freshness.mjs';

if (fs.existsSync('app') && isBuildStale()) {
  console.log('Building the production bundle…');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
