import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '~db/client';
import { availabilitySlots, users } from '~db/schema';
import { guideSearchSchema } from '~/schemas/guide-search';
import { CATALOGUE_CHANNEL, cachedCatalogueRead, startCatalogueCache, stopCatalogueCache } from '~/services/catalogue/catalogue-cache.server';
import { searchGuides } from '~/services/catalogue/search.server';
import { addDays, todayInTaipei } from '~/lib/dates';
import { createAvailability, createGuide, createOrder, createReview, createTraveler } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/**
 * The catalogue cache (issue 8) against the real database: a read is kept until a committed change under
 * it arrives as a NOTIFY from the migration's triggers, whoever wrote it (here: the test factories and
 * plain drizzle updates, no service involved). A login's last_login stamp changes nothing.
 */
const database = useTestDatabase();

/** Notices travel after commit (on PostgreSQL over another connection): wait until `check` holds. */
async function eventually(check: () => Promise<boolean>, ms = 5_000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}

/**
 * A read can see a commit before its notice reaches the listener (another connection on PostgreSQL), and the
 * late notice then empties the cache. Notices arrive in commit order: once one sent now has arrived, so have all
 * the earlier ones.
 */
async function noticesDelivered() {
  let loads = 0;
  const probe = () => cachedCatalogueRead('test:probe', async () => ++loads);
  const before = await probe();
  await getDb().execute(sql`select pg_notify(${CATALOGUE_CHANNEL}, '')`);
  expect(await eventually(async () => (await probe()) > before)).toBe(true);
}

describe(`catalogue cache (${testDriver})`, () => {
  beforeAll(async () => {
    await startCatalogueCache(database.handle);
  });
  afterAll(async () => {
    await stopCatalogueCache();
  });

  it('serves a read from memory until the catalogue changes', async () => {
    let loads = 0;
    const read = () => cachedCatalogueRead('test:count', async () => ++loads);
    expect(await read()).toBe(1);
    expect(await read()).toBe(1);
    // Concurrent readers share the one read in flight.
    expect(await Promise.all([read(), read()])).toEqual([1, 1]);
    await createGuide({ name: '新來的導遊' });
    expect(await eventually(async () => (await read()) === 2)).toBe(true);
    expect(loads).toBe(2);
  });

  it('a search sees a renamed guide, a new review and a closed slot, but a login stamp keeps the cache', async () => {
    const guide = await createGuide({ name: '快取測試導遊', city: 'hualien' });
    const search = guideSearchSchema.parse({ keyword: '快取測試', city: 'hualien' });
    const names = async () => (await searchGuides(search)).guides.map((g) => g.name);
    await eventually(async () => (await names()).length === 1);
    expect(await names()).toEqual(['快取測試導遊']);

    await getDb().update(users).set({ name: '快取測試導遊 改名' }).where(eq(users.id, guide.id));
    expect(await eventually(async () => (await names())[0] === '快取測試導遊 改名')).toBe(true);

    const card = async () => (await searchGuides(search)).guides[0]!;
    const traveler = await createTraveler();
    const order = await createOrder({ travelerId: traveler.id, guideId: guide.id, status: 'completed' });
    await createReview({ orderId: order.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 4 });
    expect(await eventually(async () => (await card()).reviewCount === 1)).toBe(true);

    // From tomorrow: today's slots may already have stopped taking bookings (decision 015).
    const tomorrow = addDays(todayInTaipei(), 1);
    await createAvailability(guide.id, { from: tomorrow, days: 3, price: 2000 });
    expect(await eventually(async () => (await card()).nextAvailable === tomorrow)).toBe(true);
    await getDb().update(availabilitySlots).set({ available: false }).where(eq(availabilitySlots.guideId, guide.id));
    expect(await eventually(async () => (await card()).nextAvailable === null)).toBe(true);

    // A login stamps last_login (and updated_at): the cached answer is the very same object afterwards.
    await noticesDelivered();
    const cached = await searchGuides(search);
    await getDb().update(users).set({ lastLogin: new Date(), updatedAt: new Date() }).where(eq(users.id, guide.id));
    await new Promise((r) => setTimeout(r, 200));
    expect(await searchGuides(search)).toBe(cached);
  });

  it('reads straight from the database when nobody listens', async () => {
    await stopCatalogueCache();
    let loads = 0;
    await cachedCatalogueRead('test:off', async () => ++loads);
    await cachedCatalogueRead('test:off', async () => ++loads);
    expect(loads).toBe(2);
    await startCatalogueCache(database.handle);
  });
});
