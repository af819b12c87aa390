/**
 * Fills an empty database for bench/export-memory.mjs: one admin (a session and a bearer token signed with
 * SESSION_SECRET, as login makes them), 200 travelers, 50 guides and `<orders>` orders (one slot each, spread over
 * the days, statuses mixed), written by SQL in batches. Prints `{ token, orders }` as JSON on stdout.
 *
 *   SESSION_SECRET=… npx tsx bench/export-seed.ts <postgres-url> <orders>
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '~db/client';
import { users } from '~db/schema';
import { createSession } from '~/services/accounts/sessions.server';
import { signToken } from '~/services/accounts/tokens.server';

const [target, ordersArg] = process.argv.slice(2);
if (!target?.startsWith('postgres') || !process.env.SESSION_SECRET) throw new Error('usage: SESSION_SECRET=… tsx bench/export-seed.ts <postgres-url> <orders>');
const ORDERS = Number(ordersArg);

const handle = await openDatabase({ url: target });
await handle.migrate();
const db = handle.db;
const person = (type: 'traveler' | 'guide', i: number) => ({
  name: type === 'guide' ? `導遊 ${i} 台北` : `旅客 ${i} 王小明`,
  email: `bench-${type}-${i}@bench.test`,
  type,
  isEmailVerified: true,
});
const travelers = (await db.insert(users).values(Array.from({ length: 200 }, (_, i) => person('traveler', i))).returning({ id: users.id })).map((r) => r.id);
const guides = (await db.insert(users).values(Array.from({ length: 50 }, (_, i) => person('guide', i))).returning({ id: users.id })).map((r) => r.id);
const [admin] = await db.insert(users).values({ name: '匯出管理員', email: 'bench-admin@bench.test', type: 'admin', isEmailVerified: true }).returning();

// Order i: guide i % 50, slot (i / 50) % 3, day (i / 150) from 2020-01-01 — no two hold the same slot.
const BATCH = 10_000;
for (let from = 0; from < ORDERS; from += BATCH) {
  const to = Math.min(ORDERS, from + BATCH) - 1;
  await db.execute(sql`
    insert into orders (traveler_id, guide_id, date, time_slot, number_of_people, note, status, total_price, created_at)
    select (${sql.raw(`array[${travelers.join(',')}]`)})[1 + i % 200],
           (${sql.raw(`array[${guides.join(',')}]`)})[1 + i % 50],
           date '2020-01-01' + (i / 150),
           (array['morning','afternoon','evening'])[1 + (i / 50) % 3],
           1 + i % 6,
           '備註 ' || i,
           (array['pending','confirmed','completed','cancelled','refunded'])[1 + i % 5],
           1000 + (i % 40) * 100,
           now() - make_interval(secs => i)
    from generate_series(${from}::int, ${to}::int) as i`);
}
// Fresh statistics, as autovacuum keeps them in production (without them the planner sorts every page's join).
await db.execute(sql`analyze`);
const session = await createSession(admin!.id, 'api', db);
const token = signToken(
  { id: admin!.id, email: admin!.email, type: 'admin', isEmailVerified: true, isIdVerified: false, sid: session.id },
  session.expiresAt,
  process.env.SESSION_SECRET,
);
await handle.close();
process.stdout.write(JSON.stringify({ token, orders: ORDERS }));
