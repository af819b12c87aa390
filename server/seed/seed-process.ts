// The demo seed as a process of its own (build/seed.js), started by the server on a first start that
// needs the demo data (for a new embedded database, before the server opens it at all). Generating the pictures and hashing passwords raises the memory high-water mark
// (sharp's buffers, and with PGlite the WASM heap, which never shrinks); in a child that exits, none of it
// stays with the server for its lifetime (issue 8: RSS after load).
import { getConfig } from '~/env.server';
import { setDatabase } from '~db/client';
import { seedDemo } from './demo';
import { configuredAdmin, logSeedResult, openConfiguredDatabase } from '../startup';

const config = getConfig();
const handle = await openConfiguredDatabase(config);
setDatabase(handle);
try {
  // On a first start the database is new: this process creates and migrates it too.
  await handle.migrate();
  const result = await seedDemo(handle.db, { admin: configuredAdmin(config), supportEmail: config.SUPPORT_EMAIL });
  logSeedResult(result);
  // The server prints a generated admin login again as its last start-up line (startupSummary).
  if (process.send && result.demoAdmin) {
    const message = { demoAdmin: result.demoAdmin };
    await new Promise<void>((resolve, reject) => process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())));
  }
} finally {
  await handle.close();
}
