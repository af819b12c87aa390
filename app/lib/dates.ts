/** Tour dates are Taiwan calendar dates (YYYY-MM-DD) whatever the server's or viewer's zone. */
export const TAIPEI_TIME_ZONE = 'Asia/Taipei';

export function todayInTaipei(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: TAIPEI_TIME_ZONE }).format(now);
}

export function addDays(isoDate: string, days: number): string {
  const d = new Date(`${isoDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A date and time as shown on reviews: always Taiwan time (SPEC §2), in the reader's language. */
export function formatTaipeiDateTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: TAIPEI_TIME_ZONE,
    dateStyle: 'medium',
    timeStyle: 'short',
  }).format(new Date(iso));
}

export function formatTaipeiDate(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone: TAIPEI_TIME_ZONE, dateStyle: 'long' }).format(new Date(iso));
}
