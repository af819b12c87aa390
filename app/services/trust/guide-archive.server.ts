import { getDb, type Database } from '~db/client';
import { findGuide } from './guide-standing.server';
import { archiveUser } from '../accounts/user-admin.server';
import type { UserRow } from '../accounts/users.server';

/**
 * DELETE /api/v1/guides/{id} (admin, issue 11): archives the guide's account the way DELETE /api/v1/users/{id}
 * does (hidden everywhere, sessions end, audited as user.archive); anyone but a guide is GUIDE_NOT_FOUND.
 * Kept apart from guide-standing.server.ts, which guides.server.ts imports (user-admin imports guides).
 */
export async function archiveGuide(admin: UserRow, guideId: number, db: Database = getDb()): Promise<UserRow> {
  await findGuide(guideId, db, { includeArchived: true });
  return archiveUser(admin, guideId, db);
}
