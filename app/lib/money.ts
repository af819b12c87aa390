/** Prices are whole New Taiwan dollars, always shown as NT$ with the locale's digit grouping. */
export function formatNtd(amount: number, locale: string): string {
  return `NT$${new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(amount)}`;
}
