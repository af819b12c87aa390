// `npm run client:generate`: writes the typed client's types (packages/client/src/schema.d.ts) from the current
// OpenAPI document, built in-process from the route contracts (no server is started). `--check` writes nothing and
// exits 1 when the committed file differs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { CLIENT_SCHEMA_FILE, renderClientSchema } from './lib/client-schema';

// The document reads the app's configuration (for its server URL, which the types do not carry): a throwaway session
// secret keeps that from needing one, or from writing one into DATA_DIR.
process.env.SESSION_SECRET ||= crypto.randomBytes(32).toString('hex');

async function loadDocument(): Promise<{ document: object; close: () => Promise<void> }> {
  // The document gathers the route contracts with import.meta.glob: loaded through Vite, as the app is.
  const { createServer } = await import('vite');
  const vite = await createServer({ server: { middlewareMode: true, hmr: false, watch: null }, appType: 'custom', logLevel: 'error' });
  const module = (await vite.ssrLoadModule('/app/routes/api+/__openapi-document.server.ts')) as { openApiDocument: () => object };
  return { document: module.openApiDocument(), close: () => vite.close() };
}

const { document, close } = await loadDocument();
try {
  const text = await renderClientSchema(document);
  if (process.argv.includes('--check')) {
    const same = fs.existsSync(CLIENT_SCHEMA_FILE) && fs.readFileSync(CLIENT_SCHEMA_FILE, 'utf8') === text;
    console.log(same ? `${CLIENT_SCHEMA_FILE} is up to date` : `${CLIENT_SCHEMA_FILE} is stale: run npm run client:generate`);
    process.exitCode = same ? 0 : 1;
  } else {
    fs.writeFileSync(path.resolve(CLIENT_SCHEMA_FILE), text);
    console.log(`${Object.keys((document as { paths: object }).paths).length} paths → ${CLIENT_SCHEMA_FILE}`);
  }
} finally {
  await close();
}
