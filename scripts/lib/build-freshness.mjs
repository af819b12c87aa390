// Whether `build/` is missing or older than the sources it is made from (used by `npm start` and its test).
import fs from 'node:fs';
import path from 'node:path';

const OUTPUTS = ['build/server.js', 'build/server/index.js', 'build/client'];
const SOURCES = ['app', 'db', 'public', 'server', 'server.ts', 'package.json', 'vite.config.ts'];

function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...fs.readdirSync(p).map((f) => newestMtime(path.join(p, f))));
}

export function isBuildStale(root = process.cwd()) {
  const at = (p) => path.join(root, p);
  if (!OUTPUTS.every((o) => fs.existsSync(at(o)))) return true;
  const builtAt = Math.min(fs.statSync(at('build/server.js')).mtimeMs, fs.statSync(at('build/server/index.js')).mtimeMs);
  return Math.max(...SOURCES.map((s) => newestMtime(at(s)))) > builtAt;
}
