import { describe, expect, it } from 'vitest';
import { favorites, idVerifications } from '~db/schema';
import { getDb } from '~db/client';
import { adminDashboard, guideDashboard, listUsersForDebug, RECENT_ORDERS_LIMIT, travelerDashboard } from '~/services/booking/dashboards.server';
import {
  createCompletedOrder,
  createGuide,
  createOrder,
  createPhoto,
  createReview,
  createTraveler,
  createUser,
} from '~server/seed/factories';
import { testDriver, useTestDatabase } from '../support/test-database';

/** The numbers of the three role homes, against real rows (one database for the file, so order matters). */
useTestDatabase();

const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);

describe(`dashboards service (${testDriver})`, () => {
  it('an account with nothing yet shows zeros, no rating and no recent orders', async () => {
    const traveler = await createTraveler();
    const guide = await createGuide();
    const empty = await travelerDashboard(traveler.id);
    expect(empty.stats).toEqual({ bookingCount: 0, favoriteGuides: 0, reviewCount: 0, totalSpent: 0, currentMonthSpent: 0 });
    expect(empty.recentBookings).toEqual([]);
    expect(await guideDashboard(guide.id)).toEqual({
      pendingOrders: 0,
      completedOrders: 0,
      averageRating: null,
      reviewCount: 0,
      recentOrders: [],
    });
  });

  it('traveler: live orders, favorites and reviews they wrote — not other people’s', async () => {
    const [me, someoneElse, guide, guide2] = [await createTraveler(), await createTraveler(), await createGuide(), await createGuide()];
    await createOrder({ travelerId: me.id, guideId: guide.id, date: '2031-03-01' });
    await createOrder({ travelerId: me.id, guideId: guide2.id, date: '2031-03-02', status: 'cancelled' });
    await createOrder({ travelerId: me.id, guideId: guide.id, date: '2031-03-03', deletedAt: new Date() });
    await createOrder({ travelerId: someoneElse.id, guideId: guide.id, date: '2031-03-04' });
    const done = await createCompletedOrder({ travelerId: me.id, guideId: guide2.id, date: '2024-01-10' });
    await createReview({ orderId: done.id, reviewerId: me.id, revieweeId: guide2.id, role: 'traveler' });
    // The guide's review of me is one I received, not one I gave.
    await createReview({ orderId: done.id, reviewerId: guide2.id, revieweeId: me.id, role: 'guide' });
    await getDb()
      .insert(favorites)
      .values([
        { userId: me.id, targetId: guide.id },
        { userId: someoneElse.id, targetId: guide.id },
      ]);

    const mine = await travelerDashboard(me.id);
    expect(mine.stats).toMatchObject({ bookingCount: 3, favoriteGuides: 1, reviewCount: 1 });
    expect(mine.recentBookings.map((b) => b.guide.id).sort()).toEqual([guide.id, guide2.id, guide2.id].sort());
    // Never a guide already booked (cancelled or not).
    expect(mine.recommendations.map((g) => g.id)).not.toContain(guide.id);
    expect(mine.recommendations.map((g) => g.id)).not.toContain(guide2.id);
  });

  it('guide: pending and completed orders, rating from visible traveler reviews, the 5 newest orders', async () => {
    const guide = await createGuide();
    const traveler = await createTraveler({ name: '王旅客' });
    const orders: Awaited<ReturnType<typeof createOrder>>[] = [];
    // 7 orders created one minute apart (oldest first); one deleted, statuses mixed.
    for (let i = 0; i < 7; i++) {
      orders.push(
        await createOrder({
          travelerId: traveler.id,
          guideId: guide.id,
          date: `2031-04-0${i + 1}`,
          status: i < 3 ? 'pending' : i < 5 ? 'completed' : 'confirmed',
          createdAt: at(100 - i),
          deletedAt: i === 6 ? new Date() : null,
        }),
      );
    }
    await createReview({ orderId: orders[3]!.id, reviewerId: traveler.id, revieweeId: guide.id, role: 'traveler', rating: 5 });
    const t2 = await createTraveler();
    const o2 = await createCompletedOrder({ travelerId: t2.id, guideId: guide.id, date: '2024-02-02', createdAt: at(500) });
    await createReview({ orderId: o2.id, reviewerId: t2.id, revieweeId: guide.id, role: 'traveler', rating: 4 });
    const t3 = await createTraveler();
    const o3 = await createCompletedOrder({ travelerId: t3.id, guideId: guide.id, date: '2024-02-03', createdAt: at(600) });
    await createReview({ orderId: o3.id, reviewerId: t3.id, revieweeId: guide.id, role: 'traveler', rating: 1, isHidden: true });
    // The guide reviewing a traveler does not count toward the guide's own rating.
    await createReview({ orderId: orders[4]!.id, reviewerId: guide.id, revieweeId: traveler.id, role: 'guide', rating: 1 });

    const stats = await guideDashboard(guide.id);
    expect(stats.pendingOrders).toBe(3);
    expect(stats.completedOrders).toBe(4); // two of the seven, plus o2 and o3
    expect(stats.averageRating).toBe(4.5);
    expect(stats.reviewCount).toBe(2);
    expect(stats.recentOrders).toHaveLength(RECENT_ORDERS_LIMIT);
    expect(stats.recentOrders.map((o) => o.id)).toEqual([5, 4, 3, 2, 1].map((i) => orders[i]!.id));
    expect(stats.recentOrders[0]).toEqual({
      id: orders[5]!.id,
      date: '2031-04-06',
      timeSlot: 'morning',
      status: 'confirmed',
      numberOfPeople: 2,
      totalPrice: 2000,
      createdAt: orders[5]!.createdAt.toISOString(),
      traveler: { id: traveler.id, name: '王旅客' },
    });
  });

  it('admin: accounts by type (archived apart), blocked, orders by status, review queues and what awaits review', async () => {
    const before = await adminDashboard();
    const traveler = await createTraveler();
    await createTraveler({ blockedAt: new Date() });
    await createTraveler({ deletedAt: new Date() });
    await createUser({ type: 'admin' });
    const pending = await createGuide({ isIdVerified: false });
    await createGuide({ isIdVerified: false, deletedAt: new Date() });
    await createOrder({ travelerId: traveler.id, guideId: pending.id, date: '2032-01-01', status: 'refunded' });
    await createOrder({ travelerId: traveler.id, guideId: pending.id, date: '2032-01-02', status: 'refunded', deletedAt: new Date() });
    await createPhoto(pending.id, { status: 'pending_review' });
    await createPhoto(pending.id, { status: 'approved' });
    await getDb()
      .insert(idVerifications)
      .values([
        { userId: pending.id, type: 'national_id', status: 'pending' },
        { userId: traveler.id, type: 'passport', status: 'rejected' },
      ]);

    const after = await adminDashboard();
    expect(after.usersByType).toEqual({
      traveler: before.usersByType.traveler + 2,
      guide: before.usersByType.guide + 1,
      admin: before.usersByType.admin + 1,
    });
    expect(after.blockedUsers).toBe(before.blockedUsers + 1);
    expect(after.archivedUsers).toBe(before.archivedUsers + 2);
    // What waits for an admin: one pending application and one photo (an unverified guide waits for nothing).
    expect(after.awaitingReview).toBe(before.awaitingReview + 2);
    expect(after.ordersByStatus).toEqual({ ...before.ordersByStatus, refunded: before.ordersByStatus.refunded + 1 });
    expect(after.pendingIdVerifications).toBe(before.pendingIdVerifications + 1);
    expect(after.photosAwaitingReview).toBe(before.photosAwaitingReview + 1);
  });

  it('the debug user list has every account in id order and no password hashes', async () => {
    const rows = await listUsersForDebug();
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.map((r) => r.id)).toEqual([...rows.map((r) => r.id)].sort((a, b) => a - b));
    expect(Object.keys(rows[0]!).sort()).toEqual(
      ['blockedAt', 'deletedAt', 'email', 'id', 'isEmailVerified', 'isIdVerified', 'name', 'type'].sort(),
    );
  });
});
