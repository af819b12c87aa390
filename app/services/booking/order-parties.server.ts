import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '~db/client';
import { orders, users } from '~db/schema';

/**
 * An order with both of its people (for the notices a change of it sends): the select the caller narrows with
 * `.where(...)` and, when it changes the order, `.for('update', { of: orders })` (the people are read, not changed).
 */
export function selectOrderWithParties(db: Database) {
  const traveler = alias(users, 'traveler');
  const guide = alias(users, 'guide');
  return db
    .select({ order: orders, traveler, guide })
    .from(orders)
    .innerJoin(traveler, eq(traveler.id, orders.travelerId))
    .innerJoin(guide, eq(guide.id, orders.guideId));
}
