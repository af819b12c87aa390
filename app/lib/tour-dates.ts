import { TAIPEI_TIME_ZONE } from './dates';

/** Tour days (YYYY-MM-DD, Taiwan calendar dates) as people read them: "Tue, May 14", "5月14日(火)", "5月14日 週二". */
const formats = new Map<string, Intl.DateTimeFormat>();
function format(locale: string, style: 'short' | 'long' | 'month'): Intl.DateTimeFormat {
  const key = `${style}|${locale}`;
  let f = formats.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      style === 'month'
        ? { timeZone: TAIPEI_TIME_ZONE, year: 'numeric', month: 'long' }
        : style === 'long'
          ? { timeZone: TAIPEI_TIME_ZONE, year: 'numeric', month: 'long', day: 'numeric', weekday: 'long' }
          : { timeZone: TAIPEI_TIME_ZONE, month: 'short', day: 'numeric', weekday: 'short' };
    f = new Intl.DateTimeFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}

/** Noon in Taipei of that day: formatting it in Asia/Taipei always gives the same calendar day. */
const noon = (isoDate: string) => new Date(`${isoDate}T04:00:00Z`);

export function formatTourDay(isoDate: string, locale: string): string {
  return format(locale, 'short').format(noon(isoDate));
}
export function formatTourDayLong(isoDate: string, locale: string): string {
  return format(locale, 'long').format(noon(isoDate));
}
export function formatMonth(isoDate: string, locale: string): string {
  return format(locale, 'month').format(noon(isoDate));
}
/** 0 = Sunday … 6 = Saturday, of a calendar date. */
export function weekdayOf(isoDate: string): number {
  return new Date(`${isoDate}T00:00:00Z`).getUTCDay();
}
