import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { availabilitySlots } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';

/* A guide's availability slots (SPEC §9). Opening and closing slots will join here. */

/** Available slots a guide has from today to 60 days ahead (the availability window, SPEC §9). */
export async function countAvailableSlots(guideId: number, days = 60, db: Database = getDb()): Promise<number> {
  const today = todayInTaipei();
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(availabilitySlots)
    .where(
      and(
        eq(availabilitySlots.guideId, guideId),
        eq(availabilitySlots.available, true),
        gte(availabilitySlots.date, today),
        lte(availabilitySlots.date, addDays(today, days)),
      ),
    );
  return row?.count ?? 0;
}
