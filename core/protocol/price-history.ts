/**
 * A listing's price since it came on the market (public.listing_price_history; docs/product.md §2,
 * "Price history"): newest first, each change and the listing itself. The detail (dialog and
 * element) and the listing page's HTML read it through this one shape.
 */
import type { Lang } from '../lang.ts';
import { formatNumber, priceValue } from './format.ts';

export type PriceEventKind = 'listed' | 'reduced' | 'increased';

export interface PriceEvent {
  at: string;
  event: PriceEventKind;
  price: number;
  /** the difference from the price before (negative for a cut); null for 'listed' */
  change: number | null;
}

const KINDS: readonly string[] = ['listed', 'reduced', 'increased'];

/** The rows as the call answers them, checked: an unknown event or a date that is not one is left out. */
export function parsePriceHistory(rows: unknown): PriceEvent[] {
  if (!Array.isArray(rows)) return [];
  const out: PriceEvent[] = [];
  for (const row of rows as Array<Record<string, unknown>>) {
    if (
      !row ||
      typeof row !== 'object' ||
      !KINDS.includes(String(row.event)) ||
      !Number.isFinite(Date.parse(String(row.at)))
    )
      continue;
    const change = row.change === null || row.change === undefined ? null : Number(row.change);
    out.push({
      at: String(row.at),
      event: row.event as PriceEventKind,
      price: priceValue(row.price),
      change: change !== null && Number.isFinite(change) ? change : null,
    });
  }
  return out;
}

/** "-$10,000", "+$5,000" (a change of the price), or '' */
export function formatChange(change: number | null): string {
  if (change === null || change === 0) return '';
  const amount = `$${formatNumber(Math.abs(change))}`;
  return change < 0 ? `−${amount}` : `+${amount}`;
}

const dateFormats = new Map<Lang, Intl.DateTimeFormat>();

/** "3 Nov 2026" / "3 nov 2026": a change's date, in Ecuador's time (a formatter per language, made once). */
export function formatEventDate(at: string, lang: Lang): string {
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang === 'es' ? 'es-EC' : 'en-US', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      timeZone: 'America/Guayaquil',
    });
    dateFormats.set(lang, format);
  }
  return format.format(new Date(at));
}
