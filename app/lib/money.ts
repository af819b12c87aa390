const formatters = new Map<string, Intl.NumberFormat>();

/** Prices are whole New Taiwan dollars, always shown as NT$ with the locale's digit grouping. */
export function formatNtd(amount: number, locale: string): string {
  if (GROUPED_BY_THOUSANDS.has(locale)) return `NT$${groupThousands(amount)}`;
  let format = formatters.get(locale);
  if (!format) {
    // Building an Intl formatter costs far more than using one: one per locale, kept.
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    formatters.set(locale, format);
  }
  return `NT$${format.format(amount)}`;
}

/**
 * zh-TW, en and ja all write whole numbers with a comma every three digits, so those are grouped here: the
 * first Intl object a page builds costs 40–70 ms of a phone's main thread while guide cards hydrate
 * (tests/unit/money.test.ts checks it against Intl.NumberFormat).
 */
const GROUPED_BY_THOUSANDS = new Set(['zh-TW', 'en', 'ja']);

function groupThousands(amount: number): string {
  const whole = Math.round(Math.abs(amount));
  const digits = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return amount < 0 && whole !== 0 ? `-${digits}` : digits;
}
