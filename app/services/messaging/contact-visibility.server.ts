import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { orders } from '~db/schema';

/**
 * When contact details show between two people (issue 23, docs/decisions/034-contact-masking.md): once the
 * traveler has a confirmed (or completed) order with the guide. Until then what one writes to the other (chat
 * messages, the booking note) is read masked; the one rule for every door that shows such text.
 */
export interface Pair {
  travelerId: number;
  guideId: number;
}

export const pairKey = (pair: Pair): string => `${pair.travelerId}:${pair.guideId}`;

/** The keys (pairKey) of the pairs among these that have a confirmed or completed order: their contacts show. */
export async function pairsShowingContacts(pairs: readonly Pair[], db: Database = getDb()): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ travelerId: orders.travelerId, guideId: orders.guideId })
    .from(orders)
    .where(
      and(
        inArray(orders.status, ['confirmed', 'completed']),
        isNull(orders.deletedAt),
        or(...pairs.map((p) => and(eq(orders.travelerId, p.travelerId), eq(orders.guideId, p.guideId)))),
      ),
    );
  return new Set(rows.map(pairKey));
}
