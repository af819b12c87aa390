// `npm start`: build once if there is no build (or it is older than the sources), then serve it.
import { spawn, spawnSync } from 'node:child_process';
import { isBuildStale } from './lib/build-freshness.mjs';

if (isBuildStale()) {
  console.log('Building the production bundle…');
  const result = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, ['--enable-source-maps', 'build/server.js'], {
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
