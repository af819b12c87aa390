import { and, count, countDistinct, eq, gte, isNotNull, max, min, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addDays, todayInTaipei } from '~/lib/dates';
import { getPublicBlob } from '~/services/platform/blobs.server';
import { verifyPassword } from '~/services/accounts/passwords.server';
import { findUserByEmail } from '~/services/accounts/users.server';
import { DEMO_ADMIN_EMAIL, seedDemo } from '~server/seed/demo';
import { availabilitySlots, banners, ledgerEntries, ledgerPostings, orderEvents, orders, payments, photos, reviews, simulatorTrades, terms, users } from '~db/schema';
import { orderMoney } from '~/services/payments/ledger.server';
import { testDriver, useTestDatabase } from '../support/test-database';

const database = useTestDatabase();

describe(`demo seed (${testDriver})`, () => {
  it('fills an empty database with a browsable marketplace, once', async () => {
    const db = database.handle.db;
    const today = todayInTaipei();
    // Two instances starting at once: exactly one seeds.
    const admin = { email: 'Boss@Example.tw', password: 'secret-pass' };
    const results = await Promise.all([seedDemo(db, { admin }), seedDemo(db, { admin })]);
    expect(results.map((r) => r.seeded).sort()).toEqual([false, true]);
    const result = results.find((r) => r.seeded)!;
    expect(result.demoAdmin).toBeUndefined();

    const [guides] = await db
      .select({ n: count(), cities: countDistinct(users.city) })
      .from(users)
      .where(and(eq(users.type, 'guide'), eq(users.guideStatus, 'active')));
    expect(guides!.n).toBeGreaterThanOrEqual(30);
    expect(guides!.cities).toBeGreaterThanOrEqual(6);
    const cities = await db.selectDistinct({ city: users.city }).from(users).where(eq(users.type, 'guide'));
    for (const city of ['taipei', 'new_taipei', 'taichung', 'tainan', 'kaohsiung', 'hualien']) {
      expect(cities.map((c) => c.city)).toContain(city);
    }

    // Every guide has an avatar, a price and slots for the next 60 days.
    const noAvatar = await db.select({ n: count() }).from(users).where(and(eq(users.type, 'guide'), sql`${users.avatarKey} is null`));
    expect(noAvatar[0]!.n).toBe(0);
    const [span] = await db
      .select({ first: min(availabilitySlots.date), last: max(availabilitySlots.date), guides: countDistinct(availabilitySlots.guideId) })
      .from(availabilitySlots);
    expect(span).toEqual({ first: today, last: addDays(today, 59), guides: guides!.n });

    // Completed orders reviewed both ways.
    const byRole = await db.select({ role: reviews.role, n: count() }).from(reviews).groupBy(reviews.role);
    expect(Object.fromEntries(byRole.map((r) => [r.role, r.n]))).toMatchObject({
      traveler: expect.any(Number),
      guide: expect.any(Number),
    });
    const [completed] = await db.select({ n: count() }).from(orders).where(eq(orders.status, 'completed'));
    expect(completed!.n).toBe(result.orders);
    expect(byRole.every((r) => r.n > 0)).toBe(true);

    // Legal texts: three kinds in three languages, version 1.0.0 of 2025-06-03.
    const legal = await db.select().from(terms).where(eq(terms.isActive, true));
    expect(legal).toHaveLength(9);
    expect(new Set(legal.map((t) => t.version))).toEqual(new Set(['1.0.0']));
    expect(legal.every((t) => t.updatedAt.toISOString().startsWith('2025-06-02T16:00'))).toBe(true);
    const zhTerms = legal.find((t) => t.kind === 'terms' && t.locale === 'zh-TW')!;
    for (const section of ['服務說明', '使用者義務', '服務條款', '隱私權', '其他條款']) expect(zhTerms.content).toContain(section);

    // Each banner carries its three languages (migration 0019).
    const [bannerCount] = await db.select({ n: count() }).from(banners).where(and(isNotNull(banners.titleEn), isNotNull(banners.titleJa)));
    expect(bannerCount!.n).toBe(3);
    const [approvedPhotos] = await db.select({ n: count() }).from(photos).where(eq(photos.status, 'approved'));
    expect(approvedPhotos!.n).toBeGreaterThan(30);

    // Every demo order has a timeline that starts with its booking and ends in its status.
    const timelines = await db
      .select({ status: orders.status, first: sql<string>`(array_agg(${orderEvents.action} order by ${orderEvents.at}))[1]`, last: sql<string>`(array_agg(${orderEvents.toStatus} order by ${orderEvents.at} desc))[1]` })
      .from(orders)
      .leftJoin(orderEvents, eq(orderEvents.orderId, orders.id))
      .groupBy(orders.id);
    expect(timelines.length).toBeGreaterThan(0);
    for (const row of timelines) expect(row).toEqual({ status: row.status, first: 'book', last: row.status });

    // Every demo order's money as if paid through the app (issue 32), in the payments, the ledger and the simulator's
    // own books: pending → authorised; confirmed → captured; completed → captured and settled; cancelled → voided, or
    // refunded by the terms with the rest settled.
    const [ledgerTotal] = await db.select({ sum: sql<string>`coalesce(sum(${ledgerPostings.amount}), 0)::bigint` }).from(ledgerPostings);
    expect(Number(ledgerTotal!.sum)).toBe(0);
    const money = await db
      .select({
        id: orders.id,
        status: orders.status,
        price: orders.totalPrice,
        payment: payments.status,
        captured: payments.capturedAmount,
        refunded: payments.refundedAmount,
        trade: simulatorTrades.status,
        tradeRefunded: simulatorTrades.refundedAmount,
        entries: sql<string>`(select string_agg(e.kind, ',' order by e.id) from ${ledgerEntries} e where e.order_id = ${orders.id})`,
      })
      .from(orders)
      .leftJoin(payments, eq(payments.orderId, orders.id))
      .leftJoin(simulatorTrades, eq(simulatorTrades.merchantTradeNo, payments.merchantTradeNo));
    const expected = {
      pending: { payment: 'authorised', entries: 'authorise', trade: 'authorised' },
      confirmed: { payment: 'captured', entries: 'authorise,capture', trade: 'closed' },
      completed: { payment: 'captured', entries: 'authorise,capture,settle', trade: 'closed' },
    } as const;
    for (const row of money) {
      if (row.status === 'cancelled') continue;
      expect(row, `order ${row.id}`).toMatchObject({ ...expected[row.status as keyof typeof expected], refunded: 0, tradeRefunded: 0 });
      expect(row.captured, `order ${row.id}`).toBe(row.status === 'pending' ? 0 : row.price);
      const ledger = await orderMoney(db, row.id);
      expect(ledger.captured, `order ${row.id}`).toBe(row.captured);
      if (row.status === 'completed') expect(ledger.settledNet + ledger.settledCommission).toBe(row.price);
    }
    const cancelled = money.filter((r) => r.status === 'cancelled').sort((a, b) => (a.payment! < b.payment! ? -1 : 1));
    expect(cancelled.map((r) => [r.payment, r.entries, r.trade])).toEqual([
      ['partly_refunded', 'authorise,capture,refund,settle', 'closed'],
      ['voided', 'authorise,void', 'given_up'],
    ]);
    // Cancelled two days before the tour: half back, by the terms; the other half settled.
    const halfBack = cancelled[0]!;
    expect(halfBack).toMatchObject({ captured: halfBack.price, refunded: Math.floor(halfBack.price / 2), tradeRefunded: Math.floor(halfBack.price / 2) });
    const halfMoney = await orderMoney(db, halfBack.id);
    expect(halfMoney).toMatchObject({ refunded: Math.floor(halfBack.price / 2), held: 0 });
    expect(halfMoney.settledNet + halfMoney.settledCommission).toBe(halfBack.price - Math.floor(halfBack.price / 2));

    // Pictures are stored, public and really webp.
    const [someGuide] = await db.select({ avatarKey: users.avatarKey }).from(users).where(eq(users.type, 'guide')).limit(1);
    const blob = await getPublicBlob(someGuide!.avatarKey!);
    expect(blob?.contentType).toBe('image/webp');
    expect(blob!.bytes.subarray(8, 12).toString('ascii')).toBe('WEBP');

    // The configured admin exists, verified, with that password.
    const adminRow = await findUserByEmail('boss@example.tw', db);
    expect(adminRow).toMatchObject({ type: 'admin', isEmailVerified: true });
    expect(await verifyPassword(adminRow!.passwordHash!, 'secret-pass')).toBe(true);
    expect(await findUserByEmail(DEMO_ADMIN_EMAIL, db)).toBeUndefined();

    // A second run leaves the data alone.
    const [before] = await db.select({ n: count() }).from(users);
    expect((await seedDemo(db)).seeded).toBe(false);
    const [after] = await db.select({ n: count() }).from(users);
    expect(after!.n).toBe(before!.n);
    const [future] = await db.select({ n: count() }).from(availabilitySlots).where(gte(availabilitySlots.date, today));
    expect(future!.n).toBe(guides!.n * 60 * 3);

    // Believable (issue 9): no guide shows one comment twice; every person has their own face and every
    // guide their own photos; the legal texts name the support address (the admin's by default).
    const dupes = await db
      .select({ id: reviews.revieweeId })
      .from(reviews)
      .where(eq(reviews.role, 'traveler'))
      .groupBy(reviews.revieweeId, reviews.comment)
      .having(sql`count(*) > 1`);
    expect(dupes).toHaveLength(0);
    const [avatars] = await db.select({ all: count(), distinct: sql<number>`count(distinct ${users.avatarKey})::int` }).from(users).where(sql`${users.avatarKey} is not null`);
    expect(avatars!.distinct).toBe(avatars!.all);
    const [photoKeys] = await db.select({ all: count(), distinct: sql<number>`count(distinct ${photos.blobKey})::int` }).from(photos);
    expect(photoKeys!.distinct).toBe(photoKeys!.all);
    const support = await db.select({ content: terms.content }).from(terms).where(eq(terms.kind, 'privacy'));
    for (const t of support) {
      expect(t.content).toContain('Boss@Example.tw');
      expect(t.content).not.toContain('travel-assistant.example');
    }
  }, 120_000);
});
