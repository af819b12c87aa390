import { getDb, type Database } from '~db/client';
import { availabilitySlots, banners, orders, photos, reviews, terms, termsAgreements, users } from '~db/schema';
import type { Locale } from '~/i18n/config';
import { addDays, todayInTaipei } from '~/lib/dates';
import { TIME_SLOTS, type TimeSlot } from '~/lib/time-slots';
import { storeBlob } from '~/services/platform/blobs.server';
import { guideSearchText, type SearchableGuide } from '~/lib/search-text';
import { refreshGuideRating } from '~/services/catalogue/ratings.server';
import { generateAvatar, generateLandscape } from '~/services/platform/generated-images.server';
import type { TermsKind } from '~/lib/terms';

/**
 * The one place that knows how to make valid rows. The demo seed (server/seed/demo.ts) and the tests both use it,
 * so a schema change breaks both in the same way.
 */

type NewUser = typeof users.$inferInsert;
type NewOrder = typeof orders.$inferInsert;

let sequence = 0;
const next = () => ++sequence;

export async function createUser(overrides: Partial<NewUser> = {}, db: Database = getDb()) {
  const n = next();
  const [row] = await db
    .insert(users)
    .values({
      name: `使用者 ${n}`,
      email: `user${n}-${Date.now().toString(36)}@example.test`,
      type: 'traveler',
      isEmailVerified: true,
      emailVerifiedAt: new Date(),
      ...overrides,
    })
    .returning();
  // Like a person who ticked the register form's box: agreed to the built-in terms (1.0.0), which booking and
  // messaging need (issue 35). A test of the terms deletes it to have someone who has not agreed.
  await db.insert(termsAgreements).values({ userId: row!.id, termsId: null, version: '1.0.0' });
  return row!;
}

export function createTraveler(overrides: Partial<NewUser> = {}, db?: Database) {
  return createUser({ type: 'traveler', ...overrides }, db);
}

/** An approved, verified guide that shows up in the public list. */
export function createGuide(overrides: Partial<NewUser> = {}, db?: Database) {
  const values: Partial<NewUser> = {
    type: 'guide',
    guideStatus: 'active',
    city: 'taipei',
    language: ['zh', 'en'],
    price: 2000,
    bio: '在地導遊',
    description: '帶你走訪在地景點。',
    isIdVerified: true,
    idVerificationType: 'national_id',
    idVerifiedAt: new Date(),
    ...overrides,
  };
  // What the profile services keep current: the keyword search text (issue 9).
  const n = sequence + 1;
  const name = values.name ?? `使用者 ${n}`;
  return createUser({ name, ...values, searchText: overrides.searchText ?? guideSearchText({ ...values, name } as SearchableGuide) }, db);
}

export async function createAvatar(hue: number, db?: Database) {
  return storeBlob(await generateAvatar(hue), 'image/webp', { db });
}

export async function createPhoto(
  guideId: number,
  options: { seed?: number; status?: 'pending_review' | 'approved' | 'rejected' } = {},
  db: Database = getDb(),
) {
  const blobKey = await storeBlob(await generateLandscape(options.seed ?? next()), 'image/webp', { db });
  const [row] = await db
    .insert(photos)
    .values({ guideId, blobKey, status: options.status ?? 'approved', reviewedAt: new Date() })
    .returning();
  return row!;
}

/** Available slots for each day from `from` for `days` days, all three time slots. */
export async function createAvailability(
  guideId: number,
  options: {
    from: string;
    days: number;
    price: number;
    slots?: TimeSlot[];
    isAvailable?: (date: string, slot: TimeSlot) => boolean;
  },
  db: Database = getDb(),
) {
  const slots = options.slots ?? TIME_SLOTS;
  const rows = [];
  for (let i = 0; i < options.days; i++) {
    const date = addDays(options.from, i);
    for (const timeSlot of slots) {
      const available = options.isAvailable?.(date, timeSlot) ?? true;
      rows.push({ guideId, date, timeSlot, available, price: options.price });
    }
  }
  if (rows.length) await db.insert(availabilitySlots).values(rows);
  return rows.length;
}

let completedDays = 0;

export async function createOrder(
  overrides: Partial<NewOrder> & Pick<NewOrder, 'travelerId' | 'guideId'>,
  db: Database = getDb(),
) {
  const [row] = await db
    .insert(orders)
    .values({
      // A completed tour keeps its slot (issue 19): completed orders made without a date each get a past day of
      // their own, so several of one guide never claim the same slot.
      date: overrides.status === 'completed' ? addDays(todayInTaipei(), -7 - completedDays++) : addDays(todayInTaipei(), 7),
      timeSlot: 'morning',
      numberOfPeople: 2,
      totalPrice: 2000,
      termsAcceptedAt: new Date(),
      ...overrides,
    })
    .returning();
  return row!;
}

/** A completed order: both parties marked it done, which is what allows reviews. */
export function createCompletedOrder(
  overrides: Partial<NewOrder> & Pick<NewOrder, 'travelerId' | 'guideId'>,
  db?: Database,
) {
  return createOrder({ status: 'completed', travelerCompleted: true, guideCompleted: true, ...overrides }, db);
}

export async function createReview(
  values: Pick<typeof reviews.$inferInsert, 'orderId' | 'reviewerId' | 'revieweeId' | 'role'> &
    Partial<typeof reviews.$inferInsert>,
  db: Database = getDb(),
) {
  // As the review services do: the guide's stored rating figures follow in the same transaction.
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(reviews).values({ rating: 5, comment: '很棒的體驗', ...values }).returning();
    if (row!.role === 'traveler') await refreshGuideRating(tx, row!.revieweeId);
    return row!;
  });
}

export async function createTerms(
  values: { kind: TermsKind; locale?: Locale; title?: string; content?: string; version?: string; isActive?: boolean } &
    Partial<typeof terms.$inferInsert>,
  db: Database = getDb(),
) {
  const [row] = await db
    .insert(terms)
    .values({ title: '條款', content: '# 條款', version: '1.0.0', isActive: true, ...values })
    .returning();
  return row!;
}

export async function createBanner(
  values: Partial<typeof banners.$inferInsert> & { title: string },
  db: Database = getDb(),
) {
  const [row] = await db.insert(banners).values(values).returning();
  return row!;
}
