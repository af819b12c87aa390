import { addDays } from './dates';

/** How many days of open slots the booking page lists at once (60 days × 3 slots is too long for a phone). */
export const BOOKING_PAGE_DAYS = 14;

/**
 * One page of a date-sorted slot list: the slots from `from` to `from + days - 1`, and where the pages before
 * and after start. "Later" jumps to the next day that has a slot, so a page is never empty when more exist;
 * "earlier" goes back one page (never before `today`). Pure: the loader and tests share it.
 */
export function slotPage<T extends { date: string }>(
  slots: readonly T[],
  { today, from, days = BOOKING_PAGE_DAYS }: { today: string; from: string | null; days?: number },
): { from: string; to: string; slots: T[]; earlier: string | null; later: string | null } {
  const start = from && /^\d{4}-\d{2}-\d{2}$/.test(from) && from > today ? from : today;
  const to = addDays(start, days - 1);
  const shown = slots.filter((s) => s.date >= start && s.date <= to);
  const next = slots.find((s) => s.date > to);
  const back = addDays(start, -days);
  return {
    from: start,
    to,
    slots: shown,
    earlier: start > today ? (back > today ? back : today) : null,
    later: next ? next.date : null,
  };
}
