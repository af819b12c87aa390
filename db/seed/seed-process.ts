// The demo seed as a process of its own (build/seed.js), started by the server on a first start that
// needs the demo data (for a new embedded database, before the server opens it at all). Generating the pictures and hashing passwords raises the memory high-water mark
// (sharp's buffers, and with PGlite the WASM heap, which never shrinks); in a child that exits, none of it
// stays with the server for its lifetime (issue 8: RSS after load).
import { getConfig } from '~/env.server';
import { setDatabase } from '~db/client';
import { seedDemo } from './demo';
import { configuredAdmin, logSeedResult, openConfiguredDatabase } from './startup';

const config = getConfig();
const handle = await openConfiguredDatabase(config);
setDatabase(handle);
try {
  // On a first start the database is new: this process creates and migrates it too.
  await handle.migrate();
  logSeedResult(await seedDemo(handle.db, { admin: configuredAdmin(config), supportEmail: config.SUPPORT_EMAIL }));
} finally {
  await handle.close();
}
