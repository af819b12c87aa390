// `npm run db:restore FILE [--force]`: restores a backup of `npm run db:backup` into the configured database
// (db/backup.ts), all or nothing (PostgreSQL: one transaction; PGlite: built beside and switched). Refuses a
// database that is not empty unless --force. PGlite: stop the server first (refused, exit 3, while it holds DATA_DIR).
import { databaseLocation } from '~/env.server';
import { restore, RestoreRefused, type BackupTarget } from '~db/backup';

const args = process.argv.slice(2);
const force = args.includes('--force');
const file = args.find((a) => !a.startsWith('--'));
if (!file) {
  console.error('usage: npm run db:restore FILE [--force]');
  process.exit(2);
}
const config = databaseLocation();
const target: BackupTarget = config.DATABASE_URL ? { driver: 'pg', url: config.DATABASE_URL } : { driver: 'pglite', dataDir: config.DATA_DIR };
try {
  await restore(target, file, { force });
  console.log(`Restored ${file} into the ${target.driver === 'pg' ? 'PostgreSQL' : 'embedded'} database`);
} catch (error) {
  console.error(`Restore ${error instanceof RestoreRefused ? 'refused' : 'failed'}: ${(error as Error).message}`);
  process.exit(error instanceof RestoreRefused ? 3 : 1);
}
