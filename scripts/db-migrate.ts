// `npm run db:migrate`: applies the committed migrations to the configured database (start does this too).
import { databaseLocation } from '~/env.server';
import { openConfiguredDatabase } from '~server/startup';

const config = databaseLocation();
const handle = await openConfiguredDatabase(config);
await handle.migrate();
console.log(`Migrations applied (${handle.driver}).`);
await handle.close();
