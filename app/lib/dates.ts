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

/** A date and time in Taiwan time, in the reader's language (notifications, order history; reviews show only the day). */
export function formatTaipeiDateTime(iso: string, locale: string): string {
  return dateFormat(locale, 'dateTime').format(new Date(iso));
}

/**
 * A day in Taiwan as a long date: "2026年1月4日", "January 4, 2026". Written out for the app's languages as Intl's
 * `dateStyle: 'long'` words it (tests/unit/dates.test.ts), for the same reason as formatTourDay below.
 */
export function formatTaipeiDate(iso: string, locale: string): string {
  const wording = LONG_DATE_WORDING[locale];
  if (!wording) return dateFormat(locale, 'date').format(new Date(iso));
  const taipei = new Date(new Date(iso).getTime() + TAIPEI_OFFSET_MS);
  return wording(taipei.getUTCFullYear(), taipei.getUTCMonth() + 1, taipei.getUTCDate());
}

const EN_LONG_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const LONG_DATE_WORDING: Record<string, (year: number, month: number, day: number) => string> = {
  'zh-TW': (year, month, day) => `${year}年${month}月${day}日`,
  ja: (year, month, day) => `${year}年${month}月${day}日`,
  en: (year, month, day) => `${EN_LONG_MONTHS[month - 1]} ${day}, ${year}`,
};

/**
 * A tour day (YYYY-MM-DD) as a short weekday and date in the reader's language: "Sat, Nov 28", "11月28日週六",
 * "11月28日(土)". The three languages are written out here, in the words and order Intl's
 * `{ weekday: 'short', month: 'short', day: 'numeric' }` gives (tests/unit/dates.test.ts compares every day of two
 * years): building that first Intl formatter took 40–70 ms of a phone's main thread while a page of guide cards
 * hydrated, and the browser's ICU could word a day differently from the server's. Other locales use Intl.
 */
const EN_WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const EN_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_WORDING: Record<string, (month: number, day: number, weekday: number) => string> = {
  'zh-TW': (month, day, weekday) => `${month}月${day}日週${'日一二三四五六'[weekday]}`,
  ja: (month, day, weekday) => `${month}月${day}日(${'日月火水木金土'[weekday]})`,
  en: (month, day, weekday) => `${EN_WEEKDAYS[weekday]}, ${EN_MONTHS[month - 1]} ${day}`,
};

export function formatTourDay(isoDate: string, locale: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  const wording = DAY_WORDING[locale];
  if (wording) return wording(date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCDay());
  const key = `weekday|${locale}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
    formatters.set(key, format);
  }
  return format.format(date);
}

/** Noon in Taipei of a tour day: formatting it in Asia/Taipei always gives the same calendar day. */
const taipeiNoon = (isoDate: string) => new Date(`${isoDate}T04:00:00Z`);

function tourFormat(locale: string, style: 'long' | 'month'): Intl.DateTimeFormat {
  const key = `tour-${style}|${locale}`;
  let format = formatters.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions =
      style === 'month'
        ? { timeZone: TAIPEI_TIME_ZONE, year: 'numeric', month: 'long' }
        : { timeZone: TAIPEI_TIME_ZONE, year: 'numeric', month: 'long', day: 'numeric', weekday: 'long' };
    format = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
}

/** A tour day with its year and full weekday ("Tuesday, May 14, 2026"), for headings. */
export function formatTourDayLong(isoDate: string, locale: string): string {
  return tourFormat(locale, 'long').format(taipeiNoon(isoDate));
}

/** The month of a tour day ("May 2026"), for calendars. */
export function formatMonth(isoDate: string, locale: string): string {
  return tourFormat(locale, 'month').format(taipeiNoon(isoDate));
}

/** 0 = Sunday … 6 = Saturday, of a calendar date. */
export function weekdayOf(isoDate: string): number {
  return new Date(`${isoDate}T00:00:00Z`).getUTCDay();
}
