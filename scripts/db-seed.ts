// `npm run db:seed`: applies migrations and loads the demo data into the configured database if it is empty.
import { getConfig } from '~/env.server';
import { setDatabase } from '~db/client';
import { seedDemo } from '~server/seed/demo';
import { configuredAdmin, logSeedResult, openConfiguredDatabase } from '~server/startup';

const config = getConfig();
const handle = await openConfiguredDatabase(config);
setDatabase(handle);
await handle.migrate();
logSeedResult(await seedDemo(handle.db, { admin: configuredAdmin(config), supportEmail: config.SUPPORT_EMAIL }));
await handle.close();
