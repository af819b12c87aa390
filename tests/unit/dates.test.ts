import { describe, expect, it } from 'vitest';
import { addDays, formatDay } from '~/lib/dates';
import { SUPPORTED_LOCALES } from '~/i18n/config';

describe('formatDay (app/lib/dates.ts)', () => {
  for (const locale of SUPPORTED_LOCALES) {
    it(`words every day of 2026–2027 in ${locale} as Intl does`, () => {
      const intl = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' });
      for (let day = '2026-01-01'; day < '2028-01-01'; day = addDays(day, 1)) {
        expect(formatDay(day, locale), day).toBe(intl.format(new Date(`${day}T00:00:00Z`)));
      }
    });
  }

  it('shows the examples the pages show', () => {
    expect(['zh-TW', 'en', 'ja'].map((locale) => formatDay('2026-11-28', locale))).toEqual(['11月28日週六', 'Sat, Nov 28', '11月28日(土)']);
  });

  it('leaves another locale to Intl', () => {
    expect(formatDay('2026-11-28', 'fr')).toBe(new Intl.DateTimeFormat('fr', { timeZone: 'UTC', weekday: 'short', month: 'short', day: 'numeric' }).format(new Date('2026-11-28T00:00:00Z')));
  });
});
