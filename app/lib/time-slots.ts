import { addDays, todayInTaipei } from './dates';

/**
 * The three slots of a tour day, the one definition of when they are and until when they can be booked
 * (issue 19, docs/decisions/015-booking-cutoff.md). Taiwan keeps UTC+8 all year, so a slot is a fixed span of
 * Taiwan wall-clock time: morning 09:00–12:00, afternoon 13:00–17:00, evening 18:00–21:00.
 *
 * Search, guide cards, the guide page, the booking form, the API, the order rules and the calendar file all read
 * these functions; nothing else writes an hour of a slot.
 */
export const TIME_SLOTS = ['morning', 'afternoon', 'evening'] as const;
export type TimeSlot = (typeof TIME_SLOTS)[number];

/** Start and end hour of each slot, Taiwan time. */
export const SLOT_HOURS: Record<TimeSlot, { start: number; end: number }> = {
  morning: { start: 9, end: 12 },
  afternoon: { start: 13, end: 17 },
  evening: { start: 18, end: 21 },
};

/**
 * A slot stops taking bookings this many hours before it begins, so that a guide always has at least this long
 * to confirm or decline a booking before meeting the traveler (decision 015).
 */
export const BOOKING_CLOSES_HOURS_BEFORE = 3;

const HOUR_MS = 60 * 60 * 1000;
const TAIPEI_OFFSET_HOURS = 8;

/** A Taiwan date and hour as an instant. */
function taipeiInstant(isoDate: string, hour: number): Date {
  const [y, m, d] = isoDate.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d, hour - TAIPEI_OFFSET_HOURS));
}

export function slotStartsAt(isoDate: string, slot: TimeSlot): Date {
  return taipeiInstant(isoDate, SLOT_HOURS[slot].start);
}

export function slotEndsAt(isoDate: string, slot: TimeSlot): Date {
  return taipeiInstant(isoDate, SLOT_HOURS[slot].end);
}

export function bookingClosesAt(isoDate: string, slot: TimeSlot): Date {
  return new Date(slotStartsAt(isoDate, slot).getTime() - BOOKING_CLOSES_HOURS_BEFORE * HOUR_MS);
}

/** Whether a traveler may still book this slot at `now` (ignoring whether it is open or taken). */
export function isBookableTime(isoDate: string, slot: TimeSlot, now: Date): boolean {
  return now.getTime() < bookingClosesAt(isoDate, slot).getTime();
}

export function hasSlotBegun(isoDate: string, slot: TimeSlot, now: Date): boolean {
  return now.getTime() >= slotStartsAt(isoDate, slot).getTime();
}

/** Length of a slot in hours (service hours are counted with it). */
export function slotLengthHours(slot: TimeSlot): number {
  return SLOT_HOURS[slot].end - SLOT_HOURS[slot].start;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** "09:00–12:00": the same in every language. */
export function slotHoursText(slot: TimeSlot): string {
  const { start, end } = SLOT_HOURS[slot];
  return `${twoDigits(start)}:00–${twoDigits(end)}:00`;
}

/**
 * A booked slot as people read it everywhere (booking summary, success page, order, trip card, mail, receipt,
 * admin): its name and its hours, "下午 13:00–17:00" (issue 35: one format).
 */
export function slotWithHours(t: (key: string) => string, slot: TimeSlot | string): string {
  const name = t(`timeSlots.${slot}`);
  return isTimeSlot(slot) ? `${name} ${slotHoursText(slot)}` : name;
}

export function isTimeSlot(value: unknown): value is TimeSlot {
  return (TIME_SLOTS as readonly unknown[]).includes(value);
}

/**
 * From when slots can be booked at `now`: every slot of `fullDaysFrom` and later days, plus the listed slots of
 * earlier days (today's later slots). Queries turn this into a condition; `key` names it for caches, since a
 * cached answer that says what is bookable stays true only until the next slot closes.
 */
export interface BookingHorizon {
  fullDaysFrom: string;
  partialDays: { date: string; slots: TimeSlot[] }[];
  key: string;
}

export function bookingHorizon(now: Date): BookingHorizon {
  const partialDays: BookingHorizon['partialDays'] = [];
  let date = todayInTaipei(now);
  for (;;) {
    const open = TIME_SLOTS.filter((slot) => isBookableTime(date, slot, now));
    if (open.length === TIME_SLOTS.length) break;
    if (open.length) partialDays.push({ date, slots: open });
    date = addDays(date, 1);
  }
  const key = [...partialDays.map((d) => `${d.date}:${d.slots.join(',')}`), date].join('|');
  return { fullDaysFrom: date, partialDays, key };
}
