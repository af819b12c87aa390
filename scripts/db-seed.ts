// `npm run db:seed`: applies migrations and loads the demo data into the configured database if it is empty.
import { getConfig } from '~/env.server';
import { openDatabase } from '~db/client';
import { setDatabase } from '~db/client';
import { seedDemo } from '~db/seed';

const config = getConfig();
const handle = await openDatabase(config.DATABASE_URL ? { url: config.DATABASE_URL } : { dataDir: config.DATA_DIR });
setDatabase(handle);
await handle.migrate();
const admin = config.ADMIN_EMAIL && config.ADMIN_PASSWORD ? { email: config.ADMIN_EMAIL, password: config.ADMIN_PASSWORD } : undefined;
const result = await seedDemo(handle.db, { admin });
if (!result.seeded) {
  console.log('The database already has data; nothing seeded.');
} else {
  console.log(`Seeded ${result.guides} guides, ${result.travelers} travelers, ${result.orders} orders, ${result.reviews} reviews.`);
  if (result.demoAdmin) console.log(`Demo admin: ${result.demoAdmin.email} / ${result.demoAdmin.password}`);
}
await handle.close();
