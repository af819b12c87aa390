import { and, count, isNull, notInArray, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { orders, users } from '~db/schema';
import { ACCOUNT_TYPES } from '~/lib/account-types';
import { now as clockNow } from '../platform/clock.server';
import { adminDashboard } from '../booking/dashboards.server';

/**
 * The /admin dashboard's figures (issue 22): the counts of dashboards.server's adminDashboard, plus accounts new
 * this week by role and the bookings of this month against last month. Weeks (from Monday) and months are
 * Taiwan's. A booking is an order made in the month and not deleted; its gross value counts the orders that
 * were not cancelled or refunded.
 */
export interface MonthFigures {
  bookings: number;
  grossValue: number;
}

export async function adminDashboardFigures(db: Database = getDb(), now: Date = clockNow()) {
  const taipeiNow = sql`(${now.toISOString()}::timestamptz at time zone 'Asia/Taipei')`;
  const weekStart = sql`(date_trunc('week', ${taipeiNow}) at time zone 'Asia/Taipei')`;
  const monthStart = sql`(date_trunc('month', ${taipeiNow}) at time zone 'Asia/Taipei')`;
  const lastMonthStart = sql`(date_trunc('month', ${taipeiNow} - interval '1 month') at time zone 'Asia/Taipei')`;
  const month = async (from: ReturnType<typeof sql>, until: ReturnType<typeof sql>): Promise<MonthFigures> => {
    const made = and(isNull(orders.deletedAt), sql`${orders.createdAt} >= ${from}`, sql`${orders.createdAt} < ${until}`);
    const [[all], [kept]] = await Promise.all([
      db.select({ n: count() }).from(orders).where(made),
      db
        .select({ sum: sql<string | null>`sum(${orders.totalPrice})` })
        .from(orders)
        .where(and(made, notInArray(orders.status, ['cancelled', 'refunded']))),
    ]);
    return { bookings: all?.n ?? 0, grossValue: Number(kept?.sum ?? 0) };
  };
  const [base, newRows, thisMonth, lastMonth] = await Promise.all([
    adminDashboard(db),
    db
      .select({ type: users.type, n: count() })
      .from(users)
      .where(and(isNull(users.deletedAt), sql`${users.registerDate} >= ${weekStart}`))
      .groupBy(users.type),
    month(monthStart, sql`${now.toISOString()}::timestamptz + interval '1 second'`),
    month(lastMonthStart, monthStart),
  ]);
  const newThisWeek = Object.fromEntries(ACCOUNT_TYPES.map((type) => [type, newRows.find((r) => r.type === type)?.n ?? 0])) as Record<
    (typeof ACCOUNT_TYPES)[number],
    number
  >;
  return { ...base, newThisWeek, thisMonth, lastMonth };
}
