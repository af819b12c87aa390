// The Node flags `npm start` runs the production server with (docs/decisions/013), read from package.json's
// start script, the one place they are written, so the benches measure the server as it runs in production.
import fs from 'node:fs';

export function serverNodeFlags(root = '.') {
  const start = JSON.parse(fs.readFileSync(`${root}/package.json`, 'utf8')).scripts.start;
  return start.match(/--[\w-]+(?:=\S+)?/g) ?? [];
}
