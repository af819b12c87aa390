/**
 * Fills an empty database for bench/booking.mjs and prints what the bench needs as JSON on stdout:
 * - `apiGuides` publishable guides with every slot open from tomorrow to the end of the booking window (the
 *   throughput round: today's earlier slots are closed to bookings, and a refusal is cheaper than a booking),
 * - `sqlGuides` guides for the raw SQL insert loop (no slots: the loop writes orders only),
 * - one `contestGuide` with `BENCH_ROUNDS` open days (the contention round),
 * - `travelers` email-verified travelers, each with a bearer token signed with SESSION_SECRET (the server's),
 *   made the way login makes them (a sessions row + a signed token), so the bench skips the login rate limit.
 *
 *   SESSION_SECRET=… npx tsx bench/booking-seed.ts <postgres-url> <bookings> <travelers> <rounds>
 */
import { openDatabase } from '~db/client';
import { availabilitySlots, users } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { AVAILABILITY_WINDOW_DAYS, TIME_SLOT_VALUES } from '~/schemas/availability';
import { createSession } from '~/services/accounts/sessions.server';
import { signToken } from '~/services/accounts/tokens.server';

const [target, bookingsArg, travelersArg, roundsArg] = process.argv.slice(2);
const secret = process.env.SESSION_SECRET;
if (!target?.startsWith('postgres') || !secret) throw new Error('usage: SESSION_SECRET=… tsx bench/booking-seed.ts <postgres-url> <bookings> <travelers> <rounds>');
const BOOKINGS = Number(bookingsArg);
const TRAVELERS = Number(travelersArg);
const ROUNDS = Number(roundsArg);

const handle = await openDatabase({ url: target });
await handle.migrate();
const db = handle.db;
const today = todayInTaipei();
const firstDay = addDays(today, 1);
const daysPerGuide = AVAILABILITY_WINDOW_DAYS;
const slotsPerGuide = daysPerGuide * TIME_SLOT_VALUES.length;
const guideCount = Math.ceil(BOOKINGS / slotsPerGuide);

async function guides(prefix: string, count: number) {
  const rows = Array.from({ length: count }, (_, i) => ({
    name: `${prefix} ${i}`,
    email: `bench-${prefix}-${i}@bench.test`,
    type: 'guide' as const,
    isEmailVerified: true,
    isIdVerified: true,
    guideStatus: 'active' as const,
    city: 'taipei',
    language: ['zh', 'en'],
    price: 2800,
    description: '台北一日導覽',
  }));
  return (await db.insert(users).values(rows).returning({ id: users.id })).map((r) => r.id);
}

async function openSlots(guideId: number, from: string, days: number) {
  const rows = [];
  for (let d = 0; d < days; d++) {
    for (const timeSlot of TIME_SLOT_VALUES) rows.push({ guideId, date: addDays(from, d), timeSlot, available: true, price: 2800 });
  }
  await db.insert(availabilitySlots).values(rows);
}

const apiGuides = await guides('api-guide', guideCount);
for (const id of apiGuides) await openSlots(id, firstDay, daysPerGuide);
const sqlGuides = await guides('sql-guide', guideCount);
const [contestGuide] = await guides('contest-guide', 1);
// Day 0 may be in the past by the end of a long run near midnight: the contest uses days 1…rounds.
await openSlots(contestGuide!, today, ROUNDS + 1);

const travelerRows = await db
  .insert(users)
  .values(Array.from({ length: TRAVELERS }, (_, i) => ({ name: `旅客 ${i}`, email: `bench-traveler-${i}@bench.test`, type: 'traveler' as const, isEmailVerified: true })))
  .returning();
const travelers = [];
for (const u of travelerRows) {
  const session = await createSession(u.id, 'api', db);
  const token = signToken({ id: u.id, email: u.email, type: 'traveler', isEmailVerified: true, isIdVerified: false, sid: session.id }, session.expiresAt, secret);
  travelers.push({ id: u.id, token });
}
const openCount = guideCount * slotsPerGuide + (ROUNDS + 1) * TIME_SLOT_VALUES.length;
process.stderr.write(`seeded ${guideCount}+${guideCount}+1 guides, ${TRAVELERS} travelers, ${openCount} open slots\n`);
process.stdout.write(JSON.stringify({ today, firstDay, daysPerGuide, apiGuides, sqlGuides, contestGuide, travelers }));
await handle.close();
