import type { Database } from '~db/client';
import type { users } from '~db/schema';
import { createGuide } from '~server/seed/factories';

/**
 * A guide that the prepared money data needs (earnings, payouts, reconciliation) but the public must not find: its
 * profile has no description, so it is not publishable and the search, list and page counts other specs assert stay
 * those of the 36 demo guides.
 */
export function createUnlistedGuide(overrides: Partial<typeof users.$inferInsert>, db: Database) {
  return createGuide({ ...overrides, description: '' }, db);
}
