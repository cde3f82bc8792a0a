/**
 * The search's filters (docs/product.md §3, §5, §7) as the browser holds them, which of them apply
 * (the ignored values of §5: 'any' type, a 0 minimum, the 999,999,999 maximum, blanks), and the
 * applied ones as named arguments: what public.listing_clusters takes and what a saved search keeps
 * (internal.listing_matches reads the same names). One home for the browser, the map, the alerts
 * function and the alert mails.
 */
import { formatArea, formatPrice, formatPricePill } from './format.ts';
import { typeLabel } from './listing.ts';
import { validPolygon, type LngLat } from './polygon.ts';

/** the spec's "any" maximum */
export const PRICE_MAX_ANY = 999_999_999;

export const FEATURE_FLAGS = ['pool', 'view', 'waterfront', 'garage', 'newConstruction', 'airConditioning'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

/** A feature as the database names it (internal.listings.features): newConstruction -> new_construction. */
export const featureColumn = (flag: FeatureFlag): string => flag.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const FEATURE_BY_COLUMN = new Map(FEATURE_FLAGS.map((f) => [featureColumn(f), f]));
const featureFlag = (column: string): FeatureFlag | undefined => FEATURE_BY_COLUMN.get(column);

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
  /** only listings with an open house in the next seven days (docs/visits.md "Open houses") */
  openHouse?: boolean;
  /** for rent; no operation: for sale (docs/product.md "Rent and buy") */
  operation?: Operation;
  /** the highest alícuota a month (a listing that does not say one is kept) */
  maxHoaFee?: number;
  /** at least this many parking spaces */
  parking?: number;
  /** with a storage unit (bodega) */
  storage?: boolean;
  /** furnished */
  furnished?: boolean;
  /** pets allowed (rentals) */
  pets?: boolean;
}

/** A listing's operation: for sale (what no operation means) or for rent (its price a month). */
export const OPERATIONS = ['sale', 'rent'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** the longest words a search keeps (public.words_query reads 200 characters) */
export const KEYWORDS_MAX = 200;

/** A search's words as it keeps them: every run of spaces one space, trimmed, at most KEYWORDS_MAX. */
export const cleanKeywords = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim().slice(0, KEYWORDS_MAX);

/** The filters that apply, after docs/product.md §5's ignored values: one list for every call. */
export type AppliedFilters = SearchFilters;

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
  /** an open house in the next seven days */
  open_house?: boolean;
  /** 'rent'; absent: sale */
  operation?: Operation;
  hoa_max?: number;
  parking_min?: number;
  storage?: boolean;
  furnished?: boolean;
  pets?: boolean;
}

type Translate = (key: string, params?: Record<string, unknown>) => string;
export type FilterKey = keyof SearchFilters;

/** A control of the filter bar: in the bar itself or behind "More filters", its label and its choices. */
export interface FilterControl {
  in: 'bar' | 'more';
  /** its label (a key of search.filters) */
  label: string;
  /** a select's choices; none: a number field */
  options?: readonly number[];
  /** a choice in words */
  option?: (n: number, t: Translate) => string;
  /** a rent's choices, where they differ from a sale's (docs/product.md "Rent and buy") */
  rentOptions?: readonly number[];
  /** shown for rentals only */
  rentOnly?: boolean;
}

/**
 * One filter, declared once (docs/architecture.md "Filters"): its name (the browser's, the search
 * page's URL parameter, an alert request's), what it holds and its bounds, its SQL argument
 * (internal.listing_matches), how a chip and a search's description say it, which control of the
 * filter bar shows it, and its embed attribute. The URL state, the filter bar and sheet, the chips,
 * the alert words, the alert request's validation and the arguments are made from this table; the
 * embed attributes (widgets/lib/listing/filter-attributes.ts) are checked against it.
 */
export interface FilterSpec {
  key: FilterKey;
  kind: 'operation' | 'type' | 'text' | 'place' | 'placeName' | 'id' | 'number' | 'features' | 'words' | 'bbox' | 'polygon' | 'flag';
  /** its argument; the map's box is four (area_west ...) */
  arg?: Exclude<keyof FilterArgs, 'area_west' | 'area_south' | 'area_east' | 'area_north'>;
  /** texts: the longest kept */
  maxLength?: number;
  /** numbers: the range a value must be in, whole or not; `any`: the value that means no limit */
  min?: number;
  max?: number;
  integer?: boolean;
  any?: number;
  /** where a search's description says it: what it is, where, then the rest */
  part?: 'what' | 'where' | 'rest';
  /** how a search's description (the alert form, mails and pages) says it */
  say?: (value: never, t: Translate) => string;
  /** how its chip says it (else as `say`) */
  chip?: (value: never, t: Translate) => string;
  control?: FilterControl;
  /** the attribute that presets it on an element */
  attribute?: string;
}

const price = (key: string) => (n: number, t: Translate) => t(key, { price: formatPrice(n) });
const area = (key: string) => (n: number, t: Translate) => t(key, { area: formatArea(n) });
const plus = (n: number, t: Translate) => t('search.filters.plus', { n });
const maxPriceOption = (n: number) => (n >= PRICE_MAX_ANY ? `${formatPricePill(10_000_000)}+` : formatPricePill(n));

// prettier-ignore
const TABLE = [
  { key: 'operation', kind: 'operation', arg: 'operation', part: 'where', say: (_: unknown, t: Translate) => t('phrases.forRent'), chip: (_: unknown, t: Translate) => t('search.chips.forRent'), attribute: 'operation' },
  { key: 'propertyType', kind: 'type', arg: 'property_type', maxLength: 100, part: 'what', say: (v: string, t: Translate) => typeLabel(v, t), attribute: 'property-type' },
  { key: 'place', kind: 'place', arg: 'place', maxLength: 170, part: 'where', say: (v: string, t: Translate) => t('phrases.city', { city: placeWords(v) }), chip: (v: string) => placeWords(v), attribute: 'place' },
  { key: 'placeName', kind: 'placeName', arg: 'place_name', maxLength: 100 },
  { key: 'city', kind: 'text', arg: 'city', maxLength: 100, part: 'where', say: (v: string, t: Translate) => t('phrases.city', { city: v }), chip: (v: string) => v, attribute: 'city' },
  { key: 'bbox', kind: 'bbox', part: 'where', say: (_: unknown, t: Translate) => t('phrases.mapArea') },
  { key: 'polygon', kind: 'polygon', arg: 'polygon', part: 'where', say: (_: unknown, t: Translate) => t('phrases.drawnArea'), chip: (_: unknown, t: Translate) => t('search.chips.polygon') },
  { key: 'keywords', kind: 'words', arg: 'words', maxLength: KEYWORDS_MAX, part: 'rest', say: (v: string, t: Translate) => t('phrases.words', { words: v }), chip: (v: string, t: Translate) => t('search.chips.keywords', { words: v }), control: { in: 'more', label: 'keywords' }, attribute: 'keywords' },
  { key: 'beds', kind: 'number', arg: 'beds_min', max: 20, integer: true, part: 'rest', say: (n: number, t: Translate) => t('phrases.beds', { count: n }), control: { in: 'bar', label: 'beds', options: [1, 2, 3, 4, 5], option: plus }, attribute: 'beds' },
  { key: 'baths', kind: 'number', arg: 'baths_min', max: 20, part: 'rest', say: (n: number, t: Translate) => t('phrases.baths', { count: n }), control: { in: 'bar', label: 'baths', options: [1, 2, 3, 4, 5], option: plus }, attribute: 'baths' },
  { key: 'minSqft', kind: 'number', arg: 'area_min', max: 10_000_000, part: 'rest', say: area('phrases.minArea'), control: { in: 'bar', label: 'minArea', options: [50, 100, 150, 200, 300], option: (n, t) => t('search.filters.areaPlus', { n }) } },
  { key: 'maxSqft', kind: 'number', arg: 'area_max', max: 10_000_000, part: 'rest', say: area('phrases.maxArea') },
  { key: 'minPrice', kind: 'number', arg: 'price_min', max: PRICE_MAX_ANY, part: 'rest', say: price('phrases.minPrice'), control: { in: 'bar', label: 'minPrice', options: [100_000, 250_000, 500_000, 1_000_000, 2_000_000], rentOptions: [300, 500, 800, 1_200, 2_000], option: (n) => formatPricePill(n) }, attribute: 'min-price' },
  { key: 'maxPrice', kind: 'number', arg: 'price_max', max: PRICE_MAX_ANY, any: PRICE_MAX_ANY, part: 'rest', say: price('phrases.maxPrice'), control: { in: 'bar', label: 'maxPrice', options: [500_000, 1_000_000, 2_000_000, 5_000_000, PRICE_MAX_ANY], rentOptions: [300, 500, 800, 1_200, 2_000], option: maxPriceOption }, attribute: 'max-price' },
  { key: 'yearBuiltFrom', kind: 'number', arg: 'year_min', min: 1500, max: 2100, integer: true, part: 'rest', say: (n: number, t: Translate) => t('phrases.builtFrom', { year: n }), control: { in: 'more', label: 'yearFrom' } },
  { key: 'yearBuiltTo', kind: 'number', arg: 'year_max', min: 1500, max: 2100, integer: true, part: 'rest', say: (n: number, t: Translate) => t('phrases.builtTo', { year: n }), control: { in: 'more', label: 'yearTo' } },
  { key: 'minLotSize', kind: 'number', arg: 'lot_min', max: 10_000_000, part: 'rest', say: area('phrases.minLot'), control: { in: 'more', label: 'minLot' } },
  { key: 'maxLotSize', kind: 'number', arg: 'lot_max', max: 10_000_000, part: 'rest', say: area('phrases.maxLot'), control: { in: 'more', label: 'maxLot' } },
  { key: 'features', kind: 'features', arg: 'features', part: 'rest', control: { in: 'more', label: 'features' }, say: (v: FeatureFlag[], t: Translate) => t('phrases.features', { list: v.map((f) => t(`search.filters.feature.${f}`).toLowerCase()).join(', ') }), attribute: 'features' },
  { key: 'maxHoaFee', kind: 'number', arg: 'hoa_max', max: 100_000, part: 'rest', say: price('phrases.maxHoaFee'), control: { in: 'more', label: 'maxHoaFee', options: [50, 100, 150, 200, 300], option: (n) => formatPrice(n) }, attribute: 'max-hoa-fee' },
  { key: 'parking', kind: 'number', arg: 'parking_min', max: 20, integer: true, part: 'rest', say: (n: number, t: Translate) => t('phrases.parking', { count: n }), control: { in: 'more', label: 'parking', options: [1, 2, 3], option: plus }, attribute: 'parking' },
  { key: 'storage', kind: 'flag', arg: 'storage', part: 'rest', say: (_: unknown, t: Translate) => t('phrases.storage'), chip: (_: unknown, t: Translate) => t('search.chips.storage'), control: { in: 'more', label: 'storage' }, attribute: 'storage' },
  { key: 'furnished', kind: 'flag', arg: 'furnished', part: 'rest', say: (_: unknown, t: Translate) => t('phrases.furnished'), chip: (_: unknown, t: Translate) => t('search.chips.furnished'), control: { in: 'more', label: 'furnished' }, attribute: 'furnished' },
  { key: 'pets', kind: 'flag', arg: 'pets', part: 'rest', say: (_: unknown, t: Translate) => t('phrases.pets'), chip: (_: unknown, t: Translate) => t('search.chips.pets'), control: { in: 'more', label: 'pets', rentOnly: true }, attribute: 'pets' },
  { key: 'openHouse', kind: 'flag', arg: 'open_house', part: 'rest', say: (_: unknown, t: Translate) => t('phrases.openHouse'), chip: (_: unknown, t: Translate) => t('search.chips.openHouse'), control: { in: 'more', label: 'openHouse' }, attribute: 'open-house' },
  { key: 'agentId', kind: 'id', arg: 'agent', maxLength: 40, part: 'rest', say: (_: unknown, t: Translate) => t('phrases.agent'), attribute: 'agent-id' },
] as const satisfies readonly FilterSpec[];

// the typings are checked against the table: a filter of SearchFilters without its row does not compile
const everyFilterHasItsRow: [Exclude<FilterKey, (typeof TABLE)[number]['key']>] extends [never] ? true : never = true;
void everyFilterHasItsRow;

export const FILTERS: readonly FilterSpec[] = TABLE;

export const FILTER = Object.fromEntries(FILTERS.map((f) => [f.key, f])) as Record<FilterKey, FilterSpec>;

export type NumberFilter =
  'minPrice' | 'maxPrice' | 'beds' | 'baths' | 'minSqft' | 'maxSqft' | 'yearBuiltFrom' | 'yearBuiltTo' | 'minLotSize' | 'maxLotSize' | 'maxHoaFee' | 'parking';

/** The yes-or-no filters, a checkbox each behind "More filters", in the table's order. */
export type FlagFilter = 'storage' | 'furnished' | 'pets' | 'openHouse';
export const FLAG_FILTERS = FILTERS.filter((f) => f.kind === 'flag' && f.control?.in === 'more').map((f) => f.key) as FlagFilter[];

/** Whether a filter's control shows, and the filter applies, for the search's operation (pets: rentals only). */
export const shownFor = (key: FilterKey, operation: Operation | undefined): boolean => operation === 'rent' || !FILTER[key].control?.rentOnly;

/** A control's choices for the search's operation (a rent's prices are a month's). */
export const controlOptions = (control: FilterControl | undefined, operation: Operation | undefined): readonly number[] =>
  (operation === 'rent' ? control?.rentOptions : undefined) ?? control?.options ?? [];

/** The number filters, in the table's order. */
export const NUMBER_FILTERS = FILTERS.filter((f) => f.kind === 'number').map((f) => f.key) as NumberFilter[];

/** A place's path in words when its name was not kept: 'quito/la-carolina' -> 'La Carolina, Quito'. */
function placeWords(path: string): string {
  const p = parsePlace(path);
  const words = (slug: string) =>
    slug
      .split('-')
      .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
      .join(' ');
  if (!p) return path;
  if ('province' in p) return words(p.province);
  return p.sector ? `${words(p.sector)}, ${words(p.city)}` : words(p.city);
}

/** One filter's value as it applies (docs/product.md §5: 'any', 0, 999,999,999 and blanks do not); undefined when it does not. */
function applied(spec: FilterSpec, value: unknown, all: SearchFilters): unknown {
  switch (spec.kind) {
    case 'operation':
      // a sale is what no operation means
      return value === 'rent' ? value : undefined;
    case 'type': {
      const v = typeof value === 'string' ? value.trim() : '';
      return v && v.toLowerCase() !== 'any' ? v : undefined;
    }
    case 'text':
    case 'id': {
      const v = typeof value === 'string' ? value.trim() : '';
      return v || undefined;
    }
    case 'place':
      return typeof value === 'string' && parsePlace(value) ? value : undefined;
    case 'placeName': {
      const v = typeof value === 'string' ? value.trim() : '';
      return v && parsePlace(all.place) ? v : undefined;
    }
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && value > 0 && (spec.any === undefined || value < spec.any) ? value : undefined;
    case 'features': {
      const flags = FEATURE_FLAGS.filter((flag) => (value as SearchFilters['features'])?.[flag] === true);
      return flags.length ? Object.fromEntries(flags.map((flag) => [flag, true])) : undefined;
    }
    case 'words':
      return cleanKeywords(value as string) || undefined;
    case 'bbox':
      return validBbox(value);
    case 'polygon':
      return validPolygon(value);
    case 'flag':
      return value === true ? true : undefined;
  }
}

export function appliedFilters(f: SearchFilters): AppliedFilters {
  const out: Record<string, unknown> = {};
  for (const spec of FILTERS) {
    const v = applied(spec, f[spec.key], f);
    if (v !== undefined) out[spec.key] = v;
  }
  return out as AppliedFilters;
}

export function filterArgs(filters: SearchFilters): FilterArgs {
  const f = appliedFilters(filters);
  const args: Record<string, unknown> = {};
  for (const spec of FILTERS) {
    const v = f[spec.key];
    if (v === undefined) continue;
    if (spec.kind === 'features') args.features = FEATURE_FLAGS.filter((flag) => f.features?.[flag]).map(featureColumn);
    else if (spec.kind === 'bbox') [args.area_west, args.area_south, args.area_east, args.area_north] = v as number[];
    else if (spec.arg) args[spec.arg] = v;
  }
  return args as FilterArgs;
}

/** Back from the arguments (a saved search) to the filters the search page takes. */
export function filtersFromArgs(args: FilterArgs): AppliedFilters {
  const f: Record<string, unknown> = {};
  for (const spec of FILTERS) {
    if (spec.kind === 'features') {
      const flags = (args.features ?? []).map(featureFlag).filter((flag): flag is FeatureFlag => flag !== undefined);
      if (flags.length) f.features = Object.fromEntries(flags.map((flag) => [flag, true]));
    } else if (spec.kind === 'bbox') {
      const box = validBbox([args.area_west, args.area_south, args.area_east, args.area_north]);
      if (box) f.bbox = box;
    } else if (spec.arg && args[spec.arg] !== undefined && args[spec.arg] !== null && args[spec.arg] !== '') f[spec.key] = args[spec.arg];
  }
  return appliedFilters(f as SearchFilters);
}

/**
 * Each applied filter in words, in the table's order: the search's chips (one per feature, so each
 * can be removed) and its description (describeSearch).
 */
export function filterPhrases(
  f: AppliedFilters,
  t: Translate,
  as: 'say' | 'chip',
): Array<{ key: FilterKey; flag?: FeatureFlag; part: 'what' | 'where' | 'rest'; text: string }> {
  const out: Array<{ key: FilterKey; flag?: FeatureFlag; part: 'what' | 'where' | 'rest'; text: string }> = [];
  for (const spec of FILTERS) {
    const v = f[spec.key];
    if (v === undefined || !spec.part) continue;
    const words = (as === 'chip' ? spec.chip : undefined) ?? spec.say;
    if (!words) continue;
    if (spec.kind === 'place' && f.placeName)
      out.push({ key: spec.key, part: spec.part, text: as === 'chip' ? f.placeName : t('phrases.city', { city: f.placeName }) });
    else if (spec.kind === 'features' && as === 'chip')
      for (const flag of FEATURE_FLAGS.filter((x) => f.features?.[x]))
        out.push({ key: spec.key, flag, part: spec.part, text: t(`search.filters.feature.${flag}`) });
    else if (spec.kind === 'features')
      out.push({
        key: spec.key,
        part: spec.part,
        text: (words as (x: FeatureFlag[], t: Translate) => string)(
          FEATURE_FLAGS.filter((x) => f.features?.[x]),
          t,
        ),
      });
    else out.push({ key: spec.key, part: spec.part, text: (words as (x: unknown, t: Translate) => string)(v, t) });
  }
  return out;
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
