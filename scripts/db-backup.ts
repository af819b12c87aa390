// `npm run db:backup [FILE]`: a consistent backup of the configured database (db/backup.ts), written 0600. Without
// FILE it writes backups/lvyou-<driver>-<time>.(dump|tar.gz) (the folder kept 0700). PGlite: stop the server first
// (refused, exit 3, while it holds DATA_DIR).
import fs from 'node:fs';
import { databaseLocation } from '~/env.server';
import { backup, BACKUP_DIR_MODE, BackupRefused, type BackupTarget } from '~db/backup';

const DEFAULT_FOLDER = 'backups';
const config = databaseLocation();
const target: BackupTarget = config.DATABASE_URL ? { driver: 'pg', url: config.DATABASE_URL } : { driver: 'pglite', dataDir: config.DATA_DIR };
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
let file = process.argv[2];
if (!file) {
  file = `${DEFAULT_FOLDER}/lvyou-${target.driver}-${stamp}.${target.driver === 'pg' ? 'dump' : 'tar.gz'}`;
  // Our own folder: closed to others even if an older version made it 0755.
  fs.mkdirSync(DEFAULT_FOLDER, { recursive: true, mode: BACKUP_DIR_MODE });
  fs.chmodSync(DEFAULT_FOLDER, BACKUP_DIR_MODE);
}
try {
  await backup(target, file);
  console.log(`Backup of the ${target.driver === 'pg' ? 'PostgreSQL' : 'embedded'} database written to ${file}`);
} catch (error) {
  console.error(`Backup ${error instanceof BackupRefused ? 'refused' : 'failed'}: ${(error as Error).message}`);
  process.exit(error instanceof BackupRefused ? 3 : 1);
}
