/** Tour dates are Taiwan calendar dates (YYYY-MM-DD) whatever the server's or viewer's zone. */
export const TAIPEI_TIME_ZONE = 'Asia/Taipei';

// Building an Intl formatter costs far more than using one: one per locale and style, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: string, style: 'day' | 'date' | 'dateTime'): Intl.DateTimeFormat {
  const key = `${style}|${locale}`;
  let format = formatters.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === 'dateTime'
        ? { timeZone: TAIPEI_TIME_ZONE, dateStyle: 'medium', timeStyle: 'short' }
        : style === 'date'
          ? { timeZone: TAIPEI_TIME_ZONE, dateStyle: 'long' }
          : { timeZone: TAIPEI_TIME_ZONE };
    format = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

/** Taiwan keeps UTC+8 all year (no daylight saving since 1979), so its day is the UTC day of now + 8 h. */
const TAIPEI_OFFSET_MS = 8 * 60 * 60 * 1000;

export function todayInTaipei(now = new Date()): string {
  // Plain arithmetic: this runs on every catalogue read, and an Intl format call costs far more.
  return new Date(now.getTime() + TAIPEI_OFFSET_MS).toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A date and time as shown on reviews: always Taiwan time (SPEC §2), in the reader's language. */
export function formatTaipeiDateTime(iso: string, locale: string): string {
  return dateFormat(locale, 'dateTime').format(new Date(iso));
}

export function formatTaipeiDate(iso: string, locale: string): string {
  return dateFormat(locale, 'date').format(new Date(iso));
}

/** A tour day (YYYY-MM-DD) as a short weekday and date in the reader's language: "Sat, Nov 28", "11月28日(土)". */
/** Formatted days by locale: a page of cards shows the same few days many times. */
const formattedDays = new Map<string, string>();

export function formatDay(isoDate: string, locale: string): string {
  const remembered = formattedDays.get(`${locale}|${isoDate}`);
  if (remembered !== undefined) return remembered;
  const key = `weekday|${locale}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
    formatters.set(key, format);
  }
  const formatted = format.format(new Date(`${isoDate}T00:00:00Z`));
  // A few years of days in three languages at most; a long-running server starts over past that.
  if (formattedDays.size >= 5_000) formattedDays.clear();
  formattedDays.set(`${locale}|${isoDate}`, formatted);
  return formatted;
}
