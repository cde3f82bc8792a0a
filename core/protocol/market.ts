/**
 * The market index as its readers take it (docs/market.md): the rows public.market_index and
 * public.market_ranking answer, read once here for the pages and the element alike, and what both
 * say of them (the last full month, the change over a year, a typical flat's price).
 */
import { formatNumber } from './format.ts';
import { num, optNum, records, str } from './read.ts';
import { now as clockNow } from '../clock.ts';
import { ecuadorMonth } from './calendar.ts';

/** The type groups of the index, in the order they are shown. */
const TYPE_GROUPS = ['all', 'house', 'apartment', 'land', 'commercial'] as const;
export type TypeGroup = (typeof TYPE_GROUPS)[number];
export const isTypeGroup = (value: unknown): value is TypeGroup => (TYPE_GROUPS as readonly unknown[]).includes(value);

/** One month of a place's index: its own figure, or its parent's (then `path` is the parent's). */
export interface MarketFigure {
  /** the month's first day, 'YYYY-MM-DD' */
  month: string;
  path: string;
  name: string;
  listings: number;
  median: number;
  p25: number;
  p75: number;
  newListings: number;
  priceCuts: number;
  medianDays: number;
}

/** A place in a ranking: last month's figure, a year before, and the thirteen months between. */
export interface MarketRank {
  path: string;
  name: string;
  listings: number;
  median: number;
  yearBefore: number | null;
  trend: Array<number | null>;
  /** where its listings are, on average */
  lat: number | null;
  lng: number | null;
}

export function parseMarketFigures(rows: unknown[]): MarketFigure[] {
  return records(rows).map((o) => ({
    month: str(o.month).slice(0, 10),
    path: str(o.path),
    name: str(o.name),
    listings: num(o.listings),
    median: num(o.median),
    p25: num(o.p25),
    p75: num(o.p75),
    newListings: num(o.new_listings),
    priceCuts: num(o.price_cuts),
    medianDays: num(o.median_days),
  }));
}

export function parseMarketRanking(rows: unknown[]): MarketRank[] {
  return records(rows).map((o) => ({
    path: str(o.path),
    name: str(o.name),
    listings: num(o.listings),
    median: num(o.median),
    yearBefore: optNum(o.median_year_before),
    trend: Array.isArray(o.trend) ? o.trend.map((v) => (v === null ? null : num(v))) : [],
    lat: optNum(o.lat),
    lng: optNum(o.lng),
  }));
}

/** The last full month's figure (the month so far in Ecuador is not a month yet), if there is one. */
export function lastFullMonth(figures: MarketFigure[], now: Date | number = clockNow()): MarketFigure | undefined {
  const month = ecuadorMonth(now, 1);
  return figures.find((f) => f.month === month);
}

/** The change of the median from twelve months before `figure`'s month, as a fraction (0.05: 5% up); null when either is missing or of another place. */
export function yearChange(figures: MarketFigure[], figure: MarketFigure | undefined): number | null {
  if (!figure) return null;
  const [y, m] = figure.month.split('-').map(Number) as [number, number];
  const before = new Date(Date.UTC(y - 1, m - 1, 1)).toISOString().slice(0, 10);
  const then = figures.find((f) => f.month === before && f.path === figure.path);
  return then && then.median > 0 ? figure.median / then.median - 1 : null;
}

/** The typical asking price of a flat of `m2` (Plusvalía's 70 m² two-bedroom, 110 m² three-bedroom): the median USD/m² times its area, to the thousand. */
export function typicalPrice(medianPerM2: number, m2: number): number {
  return Math.round((medianPerM2 * m2) / 1000) * 1000;
}

/** The kind of place a path names (docs/market.md): 'ecuador', 'provincia/<p>', '<city>', '<city>/<sector>'. */
export function placeKind(path: string): 'country' | 'province' | 'city' | 'sector' {
  if (path === 'ecuador') return 'country';
  if (path.startsWith('provincia/')) return 'province';
  return path.includes('/') ? 'sector' : 'city';
}

/** A path as the index writes them: lower-case slugs, at most three parts. */
export const MARKET_PATH = /^(ecuador|provincia\/[a-z0-9-]{1,60}|[a-z0-9-]{1,60}(\/[a-z0-9-]{1,60})?)$/;

/** A change as the reports say it, numbers written as the site writes them (core/protocol/format.ts): "+4.2%", "-1.5%", "0.0%". */
export function formatChange(change: number): string {
  const pct = Math.round(change * 1000) / 10;
  return `${pct > 0 ? '+' : pct < 0 ? '-' : ''}${formatNumber(Math.abs(pct), 1).replace(/^(\d[\d,]*)$/, '$1.0')}%`;
}

/** The type group of a property type (the index's rule, supabase/schemas/25_market.sql internal.market_type_group), or null. */
export function typeGroupOf(propertyType: string): Exclude<TypeGroup, 'all'> | null {
  if (propertyType === 'house' || propertyType === 'apartment' || propertyType === 'land') return propertyType;
  // a suite is a small flat, a quinta a house on its land (docs/market.md)
  if (propertyType === 'suite') return 'apartment';
  if (propertyType === 'quinta') return 'house';
  if (propertyType === 'office' || propertyType === 'business_premises' || propertyType === 'commercial_building')
    return 'commercial';
  return null;
}

/** A listing's asking price per m² as the index counts it (land by its lot, else its built area), or null when the index would leave it out. */
export function pricePerM2(listing: { price: number; area: number; lot: number; propertyType: string }): number | null {
  const area = listing.propertyType === 'land' && listing.lot > 0 ? listing.lot : listing.area;
  return listing.price > 0 && area >= 15 ? listing.price / area : null;
}

/** A place's rents now (internal.market_rents; docs/market.md "Rents"): USD a month per m², and a two-bedroom flat's. */
export interface MarketRents extends Pick<MarketFigure, 'path' | 'name' | 'listings' | 'median' | 'p25' | 'p75'> {
  /** `path`: the place the figures are of, the one asked for or the nearest above it with enough rentals */
  twoBedroom: number | null;
}

function parseMarketRents(value: unknown): MarketRents | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const o = value as Record<string, unknown>;
  const median = Number(o.median);
  if (typeof o.path !== 'string' || !Number.isFinite(median)) return undefined;
  const two = o.two_bedroom === null || o.two_bedroom === undefined ? null : Number(o.two_bedroom);
  return {
    path: o.path,
    name: String(o.name ?? ''),
    listings: Number(o.listings) || 0,
    median,
    p25: Number(o.p25) || 0,
    p75: Number(o.p75) || 0,
    twoBedroom: two !== null && Number.isFinite(two) ? two : null,
  };
}

/** public.market_report's answer as a report's figures (core/view/market-report.tsx MarketData). */
export function parseMarketReport(value: unknown): {
  all: MarketFigure[];
  byType: Array<[Exclude<TypeGroup, 'all'>, MarketFigure[]]>;
  ranking: MarketRank[];
  cities?: MarketRank[];
  rents?: MarketRents;
} {
  const o = (value ?? {}) as Record<string, unknown>;
  const byType = (o.by_type ?? {}) as Record<string, unknown>;
  const groups = TYPE_GROUPS.filter((g): g is Exclude<TypeGroup, 'all'> => g !== 'all');
  return {
    all: parseMarketFigures(Array.isArray(o.all) ? o.all : []),
    byType: groups.map((g) => [g, parseMarketFigures(Array.isArray(byType[g]) ? (byType[g] as unknown[]) : [])]),
    ranking: parseMarketRanking(Array.isArray(o.ranking) ? o.ranking : []),
    ...(Array.isArray(o.cities) ? { cities: parseMarketRanking(o.cities) } : {}),
    ...(parseMarketRents(o.rents) ? { rents: parseMarketRents(o.rents) } : {}),
  };
}
