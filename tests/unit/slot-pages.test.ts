import { describe, expect, it } from 'vitest';
import { addDays } from '~/lib/dates';
import { isLargeSaveAnswer, jsonBytes } from '~/lib/save-answer';
import { slotPage } from '~/lib/slot-pages';

const today = '2026-05-10';
const slots = (days: number[]) => days.map((d) => ({ date: addDays(today, d) }));

describe('slotPage: two weeks of the booking list at a time', () => {
  it('starts today, shows 14 days, and points "later" at the next day that has a slot', () => {
    const page = slotPage(slots([0, 3, 13, 14, 30]), { today, from: null });
    expect(page).toMatchObject({ from: today, to: addDays(today, 13), earlier: null, later: addDays(today, 14) });
    expect(page.slots.map((s) => s.date)).toEqual([today, addDays(today, 3), addDays(today, 13)]);
    // A gap in the guide's calendar is skipped: the next page starts at the next open day.
    expect(slotPage(slots([0, 30]), { today, from: null }).later).toBe(addDays(today, 30));
  });

  it('reads ?from=, never before today, and goes back one page (clamped to today)', () => {
    expect(slotPage(slots([20]), { today, from: addDays(today, 20) })).toMatchObject({ earlier: addDays(today, 6), later: null });
    expect(slotPage(slots([5]), { today, from: addDays(today, 5) }).earlier).toBe(today);
    expect(slotPage(slots([5]), { today, from: '2020-01-01' }).from).toBe(today);
    expect(slotPage(slots([5]), { today, from: 'nonsense' }).from).toBe(today);
  });
});

describe('save answer size (SPEC §8)', () => {
  it('counts UTF-8 bytes of the JSON and warns above 10,000', () => {
    expect(jsonBytes({ a: '上午' })).toBe(14);
    expect(isLargeSaveAnswer(10_000)).toBe(false);
    expect(isLargeSaveAnswer(10_001)).toBe(true);
  });
});
