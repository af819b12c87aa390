import { describe, expect, it } from 'vitest';
import { SUPPORTED_LOCALES } from '~/i18n/config';
import { formatNtd } from '~/lib/money';

describe('formatNtd (app/lib/money.ts)', () => {
  const amounts = [0, 1, 999, 1000, 1234, 12345, 99999, 100000, 1234567, 2000000000, 1499.5, 0.4, 2500.49, -1200];
  for (const locale of SUPPORTED_LOCALES) {
    it(`groups whole dollars in ${locale} as Intl.NumberFormat does`, () => {
      const intl = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
      for (const amount of amounts) expect(formatNtd(amount, locale), String(amount)).toBe(`NT$${intl.format(amount)}`);
      for (let amount = 0; amount < 300_000; amount += 7) expect(formatNtd(amount, locale)).toBe(`NT$${intl.format(amount)}`);
    });
  }

  it('leaves another locale to Intl (German groups with dots)', () => {
    expect(formatNtd(1234567, 'de')).toBe('NT$1.234.567');
  });
});
