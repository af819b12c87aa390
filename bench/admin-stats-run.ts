/**
 * bench/admin-stats.mjs's worker: fills an empty database with 20,000 users (2,000 guides in 15 cities, 18,000
 * travelers) registered over the last 400 days, 100,000 orders made over the last 400 days in every status, 30,000
 * reviews and 300,000 daily view counters, then times adminStats (app/services/admin/admin-stats.server.ts, the call
 * /admin/stats and GET /api/v1/admin/stats make) for each period and prints one JSON line.
 *
 *   npx tsx bench/admin-stats-run.ts <data-dir | postgres-url>
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '~db/client';
import { CITY_CODES } from '~/lib/cities';
import { addDays, todayInTaipei } from '~/lib/dates';
import { adminStats } from '~/services/admin/admin-stats.server';

const USERS = Number(process.env.BENCH_USERS ?? 20_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const GUIDES = Math.round(USERS / 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

const target = process.argv[2];
if (!target) throw new Error('usage: tsx bench/admin-stats-run.ts <data-dir | postgres-url>');
const handle = await openDatabase(target.startsWith('postgres') ? { url: target } : { dataDir: target });
await handle.migrate();
const db = handle.db;
const n = (value: number) => sql.raw(String(Math.trunc(value)));
const log = (s: string) => process.stderr.write(`${s}\n`);

const cities = sql.raw(`array[${CITY_CODES.map((c) => `'${c}'`).join(', ')}]`);
const today = todayInTaipei();
let started = performance.now();
const existing = ((await db.execute(sql`select count(*)::int as n from orders`)) as unknown as { rows: [{ n: number }] }).rows[0].n;
if (existing > 0) log(`reusing the ${existing} orders already there`);
else await seed();

async function seed() {
  await db.execute(sql`select setseed(0.42)`);
  await db.execute(sql`
    insert into users (name, email, type, city, price, guide_status, is_email_verified, register_date)
    select case when g <= ${n(GUIDES)} then '導遊 ' else '旅客 ' end || g, 'bench-' || g || '@bench.test',
           case when g <= ${n(GUIDES)} then 'guide' else 'traveler' end,
           case when g <= ${n(GUIDES)} then (${cities})[1 + (g % ${n(CITY_CODES.length)})] end,
           case when g <= ${n(GUIDES)} then 1000 + (g % 20) * 100 end,
           case when g <= ${n(GUIDES)} then 'active' end,
           true, now() - random() * interval '400 days'
    from generate_series(1, ${n(USERS)}) g`);
  const [{ first }] = ((await db.execute(sql`select min(id)::int as first from users`)) as unknown as { rows: [{ first: number }] }).rows;
  // Order i: guide i % GUIDES on its own tour day (so no two live orders share a slot), made in the last 400 days.
  await db.execute(sql`
    insert into orders (traveler_id, guide_id, date, time_slot, number_of_people, status, total_price, traveler_completed, guide_completed, terms_accepted_at, created_at)
    select ${n(first)} + ${n(GUIDES)} + (i * 7919) % (${n(USERS)} - ${n(GUIDES)}),
           ${n(first)} + i % ${n(GUIDES)},
           ${addDays(today, -420)}::date + (i / ${n(GUIDES)}),
           'morning', 1 + i % 4,
           (array['pending', 'confirmed', 'completed', 'completed', 'completed', 'cancelled', 'refunded'])[1 + (i * 31) % 7],
           1000 + (i % 20) * 100, false, false, now(),
           now() - random() * interval '400 days'
    from generate_series(0, ${n(ORDERS - 1)}) i`);
  await db.execute(sql`
    insert into reviews (order_id, reviewer_id, reviewee_id, role, rating, created_at)
    select o.id, o.traveler_id, o.guide_id, 'traveler', 1 + (o.id * 13) % 5, o.created_at + interval '2 days'
    from orders o where o.status = 'completed' and o.id % 2 = 0 limit 30000`);
  await db.execute(sql`
    insert into guide_view_counts (guide_id, day, kind, count)
    select ${n(first)} + g, ${today}::date - d, k, 1 + (g * d) % 40
    from generate_series(0, 499) g, generate_series(0, 299) d, unnest(array['guide_page', 'booking_form']) k`);
  await db.execute(sql`analyze`);
  log(`seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const admin = { type: 'admin' as const };
const periods = {
  '7d': { range: '7d' as const },
  '30d': { range: '30d' as const },
  '90d': { range: '90d' as const },
  year: { range: 'year' as const },
  '365 days': { from: addDays(today, -364), to: today },
};
const results: Record<string, { median: number; max: number; bookings: number }> = {};
for (const [name, query] of Object.entries(periods)) {
  await adminStats(admin, query, { db }); // warm: plans, caches
  const times: number[] = [];
  let bookings = 0;
  for (let i = 0; i < RUNS; i++) {
    started = performance.now();
    bookings = (await adminStats(admin, query, { db })).totals.bookings;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  results[name] = { median: Math.round(times[Math.floor(times.length / 2)]!), max: Math.round(times.at(-1)!), bookings };
}
// The floor on this machine at this moment: one plain scan of the orders table (no grouping, no time zones).
const floor: number[] = [];
for (let i = 0; i < RUNS + 1; i++) {
  started = performance.now();
  await db.execute(sql`select count(*) from orders`);
  floor.push(performance.now() - started);
}
floor.sort((a, b) => a - b);
const counts = ((await db.execute(sql`select (select count(*) from users)::int as users, (select count(*) from orders)::int as orders, (select count(*) from reviews)::int as reviews, (select count(*) from guide_view_counts)::int as views`)) as unknown as { rows: unknown[] }).rows[0];
process.stdout.write(`${JSON.stringify({ driver: handle.driver, counts, results, floor: Math.round(floor[Math.floor(floor.length / 2)]!) })}\n`);
await handle.close();
