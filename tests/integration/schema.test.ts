import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addDays, todayInTaipei } from '~/lib/dates';
import { pgErrorCode, UNIQUE_VIOLATION } from '~/services/platform/errors.server';
import { availabilitySlots, orders, users } from '~db/schema';
import { createCompletedOrder, createGuide, createOrder, createReview, createTraveler, createUser } from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

const db = useTestDatabase();

async function errorCodeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return pgErrorCode(error);
  }
  throw new Error('expected the statement to fail');
}

describe(`data model constraints (${testDriver})`, () => {
  it('applies the committed migrations, and applying them again changes nothing', async () => {
    await db.handle.migrate();
    const result = await db.handle.db.execute(
      sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
    );
    const names = (result as unknown as { rows: { table_name: string }[] }).rows.map((r) => r.table_name);
    for (const table of ['users', 'sessions', 'email_codes', 'availability_slots', 'orders', 'reviews', 'favorites', 'photos', 'blobs',
      'id_verifications', 'notifications', 'terms', 'terms_agreements', 'banners', 'chats', 'chat_messages', 'board_posts',
      'audit_logs', 'outbox']) {
      expect(names).toContain(table);
    }
  });

  it('treats emails as case-insensitive and unique', async () => {
    await createUser({ email: 'Mei.Lin@example.tw' });
    expect(await errorCodeOf(createUser({ email: 'mei.lin@EXAMPLE.tw' }))).toBe(UNIQUE_VIOLATION);
  });

  it('makes double booking of a guide slot impossible while an order is pending or confirmed', async () => {
    const guide = await createGuide();
    const [first, second] = [await createTraveler(), await createTraveler()];
    const date = addDays(todayInTaipei(), 10);
    const order = await createOrder({ travelerId: first.id, guideId: guide.id, date, timeSlot: 'afternoon' });

    // Same guide, date and slot: refused at the database level.
    expect(await errorCodeOf(createOrder({ travelerId: second.id, guideId: guide.id, date, timeSlot: 'afternoon' }))).toBe(UNIQUE_VIOLATION);
    await db.handle.db.update(orders).set({ status: 'confirmed' }).where(eq(orders.id, order.id));
    expect(await errorCodeOf(createOrder({ travelerId: second.id, guideId: guide.id, date, timeSlot: 'afternoon' }))).toBe(UNIQUE_VIOLATION);

    // Another slot the same day is fine.
    await createOrder({ travelerId: second.id, guideId: guide.id, date, timeSlot: 'evening' });

    // Once cancelled (or deleted), the slot can be booked again.
    await db.handle.db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, order.id));
    const rebooked = await createOrder({ travelerId: second.id, guideId: guide.id, date, timeSlot: 'afternoon' });
    await db.handle.db.update(orders).set({ deletedAt: new Date() }).where(eq(orders.id, rebooked.id));
    await createOrder({ travelerId: first.id, guideId: guide.id, date, timeSlot: 'afternoon' });
  });

  it('allows one review per order and reviewer, ratings 1 to 5 only', async () => {
    const guide = await createGuide();
    const traveler = await createTraveler();
    const order = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, date: addDays(todayInTaipei(), -3) });
    await createReview({ orderId: order.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 4 });
    // The guide reviews the traveler on the same order: a different reviewer, allowed.
    await createReview({ orderId: order.id, reviewerId: guide.id, revieweeId: traveler.id, role: 'guide', rating: 5 });

    expect(
      await errorCodeOf(createReview({ orderId: order.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler' })),
    ).toBe(UNIQUE_VIOLATION);
    const other = await createCompletedOrder({ travelerId: traveler.id, guideId: guide.id, date: addDays(todayInTaipei(), -9) });
    expect(
      await errorCodeOf(createReview({ orderId: other.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 6 })),
    ).toBe('23514'); // check_violation
  });

  it('keeps one availability row per guide, date and slot, and rejects unknown slots and statuses', async () => {
    const guide = await createGuide();
    const date = addDays(todayInTaipei(), 1);
    await db.handle.db.insert(availabilitySlots).values({ guideId: guide.id, date, timeSlot: 'morning', price: 1500 });
    expect(
      await errorCodeOf(db.handle.db.insert(availabilitySlots).values({ guideId: guide.id, date, timeSlot: 'morning', price: 1500 })),
    ).toBe(UNIQUE_VIOLATION);
    expect(
      await errorCodeOf(
        db.handle.db.execute(sql`insert into availability_slots (guide_id, date, time_slot, price) values (${guide.id}, ${date}, 'night', 1500)`),
      ),
    ).toBe('23514');
    expect(
      await errorCodeOf(db.handle.db.execute(sql`update users set status = 'gone' where id = ${guide.id}`)),
    ).toBe('23514');
    const [row] = await db.handle.db.select({ status: users.status }).from(users).where(eq(users.id, guide.id));
    expect(row?.status).toBe('active');
  });
});
