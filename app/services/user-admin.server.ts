import { getDb, type Database } from '~db/client';
import type { UserRow } from './users.server';

/**
 * Admin moderation of accounts (SPEC §4 Users: archive/restore, block/unblock; §7 Users list).
 * Being written now; signatures are fixed so routes can import them.
 */
export async function archiveUser(actor: UserRow, userId: number, db: Database = getDb()): Promise<UserRow> {
  void actor;
  void userId;
  void db;
  throw new Error('archiveUser: not written yet');
}
