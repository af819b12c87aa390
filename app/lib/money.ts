const formatters = new Map<string, Intl.NumberFormat>();

/** Prices are whole New Taiwan dollars, always shown as NT$ with the locale's digit grouping. */
export function formatNtd(amount: number, locale: string): string {
  let format = formatters.get(locale);
  if (!format) {
    // Building an Intl formatter costs far more than using one: one per locale, kept.
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    formatters.set(locale, format);
  }
  return `NT$${format.format(amount)}`;
}
