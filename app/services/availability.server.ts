import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import { getDb, type Database } from '~db/client';
import { availabilitySlots, orders, users } from '~db/schema';
import { addDays, todayInTaipei } from '~/lib/dates';
import { AVAILABILITY_WINDOW_DAYS, TIME_SLOT_VALUES, type SlotView, type TimeSlot } from '~/schemas/availability';
import type { Viewer } from './access.server';
import { now as clockNow } from './clock.server';
import { AppError } from './errors.server';
import { isPublishableGuide } from './guide-publishable.server';

/* A guide's availability slots (SPEC §3 Availability slot, §4 Slots, §5 Availability, §9). */

type UserRow = typeof users.$inferSelect;

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

/** A guide anyone may book: the one publishable rule (guide-publishable.server.ts). */
export function isBookableGuide(user: UserRow | undefined): user is UserRow {
  return Boolean(user && isPublishableGuide(user));
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
  const guide = await findGuide(guideId, db);
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
        inArray(orders.status, ['pending', 'confirmed']),
        isNull(orders.deletedAt),
      ),
    )
    .where(and(eq(availabilitySlots.guideId, guideId), gte(availabilitySlots.date, from), lte(availabilitySlots.date, to)))
    .orderBy(asc(availabilitySlots.date), sql`array_position(array['morning','afternoon','evening'], ${availabilitySlots.timeSlot})`);
  return {
    guideId,
    from,
    to,
    slots: rows.map((r) => ({
      id: r.id,
      date: r.date,
      time_slot: r.timeSlot,
      available: r.available ? 1 : 0,
      booked: r.bookedId !== null,
      // One price rule (docs/decisions/010-price-rule.md): a slot costs the guide's profile price.
      price: guide.price ?? 0,
      description: r.description,
    })),
  };
}

/** Open slots nobody holds yet: what a traveler may book. */
export async function listBookableSlots(guideId: number, db: Database = getDb(), now: Date = clockNow()) {
  const { slots } = await listSlots(guideId, {}, db, now);
  return slots.filter((s) => s.available === 1 && !s.booked);
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
 * The same slot twice is stored once (the unique index). A slot a pending or confirmed order holds cannot be
 * closed: 409 TIME_CONFLICT with its own message, and nothing changes.
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
      // Lock the guide's row: two saves of one calendar run one after the other.
      await tx.execute(sql`select id from users where id = ${guideId} for update`);
      const held = await tx
        .select({ date: orders.date, timeSlot: orders.timeSlot })
        .from(orders)
        .where(and(eq(orders.guideId, guideId), inArray(orders.date, days), inArray(orders.status, ['pending', 'confirmed']), isNull(orders.deletedAt)));
      const closingHeld = held.find((h) => !openKeys.has(`${h.date}|${h.timeSlot}`));
      if (closingHeld) {
        throw new AppError('TIME_CONFLICT', { messageKey: 'booking.availability.heldSlot', params: { date: closingHeld.date } });
      }
      const rows = days.flatMap((date) =>
        TIME_SLOT_VALUES.map((timeSlot) => {
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
