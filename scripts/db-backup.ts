// `npm run db:backup [FILE]`: a consistent backup of the configured database (db/backup.ts). Without FILE it
// writes backups/lvyou-<driver>-<time>.(dump|tar.gz). PGlite: stop the server first.
import { getConfig } from '~/env.server';
import { backup, type BackupTarget } from '~db/backup';

const config = getConfig();
const target: BackupTarget = config.DATABASE_URL ? { driver: 'pg', url: config.DATABASE_URL } : { driver: 'pglite', dataDir: config.DATA_DIR };
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const file = process.argv[2] ?? `backups/lvyou-${target.driver}-${stamp}.${target.driver === 'pg' ? 'dump' : 'tar.gz'}`;
try {
  await backup(target, file);
  console.log(`Backup of the ${target.driver === 'pg' ? 'PostgreSQL' : 'embedded'} database written to ${file}`);
} catch (error) {
  console.error(`Backup failed: ${(error as Error).message}`);
  process.exit(1);
}
