import { addDays } from './dates';

/**
 * The statistics' periods (issue 22, /admin/stats): the last 7, 30 or 90 Taiwan days up to today, this year
 * (1 January to today), or two dates the admin typed (both days included). Pure: the page, the API and the tests
 * resolve a period the same way.
 */
export const STATS_PRESETS = ['7d', '30d', '90d', 'year'] as const;
export type StatsPreset = (typeof STATS_PRESETS)[number];
export const DEFAULT_STATS_PRESET: StatsPreset = '30d';
/** The longest period one request may ask for: two years of days (the per-day chart stays drawable). */
export const STATS_MAX_DAYS = 731;

export interface StatsRange {
  from: string;
  to: string;
}

export function presetRange(preset: StatsPreset, today: string): StatsRange {
  if (preset === 'year') return { from: `${today.slice(0, 4)}-01-01`, to: today };
  const days = Number(preset.slice(0, -1));
  return { from: addDays(today, -(days - 1)), to: today };
}

/** Days from `from` to `to`, both included (1 for one day). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Every day of the period, in order. */
export function eachDay({ from, to }: StatsRange): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}

/** Every month (YYYY-MM) the period touches, in order. */
export function eachMonth({ from, to }: StatsRange): string[] {
  const months: string[] = [];
  let [y, m] = [Number(from.slice(0, 4)), Number(from.slice(5, 7))];
  const last = to.slice(0, 7);
  for (;;) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    months.push(month);
    if (month >= last) return months;
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  }
}

/** The Monday (YYYY-MM-DD) that starts the ISO week of a day. */
export function weekStart(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 Sunday … 6 Saturday
  return addDays(day, -((weekday + 6) % 7));
}

/** The Mondays of every week the period touches, in order (the first may start before `from`). */
export function eachWeek({ from, to }: StatsRange): string[] {
  const weeks: string[] = [];
  for (let d = weekStart(from); d <= to; d = addDays(d, 7)) weeks.push(d);
  return weeks;
}
