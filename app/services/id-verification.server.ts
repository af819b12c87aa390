import { desc, eq } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { idVerifications } from '~db/schema';
import type { IdVerificationState } from '~/schemas/user-views';
import type { UserRow } from './users.server';

/* ID verification (SPEC §4). Applications and the admin review will join here. */

/**
 * SPEC §4 ID verification: verified once the account is ID-verified; otherwise the latest application
 * decides (pending or rejected, with the reviewer's notes); without one, not verified.
 */
export async function getIdVerificationState(
  user: Pick<UserRow, 'id' | 'isIdVerified' | 'idVerifiedAt' | 'idVerificationType'>,
  db: Database = getDb(),
): Promise<{ state: IdVerificationState; submittedAt: string | null; reviewNotes: string | null; verifiedAt: string | null }> {
  if (user.isIdVerified) {
    return { state: 'verified', submittedAt: null, reviewNotes: null, verifiedAt: user.idVerifiedAt?.toISOString() ?? null };
  }
  const [latest] = await db
    .select()
    .from(idVerifications)
    .where(eq(idVerifications.userId, user.id))
    .orderBy(desc(idVerifications.submittedAt), desc(idVerifications.id))
    .limit(1);
  if (!latest || latest.status === 'approved') {
    // An approved application whose flag was later withdrawn reads as not verified.
    return { state: 'not_verified', submittedAt: null, reviewNotes: null, verifiedAt: null };
  }
  return {
    state: latest.status,
    submittedAt: latest.submittedAt.toISOString(),
    reviewNotes: latest.reviewNotes,
    verifiedAt: null,
  };
}
