import { eq, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { photos } from '~db/schema';

/* A guide's photos (SPEC §4). Uploads and the admin review will join here. */

/** How many of a guide's photos are approved and how many wait for review. */
export async function countGuidePhotos(guideId: number, db: Database = getDb()): Promise<{ approved: number; pending: number }> {
  const [row] = await db
    .select({
      approved: sql<number>`count(*) filter (where ${photos.status} = 'approved')`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${photos.status} = 'pending_review')`.mapWith(Number),
    })
    .from(photos)
    .where(eq(photos.guideId, guideId));
  return { approved: row?.approved ?? 0, pending: row?.pending ?? 0 };
}
