import { describe, expect, it } from 'vitest';
import { addDays, formatTourDay, formatTaipeiDate } from '~/lib/dates';
import { SUPPORTED_LOCALES } from '~/i18n/config';

describe('formatTourDay (app/lib/dates.ts)', () => {
  for (const locale of SUPPORTED_LOCALES) {
    it(`words every day of 2026–2027 in ${locale} as Intl does`, () => {
      const intl = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
      for (let day = '2026-01-01'; day < '2028-01-01'; day = addDays(day, 1)) {
        expect(formatTourDay(day, locale), day).toBe(intl.format(new Date(`${day}T00:00:00Z`)));
      }
    });
  }

  it('shows the examples the pages show', () => {
    expect(['zh-TW', 'en', 'ja'].map((locale) => formatTourDay('2026-11-28', locale))).toEqual(['11月28日週六', 'Sat, Nov 28', '11月28日(土)']);
  });

  it('leaves another locale to Intl', () => {
    expect(formatTourDay('2026-11-28', 'fr')).toBe(new Intl.DateTimeFormat('fr', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' }).format(new Date('2026-11-28T00:00:00Z')));
  });
});

describe('formatTaipeiDate (app/lib/dates.ts)', () => {
  for (const locale of SUPPORTED_LOCALES) {
    it(`words instants of 2026–2027 as Taiwan days in ${locale} as Intl does`, () => {
      const intl = new Intl.DateTimeFormat(locale, { timeZone: 'Asia/Taipei', dateStyle: 'long' });
      // Every 5 hours and 7 minutes, so each day is met at several hours, around midnight in Taiwan included.
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += (5 * 60 + 7) * 60_000) {
        const iso = new Date(t).toISOString();
        expect(formatTaipeiDate(iso, locale), iso).toBe(intl.format(new Date(t)));
      }
    });
  }

  it('is the Taiwan day: 16:00 UTC is already the next day', () => {
    expect(formatTaipeiDate('2026-11-28T16:00:00.000Z', 'en')).toBe('November 29, 2026');
    expect(formatTaipeiDate('2026-11-28T15:59:59.000Z', 'zh-TW')).toBe('2026年11月28日');
  });
});
