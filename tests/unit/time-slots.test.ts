import { describe, expect, it } from 'vitest';
import {
  BOOKING_CLOSES_HOURS_BEFORE,
  bookingClosesAt,
  bookingHorizon,
  hasSlotBegun,
  isBookableTime,
  slotEndsAt,
  slotHoursText,
  slotLengthHours,
  slotStartsAt,
  TIME_SLOTS,
} from '~/lib/time-slots';

/** The one definition of slot hours and the booking cutoff (issue 19, docs/decisions/015-booking-cutoff.md). */
const taipei = (date: string, time: string) => new Date(`${date}T${time}+08:00`);

describe('slot hours (Taiwan time, UTC+8)', () => {
  it('places each slot at its hours whatever the server’s zone', () => {
    expect(slotStartsAt('2026-12-01', 'morning').toISOString()).toBe('2026-12-01T01:00:00.000Z');
    expect(slotEndsAt('2026-12-01', 'morning').toISOString()).toBe('2026-12-01T04:00:00.000Z');
    expect(slotStartsAt('2026-12-01', 'afternoon').toISOString()).toBe('2026-12-01T05:00:00.000Z');
    expect(slotEndsAt('2026-12-01', 'afternoon').toISOString()).toBe('2026-12-01T09:00:00.000Z');
    expect(slotStartsAt('2026-12-31', 'evening').toISOString()).toBe('2026-12-31T10:00:00.000Z');
    expect(slotEndsAt('2026-12-31', 'evening').toISOString()).toBe('2026-12-31T13:00:00.000Z');
    expect(TIME_SLOTS.map(slotHoursText)).toEqual(['09:00–12:00', '13:00–17:00', '18:00–21:00']);
    expect(TIME_SLOTS.map(slotLengthHours)).toEqual([3, 4, 3]);
  });

  it('closes bookings 3 hours before a slot begins, to the millisecond', () => {
    expect(BOOKING_CLOSES_HOURS_BEFORE).toBe(3);
    expect(bookingClosesAt('2026-12-01', 'evening')).toEqual(taipei('2026-12-01', '15:00:00'));
    expect(isBookableTime('2026-12-01', 'evening', taipei('2026-12-01', '14:59:59.999'))).toBe(true);
    expect(isBookableTime('2026-12-01', 'evening', taipei('2026-12-01', '15:00:00'))).toBe(false);
    expect(isBookableTime('2026-12-01', 'morning', taipei('2026-11-30', '23:59:00'))).toBe(true);
    expect(isBookableTime('2026-12-01', 'morning', taipei('2026-12-01', '06:00:00'))).toBe(false);
    expect(hasSlotBegun('2026-12-01', 'morning', taipei('2026-12-01', '08:59:59'))).toBe(false);
    expect(hasSlotBegun('2026-12-01', 'morning', taipei('2026-12-01', '09:00:00'))).toBe(true);
  });
});

describe('bookingHorizon', () => {
  it('at 18:34 (the evening of issue 19) nothing of today is bookable', () => {
    const horizon = bookingHorizon(taipei('2026-11-26', '18:34:00'));
    expect(horizon).toMatchObject({ fullDaysFrom: '2026-11-27', partialDays: [] });
  });

  it('lists the later slots of today while they take bookings', () => {
    expect(bookingHorizon(taipei('2026-11-26', '05:59:00'))).toMatchObject({ fullDaysFrom: '2026-11-26', partialDays: [] });
    expect(bookingHorizon(taipei('2026-11-26', '06:00:00'))).toMatchObject({
      fullDaysFrom: '2026-11-27',
      partialDays: [{ date: '2026-11-26', slots: ['afternoon', 'evening'] }],
    });
    expect(bookingHorizon(taipei('2026-11-26', '10:00:00')).partialDays).toEqual([{ date: '2026-11-26', slots: ['evening'] }]);
  });

  it('agrees with isBookableTime for every quarter hour of a day, and its key changes exactly at each cutoff', () => {
    const keys = new Set<string>();
    for (let minutes = 0; minutes < 24 * 60; minutes += 15) {
      const now = new Date(taipei('2026-11-26', '00:00:00').getTime() + minutes * 60_000);
      const horizon = bookingHorizon(now);
      keys.add(horizon.key);
      for (const day of ['2026-11-26', '2026-11-27']) {
        for (const slot of TIME_SLOTS) {
          const inHorizon = day >= horizon.fullDaysFrom || horizon.partialDays.some((d) => d.date === day && d.slots.includes(slot));
          expect(inHorizon, `${day} ${slot} at +${minutes} min`).toBe(isBookableTime(day, slot, now));
        }
      }
    }
    // 00:00–06:00, 06:00–10:00, 10:00–15:00, 15:00–24:00.
    expect(keys.size).toBe(4);
  });
});
