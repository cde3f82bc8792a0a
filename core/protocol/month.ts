/**
 * A month as the site names it: "October 2026" / "octubre de 2026", or "Oct 2026" / "oct 2026"
 * short, from the month names of the locale files (`months`), as every other text. Not
 * Intl.DateTimeFormat: the first date formatter a page makes costs some 75 ms of a phone's main
 * thread (docs/benchmarks.md "Measured apart"), and a listing's page made one only for this.
 * month.test.ts holds the names to Intl's in both languages.
 */
import type { Translate } from '../translate.ts';

/** `month`: 'YYYY-MM' or 'YYYY-MM-DD' (its day not read). */
export function formatMonth(month: string, t: Translate, style: 'long' | 'short' = 'long'): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return t(`months.${style}Year`, { month: t(`months.${style}.${m}`), year: String(year) });
}
