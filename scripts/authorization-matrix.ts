// `npx tsx scripts/authorization-matrix.ts`: writes docs/authorization-matrix.json (read by
// tests/integration/security/authorization-matrix.test.ts) and docs/authorization-matrix.md (the same table for
// people) from the Remix route manifest (every page and resource route with its loader/action), the /api/v1
// contracts (methods and who may call them) and the policy in scripts/authorization-policy.ts. A route or
// method without a policy entry stops the script: new routes are added to the table consciously.
// `--check` writes nothing and exits 1 when the checked-in files differ from what would be written.
import fs from 'node:fs';
import path from 'node:path';
import type { ServerBuild } from '@remix-run/node';
import { buildMatrix, matrixMarkdown } from './lib/authorization-matrix';
import { manifestRoutes } from './lib/route-manifest';

const JSON_FILE = 'docs/authorization-matrix.json';
const MD_FILE = 'docs/authorization-matrix.md';

async function loadBuild(): Promise<{ build: ServerBuild; close: () => Promise<void> }> {
  const { createServer } = await import('vite');
  const vite = await createServer({ server: { middlewareMode: true, hmr: false, watch: null }, appType: 'custom', logLevel: 'error' });
  const build = (await vite.ssrLoadModule('virtual:remix/server-build')) as ServerBuild;
  return { build, close: () => vite.close() };
}

const { build, close } = await loadBuild();
try {
  const matrix = buildMatrix(manifestRoutes(build));
  const json = `${JSON.stringify(matrix, null, 1)}\n`;
  const md = matrixMarkdown(matrix);
  if (process.argv.includes('--check')) {
    const same = fs.readFileSync(JSON_FILE, 'utf8') === json && fs.readFileSync(MD_FILE, 'utf8') === md;
    console.log(same ? 'authorization matrix is up to date' : `authorization matrix is stale: run npx tsx scripts/authorization-matrix.ts`);
    process.exitCode = same ? 0 : 1;
  } else {
    fs.writeFileSync(path.resolve(JSON_FILE), json);
    fs.writeFileSync(path.resolve(MD_FILE), md);
    console.log(`${matrix.cells.length} cells over ${matrix.routes.length} route methods → ${JSON_FILE}, ${MD_FILE}`);
  }
} finally {
  await close();
}
