import { and, asc, eq, gte, inArray, isNull, lte, or, sql, type SQL } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { availabilitySlots, orders, users } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { bookingHorizon, isBookableTime, slotHoursText, TIME_SLOTS } from '~/lib/time-slots';
import { AVAILABILITY_WINDOW_DAYS, type SlotView, type TimeSlot } from '~/schemas/availability';
import { SLOT_HOLDING_STATUSES } from '~/schemas/orders';
import type { Viewer } from '../platform/access.server';
import { now as clockNow } from '../platform/clock.server';
import { AppError } from '../platform/errors.server';
import { isPublishableGuide } from './guide-publishable.server';

/* A guide's availability slots (SPEC §3 Availability slot, §4 Slots, §5 Availability, §9). */

type UserRow = typeof users.$inferSelect;

/** An order that holds its slot: pending, confirmed or completed, and not deleted (SLOT_HOLDING_STATUSES). */
export function holdsSlot(): SQL {
  return and(inArray(orders.status, [...SLOT_HOLDING_STATUSES]), isNull(orders.deletedAt))!;
}

/** The slot row's order, in SQL: morning, afternoon, evening. */
export const slotOrder: SQL = sql`array_position(array[${sql.join(
  TIME_SLOTS.map((slot) => sql`${slot}`),
  sql`, `,
)}]::text[], ${availabilitySlots.timeSlot}::text)`;

/**
 * A slot a traveler can book at `now` (docs/decisions/015-booking-cutoff.md): open, its bookings not yet closed
 * (3 hours before it begins, app/lib/time-slots.ts), and no order holds it. Search, cards, the guide page, the
 * booking form, the API and `bookSlot` all use this rule.
 */
export function bookableSlotCondition(now: Date): SQL {
  const horizon = bookingHorizon(now);
  const notPast = or(
    gte(availabilitySlots.date, horizon.fullDaysFrom),
    ...horizon.partialDays.map((day) => and(eq(availabilitySlots.date, day.date), inArray(availabilitySlots.timeSlot, day.slots))),
  );
  return and(
    eq(availabilitySlots.available, true),
    notPast,
    sql`not exists (select 1 from ${orders} o where o.guide_id = ${availabilitySlots.guideId} and o.date = ${availabilitySlots.date}
      and o.time_slot = ${availabilitySlots.timeSlot} and o.status in (${sql.join(
        SLOT_HOLDING_STATUSES.map((status) => sql`${status}`),
        sql`, `,
      )}) and o.deleted_at is null)`,
  )!;
}

/** Available slots a guide has from today to 60 days ahead (the availability window, SPEC §9). */
export async function countAvailableSlots(guideId: number, days = 60, db: Database = getDb()): Promise<number> {
  const today = todayInTaipei();
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(availabilitySlots)
    .where(
      and(
        eq(availabilitySlots.guideId, guideId),
        eq(availabilitySlots.available, true),
        gte(availabilitySlots.date, today),
        lte(availabilitySlots.date, addDays(today, days)),
      ),
    );
  return row?.count ?? 0;
}

/** Today and the last bookable day, as Taiwan dates. */
export function slotWindow(now: Date = clockNow()): { today: string; last: string } {
  const today = todayInTaipei(now);
  return { today, last: addDays(today, AVAILABILITY_WINDOW_DAYS) };
}

export function assertInWindow(date: string, now: Date = clockNow(), field = 'date'): void {
  const { today, last } = slotWindow(now);
  if (date < today || date > last) throw new AppError('VALIDATION_ERROR', { fieldErrors: { [field]: ['validation.dateOutOfRange'] } });
}

export async function findGuide(guideId: number, db: Database = getDb()): Promise<UserRow> {
  const [guide] = Number.isSafeInteger(guideId) && guideId > 0 ? await db.select().from(users).where(eq(users.id, guideId)) : [];
  if (!guide || guide.type !== 'guide' || guide.deletedAt) throw new AppError('GUIDE_NOT_FOUND');
  return guide;
}

/** The guide's slots in the window (or a part of it), each with whether a live order holds it. */
export async function listSlots(
  guideId: number,
  range: { from?: string; to?: string } = {},
  db: Database = getDb(),
  now: Date = clockNow(),
): Promise<{ guideId: number; from: string; to: string; slots: SlotView[] }> {
  return readSlots(await findGuide(guideId, db), range, db, now);
}

/**
 * A guide's calendar as `viewer` sees it (GET /api/v1/guides/{id}/availability-slots): the guide and admins
 * always; anyone else only a guide the public may see, the same 404 GUIDE_NOT_FOUND as the guide's page (issue 21).
 */
export async function listSlotsFor(
  viewer: Viewer | undefined,
  guideId: number,
  range: { from?: string; to?: string } = {},
  db: Database = getDb(),
  now: Date = clockNow(),
): Promise<{ guideId: number; from: string; to: string; slots: SlotView[] }> {
  const guide = await findGuide(guideId, db);
  const ownOrAdmin = viewer !== undefined && (viewer.id === guide.id || viewer.type === 'admin');
  if (!ownOrAdmin && !isPublishableGuide(guide)) throw new AppError('GUIDE_NOT_FOUND');
  return readSlots(guide, range, db, now);
}

async function readSlots(
  guide: UserRow,
  range: { from?: string; to?: string },
  db: Database,
  now: Date,
): Promise<{ guideId: number; from: string; to: string; slots: SlotView[] }> {
  const guideId = guide.id;
  const { today, last } = slotWindow(now);
  const from = range.from && range.from > today ? range.from : today;
  const to = range.to && range.to < last ? range.to : last;
  const rows = await db
    .select({
      id: availabilitySlots.id,
      date: availabilitySlots.date,
      timeSlot: availabilitySlots.timeSlot,
      available: availabilitySlots.available,
      description: availabilitySlots.description,
      bookedId: orders.id,
    })
    .from(availabilitySlots)
    .leftJoin(
      orders,
      and(
        eq(orders.guideId, availabilitySlots.guideId),
        eq(orders.date, availabilitySlots.date),
        eq(orders.timeSlot, availabilitySlots.timeSlot),
        holdsSlot(),
      ),
    )
    .where(and(eq(availabilitySlots.guideId, guideId), gte(availabilitySlots.date, from), lte(availabilitySlots.date, to)))
    .orderBy(asc(availabilitySlots.date), slotOrder);
  return {
    guideId,
    from,
    to,
    slots: rows.map((r) => {
      const booked = r.bookedId !== null;
      return {
        id: r.id,
        date: r.date,
        time_slot: r.timeSlot,
        available: r.available ? 1 : 0,
        booked,
        bookable: r.available && !booked && isBookableTime(r.date, r.timeSlot, now),
        hours: slotHoursText(r.timeSlot),
        // One price rule (docs/decisions/010-price-rule.md): a slot costs the guide's profile price.
        price: guide.price ?? 0,
        description: r.description,
      };
    }),
  };
}

/** Slots a traveler may book now (bookableSlotCondition's rule, read off the listing). */
export async function listBookableSlots(guideId: number, db: Database = getDb(), now: Date = clockNow()) {
  const { slots } = await listSlots(guideId, {}, db, now);
  return slots.filter((s) => s.bookable);
}

/**
 * The booking form's slots for a traveler (issue 33): the bookable ones, and the ones their own order already holds
 * (`held`), while still before the booking cut-off. Coming back to the form (the back button) they find their slot
 * there: sending it again with the form's key lands on their order, without it on "you already booked this".
 */
export async function listSlotsToBook(guideId: number, travelerId: number | undefined, db: Database = getDb(), now: Date = clockNow()) {
  const { slots } = await listSlots(guideId, {}, db, now);
  const held = new Set<string>();
  if (travelerId !== undefined) {
    const rows = await db
      .select({ date: orders.date, timeSlot: orders.timeSlot })
      .from(orders)
      .where(and(eq(orders.guideId, guideId), eq(orders.travelerId, travelerId), holdsSlot()));
    for (const r of rows) held.add(`${r.date}|${r.timeSlot}`);
  }
  return slots
    .map((s) => ({ ...s, held: !s.bookable && held.has(`${s.date}|${s.time_slot}`) && s.available === 1 && isBookableTime(s.date, s.time_slot, now) }))
    .filter((s) => s.bookable || s.held);
}

/** The guide whose slots `viewer` may change: the guide themselves or an admin; ID and email verified unless admin. */
export async function assertMaySetSlots(viewer: Viewer, guideId: number, db: Database = getDb()): Promise<UserRow> {
  if (viewer.type !== 'admin' && viewer.id !== guideId) throw new AppError('FORBIDDEN');
  const guide = await findGuide(guideId, db);
  if (viewer.type !== 'admin') {
    if (!guide.isIdVerified) throw new AppError('VERIFICATION_REQUIRED');
    if (!guide.isEmailVerified) throw new AppError('EMAIL_NOT_VERIFIED');
  }
  return guide;
}

export interface SlotChange {
  /** Every day named: its slots are set, the ones not in `open` closed. */
  days: string[];
  open: { date: string; timeSlot: TimeSlot; description?: string }[];
}

/**
 * Sets the days named (SPEC §4 Slots, issue 10): the slots sent are open, the other slots of those days closed.
 * The same slot twice is stored once (the unique index). A slot an order holds (pending, confirmed or completed) cannot be
 * closed: 409 TIME_CONFLICT with its own message, and nothing changes. A booking racing this save either lands
 * first (and the save is refused) or finds the slot closed: the slot rows are the lock both take.
 */
export async function setSlots(
  viewer: Viewer,
  guideId: number,
  change: SlotChange,
  db: Database = getDb(),
  now: Date = clockNow(),
): Promise<{ guideId: number; from: string; to: string; slots: SlotView[] }> {
  const guide = await assertMaySetSlots(viewer, guideId, db);
  const days = [...new Set([...change.days, ...change.open.map((s) => s.date)])].sort();
  days.forEach((d, i) => assertInWindow(d, now, `slots.${i}.date`));
  const openKeys = new Map(change.open.map((s) => [`${s.date}|${s.timeSlot}`, s]));
  const price = guide.price ?? 1;
  if (days.length) {
    await db.transaction(async (tx) => {
      // Two saves of one calendar run one after the other. NO KEY UPDATE, not UPDATE: a booking's insert takes a
      // KEY SHARE lock on the guide's row (the foreign key), which FOR UPDATE would wait on while that booking
      // waits on the slot rows locked below: a deadlock.
      await tx.execute(sql`select id from users where id = ${guideId} for no key update`);
      // Then the slot rows of these days, before reading which orders hold them: a booking in flight holds its
      // slot row (bookSlot), so this waits for it to commit, and the read below sees its order. A booking that
      // starts later waits here and then finds the slot as this save left it.
      await tx.execute(
        sql`select id from availability_slots where guide_id = ${guideId} and date in (${sql.join(
          days.map((d) => sql`${d}`),
          sql`, `,
        )}) order by date, time_slot for update`,
      );
      const held = await tx
        .select({ date: orders.date, timeSlot: orders.timeSlot })
        .from(orders)
        .where(and(eq(orders.guideId, guideId), inArray(orders.date, days), holdsSlot()));
      const closingHeld = held.find((h) => !openKeys.has(`${h.date}|${h.timeSlot}`));
      if (closingHeld) {
        throw new AppError('TIME_CONFLICT', { messageKey: 'booking.availability.heldSlot', params: { date: closingHeld.date } });
      }
      const rows = days.flatMap((date) =>
        TIME_SLOTS.map((timeSlot) => {
          const open = openKeys.get(`${date}|${timeSlot}`);
          return { guideId, date, timeSlot, available: Boolean(open), price, description: open?.description ?? null };
        }),
      );
      await tx
        .insert(availabilitySlots)
        .values(rows)
        .onConflictDoUpdate({
          target: [availabilitySlots.guideId, availabilitySlots.date, availabilitySlots.timeSlot],
          set: {
            available: sql`excluded.available`,
            price: sql`excluded.price`,
            description: sql`coalesce(excluded.description, ${availabilitySlots.description})`,
            updatedAt: sql`now()`,
          },
        });
    });
  }
  return listSlots(guideId, {}, db, now);
}
