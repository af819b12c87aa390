// `npm run db:migrate`: applies the committed migrations to the configured database (start does this too).
import { getConfig } from '~/env.server';
import { openDatabase } from '~db/client';

const config = getConfig();
const handle = await openDatabase(config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: config.DATA_DIR });
await handle.migrate();
console.log(`Migrations applied (${handle.driver}).`);
await handle.close();
