/**
 * The search's filters (docs/product.md §3, §5, §7) as the browser holds them, which of them apply
 * (the ignored values of §5: 'any' type, a 0 minimum, the 999,999,999 maximum, blanks), and the
 * applied ones as named arguments: what public.listing_clusters takes and what a saved search keeps
 * (internal.listing_matches reads the same names). One home for the browser, the map, the alerts
 * function and the alert mails.
 */
import { encodePolygon, validPolygon, type LngLat } from './polygon.ts';

/** the spec's "any" maximum */
export const PRICE_MAX_ANY = 999_999_999;

export const FEATURE_FLAGS = ['pool', 'view', 'waterfront', 'garage', 'newConstruction', 'airConditioning'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** A feature as the database names it (internal.listings.features): newConstruction -> new_construction. */
export const featureColumn = (flag: FeatureFlag): string => flag.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const FEATURE_BY_COLUMN = new Map(FEATURE_FLAGS.map((f) => [featureColumn(f), f]));
export const featureFlag = (column: string): FeatureFlag | undefined => FEATURE_BY_COLUMN.get(column);

/**
 * A place of the location box: 'quito' (a city), 'quito/inaquito' (a sector of it) or
 * 'provincia/pichincha' (a province), the slugs internal.places keeps (its SQL reads the same
 * paths in internal.listing_matches). Anything else is no place.
 */
export type PlacePath = { province: string } | { city: string; sector?: string };
const SLUG = '[a-z0-9]+(?:-[a-z0-9]+)*';
const PLACE = new RegExp(`^(?:provincia/(${SLUG})|(${SLUG})(?:/(${SLUG}))?)$`);
export function parsePlace(path: string | null | undefined): PlacePath | undefined {
  const m = typeof path === 'string' && path.length <= 170 ? PLACE.exec(path) : null;
  if (!m) return undefined;
  if (m[1]) return { province: m[1] };
  return m[3] ? { city: m[2] as string, sector: m[3] } : { city: m[2] as string };
}

export interface SearchFilters {
  propertyType?: string;
  minPrice?: number;
  maxPrice?: number;
  beds?: number;
  baths?: number;
  minSqft?: number;
  maxSqft?: number;
  /** free text: a city, a sector or an address (partial, case- and accent-insensitive) */
  city?: string;
  /** a place picked in the location box (parsePlace) */
  place?: string;
  /** the place's name as the box showed it ('Iñaquito, Quito'), for the hero and an alert's words */
  placeName?: string;
  /** only this agent's listings (agents' own websites) */
  agentId?: string;
  /** 'Search this area': [west, south, east, north] in degrees */
  bbox?: [number, number, number, number];
  yearBuiltFrom?: number;
  yearBuiltTo?: number;
  minLotSize?: number;
  maxLotSize?: number;
  features?: Partial<Record<FeatureFlag, boolean>>;
  /** words in the title, the features and the description (public.words_query: "a phrase", -not, or) */
  keywords?: string;
  /** an area drawn on the map (core/protocol/polygon.ts validPolygon) */
  polygon?: LngLat[];
}

/** the longest words a search keeps (public.words_query reads 200 characters) */
export const KEYWORDS_MAX = 200;

/** A search's words as it keeps them: every run of spaces one space, trimmed, at most KEYWORDS_MAX. */
export const cleanKeywords = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim().slice(0, KEYWORDS_MAX);

const positive = (n: number | undefined): n is number => typeof n === 'number' && Number.isFinite(n) && n > 0;

/** The filters that apply, after docs/product.md §5's ignored values: one list for every call. */
export type AppliedFilters = Pick<
  SearchFilters,
  'propertyType' | 'minPrice' | 'maxPrice' | 'beds' | 'baths' | 'minSqft' | 'maxSqft' | 'city' | 'place' | 'placeName' | 'agentId' | 'bbox' | 'yearBuiltFrom' | 'yearBuiltTo' | 'minLotSize' | 'maxLotSize' | 'features' | 'keywords' | 'polygon'
>;

export function appliedFilters(f: SearchFilters): AppliedFilters {
  const out: AppliedFilters = {};
  const type = f.propertyType?.trim();
  if (type && type.toLowerCase() !== 'any') out.propertyType = type;
  if (positive(f.minPrice)) out.minPrice = f.minPrice;
  if (positive(f.maxPrice) && f.maxPrice < PRICE_MAX_ANY) out.maxPrice = f.maxPrice;
  if (positive(f.beds)) out.beds = f.beds;
  if (positive(f.baths)) out.baths = f.baths;
  if (positive(f.minSqft)) out.minSqft = f.minSqft;
  if (positive(f.maxSqft)) out.maxSqft = f.maxSqft;
  const city = f.city?.trim();
  if (city) out.city = city;
  if (parsePlace(f.place)) {
    out.place = f.place;
    const name = f.placeName?.trim();
    if (name) out.placeName = name;
  }
  const agent = f.agentId?.trim();
  if (agent) out.agentId = agent;
  if (f.bbox) out.bbox = f.bbox;
  for (const key of ['yearBuiltFrom', 'yearBuiltTo', 'minLotSize', 'maxLotSize'] as const) if (positive(f[key])) out[key] = f[key];
  const features = FEATURE_FLAGS.filter((flag) => f.features?.[flag] === true);
  if (features.length) out.features = Object.fromEntries(features.map((flag) => [flag, true]));
  const words = cleanKeywords(f.keywords);
  if (words) out.keywords = words;
  const polygon = validPolygon(f.polygon);
  if (polygon) out.polygon = polygon;
  return out;
}

/** The applied filters by the names of public.listing_clusters and internal.listing_matches. */
export interface FilterArgs {
  property_type?: string;
  price_min?: number;
  price_max?: number;
  beds_min?: number;
  baths_min?: number;
  area_min?: number;
  area_max?: number;
  city?: string;
  place?: string;
  /** the place's name, for words only (an alert's description); no condition */
  place_name?: string;
  /** the features every match has, by their database names */
  features?: string[];
  year_min?: number;
  year_max?: number;
  lot_min?: number;
  lot_max?: number;
  agent?: string;
  area_west?: number;
  area_south?: number;
  area_east?: number;
  area_north?: number;
  /** the search's words (public.words_query) */
  words?: string;
  /** a drawn area: [lng, lat] points (internal.area_polygon) */
  polygon?: LngLat[];
}

/** Each applied filter and its argument's name (the area is four arguments, below). */
const ARG_NAMES = [
  ['propertyType', 'property_type'],
  ['minPrice', 'price_min'],
  ['maxPrice', 'price_max'],
  ['beds', 'beds_min'],
  ['baths', 'baths_min'],
  ['minSqft', 'area_min'],
  ['maxSqft', 'area_max'],
  ['city', 'city'],
  ['place', 'place'],
  ['placeName', 'place_name'],
  ['yearBuiltFrom', 'year_min'],
  ['yearBuiltTo', 'year_max'],
  ['minLotSize', 'lot_min'],
  ['maxLotSize', 'lot_max'],
  ['agentId', 'agent'],
  ['keywords', 'words'],
] as const satisfies ReadonlyArray<readonly [keyof AppliedFilters, keyof FilterArgs]>;

export function filterArgs(filters: SearchFilters): FilterArgs {
  const f = appliedFilters(filters);
  const args: Record<string, unknown> = {};
  for (const [filter, arg] of ARG_NAMES) if (f[filter]) args[arg] = f[filter];
  if (f.features) args.features = FEATURE_FLAGS.filter((flag) => f.features?.[flag]).map(featureColumn);
  if (f.bbox) [args.area_west, args.area_south, args.area_east, args.area_north] = f.bbox;
  if (f.polygon) args.polygon = f.polygon;
  return args as FilterArgs;
}

/** Back from the arguments (a saved search) to the filters the search page takes. */
export function filtersFromArgs(args: FilterArgs): AppliedFilters {
  const f: Record<string, unknown> = {};
  for (const [filter, arg] of ARG_NAMES) if (args[arg]) f[filter] = args[arg];
  const flags = (args.features ?? []).map(featureFlag).filter((flag): flag is FeatureFlag => flag !== undefined);
  if (flags.length) f.features = Object.fromEntries(flags.map((flag) => [flag, true]));
  const area = [args.area_west, args.area_south, args.area_east, args.area_north];
  if (area.every((n) => typeof n === 'number')) f.bbox = area;
  const polygon = validPolygon(args.polygon);
  if (polygon) f.polygon = polygon;
  return f as AppliedFilters;
}

/** "w,s,e,n" with 5 decimals (about a metre), as the search page's address writes 'Search this area'. */
export function formatBbox(b: [number, number, number, number]): string {
  return b.map((n) => Number(n.toFixed(5))).join(',');
}

/**
 * An area as [west, south, east, north] when it is one: four finite numbers, west before east and
 * south before north, within the world's degrees. The one rule for an area from an address or a
 * request body.
 */
export function validBbox(value: unknown): [number, number, number, number] | undefined {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((n) => typeof n === 'number' && Number.isFinite(n))) return undefined;
  const [w, s, e, n] = value as [number, number, number, number];
  if (w >= e || s >= n || Math.abs(s) > 90 || Math.abs(n) > 90 || Math.abs(w) > 180 || Math.abs(e) > 180) return undefined;
  return [w, s, e, n];
}

/** Back from formatBbox's "w,s,e,n"; anything else is no area. */
export function parseBbox(text: string | null | undefined): [number, number, number, number] | undefined {
  const parts = (text ?? '').split(',');
  return parts.length === 4 && parts.every((p) => p.trim() !== '') ? validBbox(parts.map(Number)) : undefined;
}

/**
 * The same search, whatever order its filters came in and however its words are cased: what a
 * saved search is unique by (with its address), and what tells the search page that its count
 * must be asked again.
 */
export function filtersKey(args: FilterArgs): string {
  const sorted = Object.fromEntries(
    Object.entries(args)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, typeof v === 'string' ? v.trim().toLowerCase() : v])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  return JSON.stringify(sorted);
}

/**
 * The search page's query for these filters (its own parameter names, docs/product.md §4), e.g. the
 * "see all" link of an alert mail; the page reads it back to the same filters (a test holds the two
 * to one table of cases).
 */
export function searchPageQuery(filters: AppliedFilters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  if (filters.propertyType) q.set('propertyType', filters.propertyType);
  if (filters.city) q.set('city', filters.city);
  if (filters.keywords) q.set('keywords', filters.keywords);
  if (filters.place) q.set('place', filters.place);
  if (filters.place && filters.placeName) q.set('placeName', filters.placeName);
  for (const key of ['minPrice', 'maxPrice', 'beds', 'baths', 'minSqft', 'maxSqft', 'yearBuiltFrom', 'yearBuiltTo', 'minLotSize', 'maxLotSize'] as const) {
    const v = filters[key];
    if (typeof v === 'number' && v > 0) q.set(key, String(v));
  }
  for (const flag of FEATURE_FLAGS) if (filters.features?.[flag]) q.set(flag, 'true');
  if (filters.bbox) q.set('bbox', formatBbox(filters.bbox));
  if (filters.polygon) q.set('polygon', encodePolygon(filters.polygon));
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  return q.toString();
}
